import { describe, expect, it } from "vitest";
import type { BlobContainer } from "../../../src/index.js";
import { type BlobSuite, collect } from "./factory.js";

const NAMES = [
  "2026/01/02/a.log",
  "2026/01/02/b.log",
  "2026/01/03/a.log",
  "2026/02/01/a.log",
  "2026/readme",
  "2027/01/01/a.log",
  "index",
  "z",
];

async function filled(container: Promise<BlobContainer>): Promise<BlobContainer> {
  const c = await container;
  for (const n of NAMES) await c.uploadBlockBlob(n, n, n.length, { metadata: { source: "t" } });
  return c;
}

export const listingSuite: BlobSuite = (target) => {
  describe("listing", () => {
    it("lists flat by prefix in name order, with properties and (when asked) metadata", async () => {
      const c = await filled(target().freshContainer());
      expect((await collect(c.listBlobsFlat())).map((b) => b.name)).toEqual(NAMES);
      const jan = await collect(c.listBlobsFlat({ prefix: "2026/01/" }));
      expect(jan.map((b) => b.name)).toEqual(NAMES.slice(0, 3));
      expect(jan[0]!.properties).toMatchObject({ contentLength: NAMES[0]!.length, blobType: "BlockBlob" });
      expect(jan[0]!.metadata).toBeUndefined();
      const withMeta = await collect(c.listBlobsFlat({ prefix: "z", includeMetadata: true }));
      expect(withMeta.map((b) => b.metadata)).toEqual([{ source: "t" }]);
      expect(await collect(c.listBlobsFlat({ prefix: "nothing" }))).toEqual([]);
    });

    it("orders names beyond U+FFFF as the backend declares (capabilities.nameOrder)", async () => {
      const t = target();
      const c = await t.freshContainer();
      const names = ["o/\u{1F600}", "o/a", "o/\uE000", "o/\u00e9"];
      for (const n of names) await c.uploadBlockBlob(n, "x", 1);
      const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
      const utf16 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const expected = [...names].sort(t.capabilities.nameOrder === "utf8" ? utf8 : utf16);
      expect((await collect(c.listBlobsFlat({ prefix: "o/" }))).map((b) => b.name)).toEqual(expected);
    });

    it("pages a flat listing and resumes from a continuation token", async () => {
      const c = await filled(target().freshContainer());
      const pages = await collect(c.listBlobsFlat().byPage({ maxPageSize: 3 }));
      expect(pages.map((p) => p.segment.blobItems.map((b) => b.name))).toEqual([
        NAMES.slice(0, 3),
        NAMES.slice(3, 6),
        NAMES.slice(6),
      ]);
      expect(pages.at(-1)!.continuationToken).toBeUndefined();
      const rest = await collect(
        c.listBlobsFlat().byPage({ maxPageSize: 3, continuationToken: pages[0]!.continuationToken }),
      );
      expect(rest.flatMap((p) => p.segment.blobItems.map((b) => b.name))).toEqual(NAMES.slice(3));
    });

    it("lists by hierarchy: names holding the delimiter roll up into virtual directories", async () => {
      const c = await filled(target().freshContainer());
      const top = await collect(c.listBlobsByHierarchy("/"));
      expect(top.map((i) => `${i.kind}:${i.name}`)).toEqual([
        "prefix:2026/",
        "prefix:2027/",
        "blob:index",
        "blob:z",
      ]);
      const year = await collect(c.listBlobsByHierarchy("/", { prefix: "2026/" }));
      expect(year.map((i) => `${i.kind}:${i.name}`)).toEqual([
        "prefix:2026/01/",
        "prefix:2026/02/",
        "blob:2026/readme",
      ]);
      const day = await collect(c.listBlobsByHierarchy("/", { prefix: "2026/01/02/" }));
      expect(day.map((i) => i.name)).toEqual(NAMES.slice(0, 2));
      const partial = await collect(c.listBlobsByHierarchy("/", { prefix: "2026/0" }));
      expect(partial.map((i) => i.name)).toEqual(["2026/01/", "2026/02/"]);
    });

    it("pages a hierarchical listing: a page counts blobs and directories, and no directory repeats", async () => {
      const c = await filled(target().freshContainer());
      for (const size of [1, 2, 3]) {
        const pages = await collect(c.listBlobsByHierarchy("/").byPage({ maxPageSize: size }));
        const seen = pages.flatMap((p) => [
          ...p.segment.blobPrefixes.map((x) => `prefix:${x.name}`),
          ...p.segment.blobItems.map((x) => `blob:${x.name}`),
        ]);
        expect(seen.sort(), `page size ${size}`).toEqual([
          "blob:index",
          "blob:z",
          "prefix:2026/",
          "prefix:2027/",
        ]);
        for (const p of pages) {
          expect(p.segment.blobPrefixes.length + p.segment.blobItems.length).toBeLessThanOrEqual(size);
        }
      }
    });
  });
};
