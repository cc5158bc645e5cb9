import {
  AZURE_LIMITS,
  DYNAMODB_LIMITS,
  type KeyName,
  type Limits,
  TableKitError,
  validateKey,
} from "../model/index.js";
import { invalidInput } from "./errors.js";

/**
 * Checks a key against one backend's rules, given as its limits — `store.capabilities.limits`,
 * `AZURE_LIMITS` (also the embedded engine's) or `DYNAMODB_LIMITS` — and returns it: a string
 * without unpaired surrogates (InvalidInput), without the limits' forbidden characters
 * (OutOfRangeInput), at most `maxKeyBytes` in `keyEncoding` (KeyValueTooLarge). The same check the
 * store makes before a write, so a key accepted here is accepted there.
 */
export function validateKeyFor(limits: Limits, kind: KeyName, key: unknown): string {
  if (kind !== "PartitionKey" && kind !== "RowKey") {
    throw invalidInput("validateKeyFor", `kind must be "PartitionKey" or "RowKey", got ${String(kind)}`);
  }
  if (typeof limits !== "object" || limits === null || !(limits.forbiddenKeyCharacters instanceof RegExp)) {
    throw invalidInput("validateKeyFor", "limits must be a backend's limits, e.g. store.capabilities.limits");
  }
  return validateKey(kind, key, limits);
}

/** Checks a key against the rules of every backend (Azure's and DynamoDB's) and returns it. */
export function validateKeyEverywhere(kind: KeyName, key: unknown): string {
  validateKeyFor(AZURE_LIMITS, kind, key);
  return validateKeyFor(DYNAMODB_LIMITS, kind, key);
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
