import { describe, expect, it } from "vitest";
import { bytes, expectCode, expectEmpty, listAll, submit, type TargetRef } from "./helpers.js";
import { requestBodyBytes, transactionOfBodySize } from "./request-payload.js";
import { documentedEntitySize } from "./sizes.js";

/**
 * The 4 MiB limit of an entity group transaction's request body (limits.maxTransactionBytes):
 * what the Table service measures is the multipart body — JSON with type annotations, Binary as
 * base64 — not the entities' size formula. Past it: RequestBodyTooLarge, nothing written.
 */
export function transactionSizeSuite(target: TargetRef): void {
  describe("transaction request size", () => {
    for (const kind of ["String", "Binary"] as const) {
      it(`${kind} values: a request body of exactly the limit is accepted; one byte more is RequestBodyTooLarge`, async () => {
        const t = await target().freshTable();
        const limits = target().capabilities.limits;
        const over = transactionOfBodySize(t.tableName, limits.maxTransactionBytes + 1, kind, limits);
        await expectCode(
          submit(
            t,
            over.map((e) => ["create", e]),
          ),
          "RequestBodyTooLarge",
        );
        await expectEmpty(t);
        const exact = transactionOfBodySize(t.tableName, limits.maxTransactionBytes, kind, limits);
        await submit(
          t,
          exact.map((e) => ["create", e]),
        );
        expect(await listAll(t, undefined, ["PartitionKey", "RowKey"])).toHaveLength(exact.length);
      });
    }

    it("one entity more than a body at the limit is RequestBodyTooLarge", async () => {
      const t = await target().freshTable();
      const limits = target().capabilities.limits;
      const exact = transactionOfBodySize(t.tableName, limits.maxTransactionBytes, "Binary", limits);
      const plusOne = [...exact, { partitionKey: "p", rowKey: "one-more" }];
      expect(plusOne.length).toBeLessThanOrEqual(limits.maxTransactionOperations);
      await expectCode(
        submit(
          t,
          plusOne.map((e) => ["create", e]),
        ),
        "RequestBodyTooLarge",
      );
      await expectEmpty(t);
    });

    it("Binary counts as base64: entities of 3.3 MiB by the size formula make a body past 4 MiB", async () => {
      const t = await target().freshTable();
      const limits = target().capabilities.limits;
      const entities: Record<string, unknown>[] = [];
      for (let i = 0; i < 77; i++) {
        if (i % 6 === 0) entities.push({ partitionKey: "p", rowKey: `r${i}` });
        entities.at(-1)![`b${i % 6}`] = bytes(45_000, i);
      }
      const typed = entities as { partitionKey: string; rowKey: string }[];
      expect(typed.reduce((n, e) => n + documentedEntitySize(e), 0)).toBeLessThan(limits.maxTransactionBytes);
      expect(requestBodyBytes(t.tableName, typed)).toBeGreaterThan(limits.maxTransactionBytes);
      await expectCode(
        submit(
          t,
          typed.map((e) => ["create", e]),
        ),
        "RequestBodyTooLarge",
      );
      await expectEmpty(t);
    });
  });
}
