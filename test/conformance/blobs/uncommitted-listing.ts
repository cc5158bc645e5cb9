import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, collect } from "./factory.js";

/** List Blobs' include=uncommittedblobs: names with staged blocks and no committed blob. */
export const uncommittedListingSuite: BlobSuite = (target) => {
  describe("listing uncommitted blobs", () => {
    itWhen(
      target,
      (c) => c.blocks,
      "the backend keeps no staged blocks (blocks: false)",
      "lists staged-only names as empty block blobs when asked, in name order, flat and by hierarchy",
      async () => {
        const c = await target().freshContainer();
        const id = Buffer.from("block-1").toString("base64");
        await c.getBlockBlobClient("b-staged").stageBlock(id, "hello", 5);
        await c.getBlockBlobClient("dir/staged").stageBlock(id, "hello", 5);
        await c.uploadBlockBlob("a-committed", "x", 1);
        await c.uploadBlockBlob("c-both", "yy", 2);
        await c.getBlockBlobClient("c-both").stageBlock(id, "more", 4);
        const plain = await collect(c.listBlobsFlat());
        expect(plain.map((b) => b.name)).toEqual(["a-committed", "c-both"]);
        const all = await collect(c.listBlobsFlat({ includeUncommitedBlobs: true }));
        expect(all.map((b) => b.name)).toEqual(["a-committed", "b-staged", "c-both", "dir/staged"]);
        const staged = all.find((b) => b.name === "b-staged")!;
        expect(staged.properties).toMatchObject({ contentLength: 0, blobType: "BlockBlob" });
        expect(all.find((b) => b.name === "c-both")!.properties.contentLength).toBe(2);
        const pages = c.listBlobsFlat({ includeUncommitedBlobs: true }).byPage({ maxPageSize: 1 });
        const names: string[] = [];
        for await (const page of pages) names.push(...page.segment.blobItems.map((b) => b.name));
        expect(names).toEqual(["a-committed", "b-staged", "c-both", "dir/staged"]);
        const tree = await c.listBlobsByHierarchy("/", { includeUncommitedBlobs: true }).byPage().next();
        const prefixes: { name: string }[] = tree.value!.segment.blobPrefixes;
        expect(prefixes.map((p) => p.name)).toEqual(["dir/"]);
        const plainTree = await c.listBlobsByHierarchy("/").byPage().next();
        expect(plainTree.value!.segment.blobPrefixes).toEqual([]);
        // Committing makes it an ordinary blob.
        await c.getBlockBlobClient("b-staged").commitBlockList([id]);
        expect((await collect(c.listBlobsFlat())).map((b) => b.name)).toContain("b-staged");
      },
    );

    itWhen(
      target,
      (c) => !c.blocks,
      "the backend keeps staged blocks",
      "refuses includeUncommitedBlobs where the store keeps no staged blocks",
      async () => {
        const c = await target().freshContainer();
        expect(await codeOf(collect(c.listBlobsFlat({ includeUncommitedBlobs: true })))).toBe("NotSupported");
      },
    );
  });
};
