import { describe, expect, it } from "vitest";
import { decodeContinuationToken, pagedIterator, tokenScope } from "../../src/store/paging.js";
import { expectCode } from "../support/expect-code.js";

/**
 * The paged iterator the core's listings share, over a fake page source: three pages of the
 * numbers 0..6 (`fetched` records each fetch), as async generators behaved before it was written
 * without them (they serialize `next()` calls and end at the first error).
 */
function numbers(failAt?: string) {
  const fetched: { size: number; continuation?: string }[] = [];
  const scope = tokenScope("entities", "Numbers", undefined);
  const iterator = pagedIterator(
    async (size, continuation) => {
      fetched.push({ size, ...(continuation === undefined ? {} : { continuation }) });
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (failAt !== undefined && continuation === failAt) throw new Error("the backend failed");
      const from = continuation === undefined ? 0 : Number(continuation);
      const items = [0, 1, 2, 3, 4, 5, 6].slice(from, from + size);
      return from + size < 7 ? { items, continuation: String(from + size) } : { items };
    },
    { defaultPageSize: 3, maxPageSize: 5, tokenScope: scope },
  );
  return { iterator, fetched, scope };
}

describe("paged iterators", () => {
  it("iterate every item, and byPage gives pages with a token on all but the last", async () => {
    const flat: number[] = [];
    for await (const n of numbers().iterator) flat.push(n);
    expect(flat).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const { iterator, scope } = numbers();
    const pages: (number[] & { continuationToken?: string })[] = [];
    for await (const page of iterator.byPage()) pages.push(page);
    expect(pages.map((p) => [...p])).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(
      pages.map((p) => p.continuationToken && decodeContinuationToken(p.continuationToken, scope)),
    ).toEqual(["3", "6", undefined]);
  });

  it("resume from a token, and take concurrent next() calls one page after another", async () => {
    const first = await numbers().iterator.byPage({ maxPageSize: 2 }).next();
    const { iterator, fetched } = numbers();
    const pages = iterator.byPage({ maxPageSize: 2, continuationToken: first.value.continuationToken });
    const results = await Promise.all([pages.next(), pages.next(), pages.next(), pages.next()]);
    expect(results.map((r) => (r.done ? "done" : [...r.value]))).toEqual([[2, 3], [4, 5], [6], "done"]);
    expect(fetched).toEqual([
      { size: 2, continuation: "2" },
      { size: 2, continuation: "4" },
      { size: 2, continuation: "6" },
    ]);
  });

  it("reject a bad page size or token on the first next(), then are done", async () => {
    for (const maxPageSize of [0, 6, 2.5]) {
      const { iterator, fetched } = numbers();
      const pages = iterator.byPage({ maxPageSize });
      await expectCode(pages.next(), "InvalidInput");
      expect(await pages.next()).toEqual({ done: true, value: undefined });
      expect(fetched).toEqual([]);
    }
    const pages = numbers().iterator.byPage({ continuationToken: "tk2.nonsense" });
    await expectCode(pages.next(), "InvalidContinuationToken");
  });

  it("end at a failed fetch, and fetch nothing after return()", async () => {
    const failing = numbers("3").iterator.byPage();
    expect((await failing.next()).done).toBe(false);
    await expect(failing.next()).rejects.toThrow("the backend failed");
    expect(await failing.next()).toEqual({ done: true, value: undefined });

    const { iterator, fetched } = numbers();
    const pages = iterator.byPage();
    expect(await pages.return!(undefined)).toEqual({ done: true, value: undefined });
    expect(await pages.next()).toEqual({ done: true, value: undefined });
    expect(fetched).toEqual([]);
    const items = numbers();
    expect((await items.iterator.next()).value).toBe(0);
    await items.iterator.return!(undefined);
    expect(await items.iterator.next()).toEqual({ done: true, value: undefined });
    expect(items.fetched).toHaveLength(1);
  });
});
