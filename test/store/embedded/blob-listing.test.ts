import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BlobContainer, openStore, type Store } from "../../../src/index.js";
import {
  LISTING_CHUNK_WORK,
  type ListingWork,
  observeListing,
} from "../../../src/store/backends/embedded/blob-listing.js";

/**
 * What a listing page costs the embedded engine, counted (speed is bench/server.bench.ts's blob
 * listing row): a page reads about twice its size in rows however many virtual directories it
 * crosses, and a page needing more work than one chunk runs in several (each yields the loop).
 */

let store: Store;
const pages: ListingWork[] = [];

beforeAll(async () => {
  store = await openStore("memory:");
  observeListing((work) => pages.push(work));
});
afterAll(async () => {
  observeListing(undefined);
  await store.close();
});
afterEach(() => {
  pages.length = 0;
});

let containers = 0;
async function fresh(names: Iterable<string>): Promise<BlobContainer> {
  const c = await store.createContainer(`listing-${++containers}`);
  for (const name of names) await c.uploadBlockBlob(name, "x", 1);
  return c;
}

type Item = { kind: "blob" | "prefix"; name: string };

async function hierarchy(c: BlobContainer, delimiter: string, prefix: string, maxPageSize: number) {
  const out: Item[][] = [];
  for await (const page of c.listBlobsByHierarchy(delimiter, { prefix }).byPage({ maxPageSize })) {
    out.push(
      [
        ...page.segment.blobPrefixes.map((p) => ({ kind: "prefix" as const, name: p.name })),
        ...page.segment.blobItems.map((b) => ({ kind: "blob" as const, name: b.name })),
      ].sort((a, b) => utf8Order(a.name, b.name)),
    );
  }
  return out;
}

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The listing as the documentation defines it, computed the slow, obvious way. */
function reference(names: readonly string[], delimiter: string, prefix: string): Item[] {
  const seen = new Map<string, Item>();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const cut = name.indexOf(delimiter, prefix.length);
    const item: Item =
      cut < 0 ? { kind: "blob", name } : { kind: "prefix", name: name.slice(0, cut + delimiter.length) };
    seen.set(`${item.kind}:${item.name}`, item);
  }
  return [...seen.values()].sort((a, b) => utf8Order(a.name, b.name));
}

