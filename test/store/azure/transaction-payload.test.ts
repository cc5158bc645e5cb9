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
  transactionPayloadBound,
  transactionPayloadBytes,
} from "../../../src/model/index.js";
import { batchBody } from "../../../src/store/backends/azure/table-batch-body.js";
import type { BackendAction } from "../../../src/store/tables/table-backend.js";
import { typedValueArb } from "../../support/arbitraries.js";

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

  it("transactionPayloadBound (what spares most transactions the exact count) is never below it", () => {
    const anyKey = fc.oneof(key, fc.string({ unit: "binary", maxLength: 12 }));
    const anyEntity: fc.Arbitrary<NormalizedEntity> = fc.record({
      partitionKey: anyKey,
      rowKey: anyKey,
      properties: fc
        .dictionary(fc.string({ unit: "binary", minLength: 1, maxLength: 8 }), fc.oneof(value, typedValueArb))
        .map((d) => new Map(Object.entries(d))),
    });
    const anyAction = fc.oneof(
      action,
      anyEntity.map((e): BackendAction => ({ kind: "create", entity: e })),
      fc
        .tuple(anyEntity, fc.constantFrom("Merge" as const, "Replace" as const), fc.constantFrom("*", ETAG))
        .map(([e, mode, etag]): BackendAction => ({ kind: "update", entity: e, mode, etag })),
      fc
        .tuple(anyKey, anyKey, fc.constantFrom("*", ETAG))
        .map(
          ([partitionKey, rowKey, etag]): BackendAction => ({ kind: "delete", partitionKey, rowKey, etag }),
        ),
    );
    // The worst case of each part, long enough that no slack elsewhere hides a bound too low.
    const long = (unit: string) => unit.repeat(2000);
    const worst: BackendAction[] = [
      {
        kind: "create",
        entity: {
          partitionKey: "",
          rowKey: "",
          properties: new Map([["s", { type: "String", value: long("\u0001") }]]),
        },
      },
      {
        kind: "create",
        entity: {
          partitionKey: "",
          rowKey: "",
          properties: new Map([[long("\u0001"), { type: "Boolean", value: true }]]),
        },
      },
      {
        kind: "update",
        mode: "Merge",
        etag: ETAG,
        entity: { partitionKey: long("\u0800"), rowKey: long("\u0001"), properties: new Map() },
      },
      { kind: "delete", partitionKey: long("\u0800"), rowKey: long("\uffff"), etag: ETAG },
      {
        kind: "create",
        entity: {
          partitionKey: "",
          rowKey: "",
          properties: new Map([["b", { type: "Binary", value: new Uint8Array(6000) }]]),
        },
      },
    ];
    const many = (tv: TypedValue) => new Map(Array.from({ length: 250 }, (_, i) => [`p${i}`, tv]));
    worst.push(
      {
        kind: "create",
        entity: { partitionKey: "", rowKey: "", properties: many({ type: "Guid", value: "0".repeat(36) }) },
      },
      {
        kind: "create",
        entity: {
          partitionKey: "",
          rowKey: "",
          properties: many({ type: "Double", value: -2.2250738585072014e-308 }),
        },
      },
    );
    for (const a of worst)
      expect(transactionPayloadBound("Orders", [a])).toBeGreaterThanOrEqual(
        transactionPayloadBytes("Orders", [a]),
      );
    fc.assert(
      fc.property(fc.array(anyAction, { minLength: 1, maxLength: 6 }), fc.nat(80), (actions, urlBytes) => {
        const options = { accountUrlBytes: urlBytes };
        expect(transactionPayloadBound("Orders", actions, options)).toBeGreaterThanOrEqual(
          transactionPayloadBytes("Orders", actions, options),
        );
      }),
      { numRuns: 2000 },
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
