import { DYNAMODB_LIMITS, type Limits } from "../../../model/index.js";
import type { Capabilities } from "../../tables/table-capabilities.js";

/** DynamoDB's item limit, 400 KiB of attribute names and values measured in UTF-8. */
export const DYNAMODB_ITEM_BYTES = 400 * 1024;
/** DynamoDB's limit on the summed item sizes of one TransactWriteItems call. */
export const DYNAMODB_TRANSACTION_BYTES = 4 * 1024 * 1024;

/**
 * What tablekit's layout stores beyond `utf8ItemSize`: the Timestamp attribute (37 bytes), the key
 * escape (1 byte a key at most) and, per property, the type in the attribute name (at most 9 bytes,
 * `@DateTime`, beyond what `utf8ItemSize` counts). A worst-case entity at `maxItemBytes` still fits.
 */
export function layoutReserve(maxProperties: number): number {
  return 37 + 2 + 9 * maxProperties;
}

/**
 * DYNAMODB_LIMITS with the caller's overrides; the item limit follows `maxProperties` (each
 * property may add a type suffix to the item).
 */
export function dynamodbLimits(overrides: Partial<Limits> = {}): Limits {
  const base: Limits = { ...DYNAMODB_LIMITS, ...overrides };
  return Object.freeze({
    ...base,
    maxItemBytes: overrides.maxItemBytes ?? DYNAMODB_ITEM_BYTES - layoutReserve(base.maxProperties),
  });
}

/** What the DynamoDB backend does, as data. */
export function dynamodbCapabilities(overrides?: Partial<Limits>): Capabilities {
  return Object.freeze({
    backend: "dynamodb",
    limits: dynamodbLimits(overrides),
    keyOrder: "utf8",
    persistent: true,
    multiProcess: true,
    pageEndsAtPartitionBoundary: false,
    divergences: Object.freeze([
      {
        id: "dynamodb-item-size",
        description:
          "Entities are limited by DynamoDB's 400 KiB item rule (limits.maxItemBytes, UTF-8), not only by Azure's 1 MiB formula.",
      },
      {
        id: "dynamodb-merge-transaction-size",
        description:
          "A Merge is written as the whole merged item, and DynamoDB counts a transaction's items against its " +
          `own ${DYNAMODB_TRANSACTION_BYTES}-byte limit: a transaction of Merges into large stored entities can pass ` +
          "it (RequestBodyTooLarge, nothing written) where the service, which measures only the request, " +
          "accepts it. Every other transaction within limits.maxTransactionBytes is within DynamoDB's limit.",
      },
      {
        id: "dynamodb-key-order",
        description: "Keys are ordered by UTF-8 bytes (code points), not UTF-16 code units.",
      },
    ]),
  });
}