describe("embedded blob listing with a delimiter", () => {
  // 1,500 directories of 4 blobs each, between loose blobs: the shape that made each directory
  // re-read a page of rows (6,000 blobs took 35 s with `delimiter=.`).
  const names = Array.from({ length: 1_500 }, (_, d) =>
    ["a", "b", "c", "d"].map((leaf) => `d${String(d).padStart(5, "0")}.${leaf}`),
  ).flat();
  names.push("loose-1", "loose-2", "z.end");

  it("answers every page right while reading about twice the page in rows", async () => {
    const c = await fresh(names);
    pages.length = 0;
    const got = await hierarchy(c, ".", "", 1_000);
    expect(got.flat()).toEqual(reference(names, ".", ""));
    expect(got.slice(0, -1).every((p) => p.length === 1_000)).toBe(true);
    expect(pages).toHaveLength(got.length);
    for (const work of pages) expect(work.rowsRead).toBeLessThanOrEqual(2 * (1_000 + 1));
    // Each directory costs one seek, so a full page of them spans several bounded chunks.
    expect(pages[0]!.statements).toBeGreaterThanOrEqual(1_000);
    expect(pages[0]!.chunks).toBeGreaterThan(1);
    expect(pages[0]!.rowsRead + pages[0]!.statements).toBeLessThanOrEqual(
      pages[0]!.chunks * LISTING_CHUNK_WORK,
    );
  });

  it("skips a huge directory in one seek, also when resuming from a token that ends inside it", async () => {
    const big = Array.from({ length: 5_000 }, (_, i) => `big/${String(i).padStart(5, "0")}`);
    const c = await fresh([...big, "a", "big0", "bigger/x", "c/d"]);
    pages.length = 0;
    const got = await hierarchy(c, "/", "", 2);
    expect(got).toEqual([
      [
        { kind: "blob", name: "a" },
        { kind: "prefix", name: "big/" },
      ],
      [
        { kind: "blob", name: "big0" },
        { kind: "prefix", name: "bigger/" },
      ],
      [{ kind: "prefix", name: "c/" }],
    ]);
    for (const work of pages) expect(work.rowsRead).toBeLessThanOrEqual(2 * (2 + 1));
  });

  it("a flat listing of the same rows reads one page plus one row", async () => {
    const c = await fresh(names.slice(0, 3_000));
    pages.length = 0;
    const first = await c.listBlobsFlat().byPage({ maxPageSize: 1_000 }).next();
    expect(first.value!.segment.blobItems).toHaveLength(1_000);
    expect(pages).toEqual([expect.objectContaining({ rowsRead: 1_001 })]);
  });

  it("seeks past directories ending in the highest code points (no successor to raise)", async () => {
    const top = "\u{10FFFF}";
    const all = [`a${top}${top}x`, `a${top}${top}y`, `a${top}z`, "b", `${top}${top}q`, `${top}${top}r`];
    const c = await fresh(all);
    for (const size of [1, 2, 10]) {
      expect((await hierarchy(c, top, "", size)).flat()).toEqual(reference(all, top, ""));
      expect((await hierarchy(c, `${top}${top}`, "a", size)).flat()).toEqual(
        reference(all, `${top}${top}`, "a"),
      );
    }
  });

  it("pages match the reference for random names, delimiters, prefixes and page sizes", async () => {
    const alphabet = ["a", "b", "/", ".", "-", "é", "\uFFFF", "\u{1F600}", "\u{10FFFF}"];
    const name = fc
      .array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 7 })
      .map((cs) => cs.join(""))
      .filter((n) => !/[./]$/.test(n) && !n.split("/").some((s) => s === "." || s === ".."));
    const text = (max: number) =>
      fc.array(fc.constantFrom(...alphabet), { minLength: 0, maxLength: max }).map((cs) => cs.join(""));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { minLength: 0, maxLength: 40 }),
        text(2).filter((d) => d !== ""),
        text(2),
        fc.integer({ min: 1, max: 6 }),
        async (all, delimiter, prefix, size) => {
          const c = await fresh(all);
          pages.length = 0;
          const got = await hierarchy(c, delimiter, prefix, size);
          expect(got.flat()).toEqual(reference(all, delimiter, prefix));
          for (const page of got.slice(0, -1)) expect(page).toHaveLength(size);
          for (const work of pages) expect(work.rowsRead).toBeLessThanOrEqual(2 * (size + 1));
          await store.deleteContainer(c.containerName);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("a name given as a token resumes after it as the reference says, flat and by hierarchy; pages ending on a blob give its name", async () => {
    const alphabet = ["a", "b", "/", "-", "é", "\uFFFF", "\u{1F600}"];
    const text = (min: number, max: number) =>
      fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((cs) => cs.join(""));
    const name = text(1, 6).filter((n) => !n.endsWith("/"));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { minLength: 0, maxLength: 30 }),
        fc.option(text(1, 2), { nil: undefined }),
        text(0, 2),
        fc.integer({ min: 1, max: 5 }),
        text(0, 7),
        async (all, delimiter, prefix, size, marker) => {
          const c = await fresh(all);
          const expected = (
            delimiter === undefined
              ? all.filter((n) => n.startsWith(prefix)).map((n): Item => ({ kind: "blob", name: n }))
              : reference(all, delimiter, prefix)
          )
            .filter((i) => utf8Order(i.name, marker) > 0)
            .sort((a, b) => utf8Order(a.name, b.name));
          const settings = { maxPageSize: size, continuationToken: marker };
          const listing =
            delimiter === undefined
              ? c.listBlobsFlat({ prefix }).byPage(settings)
              : c.listBlobsByHierarchy(delimiter, { prefix }).byPage(settings);
          const got: Item[] = [];
          for await (const page of listing) {
            const segment = page.segment as {
              blobItems: { name: string }[];
              blobPrefixes?: { name: string }[];
            };
            const items = [
              ...(segment.blobPrefixes ?? []).map((p) => ({ kind: "prefix" as const, name: p.name })),
              ...segment.blobItems.map((b) => ({ kind: "blob" as const, name: b.name })),
            ].sort((a, b) => utf8Order(a.name, b.name));
            got.push(...items);
            const last = items.at(-1);
            if (page.continuationToken === undefined) continue;
            if (last?.kind === "blob") expect(page.continuationToken).toBe(last.name);
            else expect(page.continuationToken).toMatch(/^tk2\./);
          }
          expect(got).toEqual(expected);
          await store.deleteContainer(c.containerName);
        },
      ),
      { numRuns: 200 },
    );
  });
});
