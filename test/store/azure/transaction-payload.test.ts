/**
 * The core's transaction payload count against the body the Azure backend really sends: equal for
 * every kind of action and value (account URL of PAYLOAD_ACCOUNT_URL_BYTES), an upper bound for a
 * shorter URL, and for a merge sent as PATCH rather than Cosmos DB's POST + X-HTTP-Method.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type NormalizedEntity,
  PAYLOAD_ACCOUNT_URL_BYTES,
  type TypedValue,
  transactionPayloadBytes,
} from "../../../src/model/index.js";
import { batchBody } from "../../../src/store/backends/azure/table-batch-body.js";
import type { BackendAction } from "../../../src/store/tables/table-backend.js";

const ETAG = `W/"datetime'2026-11-22T02%3A49%3A12.9327936Z'"`;
const boundary = `batch_${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}`;

const value: fc.Arbitrary<TypedValue> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }).map((value): TypedValue => ({ type: "String", value })),
  fc.uint8Array({ maxLength: 40 }).map((value): TypedValue => ({ type: "Binary", value })),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value): TypedValue => ({ type: "Int32", value })),
  fc
    .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
    .map((value): TypedValue => ({ type: "Int64", value })),
  fc.double().map((value): TypedValue => ({ type: "Double", value })),
  fc.boolean().map((value): TypedValue => ({ type: "Boolean", value })),
  fc.uuid().map((value): TypedValue => ({ type: "Guid", value })),
);

const key = fc.string({ unit: "grapheme", maxLength: 12 });
const entity: fc.Arbitrary<NormalizedEntity> = fc.record({
  partitionKey: key,
  rowKey: key,
  properties: fc
    .dictionary(fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }), value)
    .map((d) => new Map(Object.entries(d))),
});
const action: fc.Arbitrary<BackendAction> = fc.oneof(
  entity.map((e): BackendAction => ({ kind: "create", entity: e })),
  fc
    .tuple(entity, fc.constantFrom("Merge" as const, "Replace" as const))
    .map(([e, mode]): BackendAction => ({ kind: "upsert", entity: e, mode })),
  fc
    .tuple(entity, fc.constantFrom("Merge" as const, "Replace" as const), fc.constantFrom("*", ETAG))
    .map(([e, mode, etag]): BackendAction => ({ kind: "update", entity: e, mode, etag })),
  fc
    .tuple(key, key, fc.constantFrom("*", ETAG))
    .map(([partitionKey, rowKey, etag]): BackendAction => ({ kind: "delete", partitionKey, rowKey, etag })),
);

const sent = (actions: BackendAction[], accountUrl: string, cosmos: boolean) =>
  Buffer.byteLength(batchBody(boundary, actions, { accountUrl, table: "Orders", cosmos }));

describe("transactionPayloadBytes", () => {
  const longest = `https://${"a".repeat(PAYLOAD_ACCOUNT_URL_BYTES - "https://".length)}`;

  it("equals the bytes the Azure backend sends (Cosmos DB's merge form, the longest account URL)", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 6 }), (actions) => {
        expect(transactionPayloadBytes("Orders", actions)).toBe(sent(actions, longest, true));
      }),
    );
  });

  it("bounds the Azure Storage form with a real account URL from above", () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 6 }), (actions) => {
        const counted = transactionPayloadBytes("Orders", actions);
        expect(counted).toBeGreaterThanOrEqual(sent(actions, longest, false));
        expect(counted).toBeGreaterThan(sent(actions, "http://127.0.0.1:10002/devstoreaccount1", false));
      }),
    );
  });

  it("counts Binary as base64: 3 bytes are 4 characters", () => {
    const of = (n: number) =>
      transactionPayloadBytes("Orders", [
        {
          kind: "create",
          entity: {
            partitionKey: "p",
            rowKey: "r",
            properties: new Map([["b", { type: "Binary", value: new Uint8Array(n) }]]),
          },
        },
      ]);
    expect([of(1) - of(0), of(2) - of(0), of(3) - of(0), of(300) - of(0)]).toEqual([4, 4, 4, 400]);
  });
});
