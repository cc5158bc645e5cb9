import { AZURE_LIMITS, type KeyName, TableKitError, validateKey } from "../model/index.js";
import { invalidInput } from "./errors.js";

/** The backends whose key rules differ: the embedded engine and Cosmos DB follow Azure's. */
export type KeyBackend = "azure" | "dynamodb";

/** DynamoDB's key rules: 1-2048 UTF-8 bytes for a partition key, 1-1024 for a sort key. */
export const DYNAMODB_KEY_LIMITS = Object.freeze({ partitionKeyMaxBytes: 2048, sortKeyMaxBytes: 1024 });

/**
 * Checks a key against one backend's rules and returns it. Azure: no `/ \ # ?`, no U+0000-U+001F
 * or U+007F-U+009F (OutOfRangeInput), at most 1 KiB as UTF-16 (KeyValueTooLarge); empty keys are
 * allowed. DynamoDB: PartitionKey (partition key) 1-2048 and RowKey (sort key) 1-1024 UTF-8 bytes
 * (KeyValueTooLarge), not empty (InvalidInput). Both: a string without unpaired surrogates (InvalidInput).
 */
export function validateKeyFor(backend: KeyBackend, kind: KeyName, key: unknown): string {
  if (kind !== "PartitionKey" && kind !== "RowKey") {
    throw invalidInput("validateKeyFor", `kind must be "PartitionKey" or "RowKey", got ${String(kind)}`);
  }
  if (backend === "azure") return validateKey(kind, key, AZURE_LIMITS);
  if (backend !== "dynamodb") throw invalidInput("validateKeyFor", `unknown backend ${String(backend)}`);
  if (typeof key !== "string") {
    throw new TableKitError(
      "InvalidInput",
      `${kind} must be a string, got ${key === null ? "null" : typeof key}`,
      {
        details: { key: kind },
      },
    );
  }
  if (key.length === 0) {
    throw new TableKitError("InvalidInput", `${kind} may not be empty on DynamoDB`, {
      details: { key: kind },
    });
  }
  if (!key.isWellFormed()) {
    throw new TableKitError("InvalidInput", `${kind} contains an unpaired surrogate`, {
      details: { key: kind },
    });
  }
  const limit =
    kind === "PartitionKey" ? DYNAMODB_KEY_LIMITS.partitionKeyMaxBytes : DYNAMODB_KEY_LIMITS.sortKeyMaxBytes;
  // A UTF-16 code unit is at most 3 UTF-8 bytes: skip the byte count when the key is surely short.
  const size = key.length * 3 <= limit ? 0 : Buffer.byteLength(key, "utf8");
  if (size > limit) {
    throw new TableKitError(
      "KeyValueTooLarge",
      `${kind} is ${size} UTF-8 bytes; DynamoDB's limit is ${limit}`,
      {
        details: { key: kind, size, limit },
      },
    );
  }
  return key;
}

/** Checks a key against every backend's rules (Azure's and DynamoDB's) and returns it. */
export function validateKeyEverywhere(kind: KeyName, key: unknown): string {
  validateKeyFor("azure", kind, key);
  return validateKeyFor("dynamodb", kind, key);
}

/**
 * Checks a string a codec writes into its keys as is (a version key's item, a bucketed key): it
 * must be well-formed and free of the characters Azure forbids in keys.
 */
export function checkEmbeddable(codec: string, what: string, text: unknown): string {
  if (typeof text !== "string") throw invalidInput(codec, `${what} must be a string, got ${typeof text}`);
  if (!text.isWellFormed()) throw invalidInput(codec, `${what} contains an unpaired surrogate`);
  const bad = AZURE_LIMITS.forbiddenKeyCharacters.exec(text);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    throw new TableKitError(
      "OutOfRangeInput",
      `${codec}: ${what} contains U+${code}, forbidden in Azure keys`,
      {
        details: { codec, position: bad.index },
      },
    );
  }
  return text;
}
