import { describe, expect, it } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, patternBytes } from "./factory.js";

/** A block id of `n` bytes, base64 (ids of one blob must all be the same length). */
const id = (n: number, bytes = 8) => Buffer.from(String(n).padStart(bytes, "0")).toString("base64");

const NO_BLOCKS = "the blob backend keeps no block lists (blocks: false; S3 multipart uploads have none)";

/** Put Block, Put Block List and Get Block List through the port: stageBlock, commitBlockList, getBlockList. */
export const blocksSuite: BlobSuite = (target) => {
  describe("block lists", () => {
    const when = (title: string, test: () => Promise<void>) =>
      itWhen(target, (c) => c.blocks, NO_BLOCKS, title, test);

    when(
      "stages blocks, lists them uncommitted, commits them in order and lists them committed",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("staged");
        const blocks = [patternBytes(70_000, 1), patternBytes(5, 2), patternBytes(90_000, 3)];
        for (const [i, bytes] of blocks.entries()) await blob.stageBlock(id(i), bytes, bytes.length);
        const staged = await blob.getBlockList("uncommitted");
        expect(staged.uncommittedBlocks).toEqual(blocks.map((b, i) => ({ name: id(i), size: b.length })));
        expect(staged.committedBlocks).toEqual([]);
        expect(await blob.exists()).toBe(false);
        const { etag } = await blob.commitBlockList([id(0), id(1), id(2)], {
          metadata: { k: "v" },
          blobHTTPHeaders: { blobContentType: "text/plain" },
        });
        const whole = Buffer.concat(blocks);
        expect((await blob.downloadToBuffer()).equals(whole)).toBe(true);
        expect((await blob.downloadToBuffer(69_998, 10)).equals(whole.subarray(69_998, 70_008))).toBe(true);
        expect(await blob.getProperties()).toMatchObject({
          etag,
          contentLength: whole.length,
          contentType: "text/plain",
          metadata: { k: "v" },
        });
        const all = await blob.getBlockList("all");
        expect(all).toMatchObject({ etag, blobContentLength: whole.length, uncommittedBlocks: [] });
        expect(all.committedBlocks).toEqual(blocks.map((b, i) => ({ name: id(i), size: b.length })));
      },
    );

    when(
      "keeps committed blocks named by a later commit, and discards the uncommitted ones it leaves out",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("kept");
        const [a, b, x, y] = [
          patternBytes(100_000, 4),
          patternBytes(10, 5),
          patternBytes(3000, 6),
          patternBytes(7, 7),
        ];
        await blob.stageBlock(id(0), a, a.length);
        await blob.stageBlock(id(1), b, b.length);
        await blob.commitBlockList([id(0), id(1)]);
        await blob.stageBlock(id(2), x, x.length);
        await blob.stageBlock(id(3), y, y.length);
        await blob.commitBlockList([
          { id: id(1), list: "committed" },
          { id: id(2), list: "uncommitted" },
          id(0),
        ]);
        expect((await blob.downloadToBuffer()).equals(Buffer.concat([b, x, a]))).toBe(true);
        const lists = await blob.getBlockList("all");
        expect(lists.committedBlocks.map((k) => k.name)).toEqual([id(1), id(2), id(0)]);
        expect(lists.uncommittedBlocks).toEqual([]);
        // The discarded block is gone: naming it now fails and changes nothing.
        expect(await codeOf(blob.commitBlockList([id(3)]))).toBe("InvalidBlockList");
        expect((await blob.downloadToBuffer()).equals(Buffer.concat([b, x, a]))).toBe(true);
      },
    );

    when("commits many small blocks mixed with large and kept ones, byte for byte", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("mixed");
      // 300 blocks of 30,000 bytes (9 MB of small blocks), a large one among them, then kept ones.
      const blocks = Array.from({ length: 300 }, (_, i) => patternBytes(i === 150 ? 200_000 : 30_000, i));
      for (let i = 0; i < blocks.length; i += 10) {
        await Promise.all(blocks.slice(i, i + 10).map((b, k) => blob.stageBlock(id(i + k), b, b.length)));
      }
      await blob.commitBlockList(blocks.map((_, i) => id(i)));
      expect((await blob.downloadToBuffer()).equals(Buffer.concat(blocks))).toBe(true);
      await blob.stageBlock(id(999), "new", 3);
      const kept = [299, 0, 150, 1];
      await blob.commitBlockList([...kept.map((n) => ({ id: id(n), list: "committed" as const })), id(999)]);
      const expected = Buffer.concat([...kept.map((n) => blocks[n]!), Buffer.from("new")]);
      expect((await blob.downloadToBuffer()).equals(expected)).toBe(true);
      expect((await blob.downloadToBuffer(29_990, 30)).equals(expected.subarray(29_990, 30_020))).toBe(true);
    });

    when("takes the latest block of an id: the staged one over the committed one", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("latest");
      await blob.stageBlock(id(0), "old", 3);
      await blob.commitBlockList([id(0)]);
      await blob.stageBlock(id(0), "newer", 5);
      await blob.commitBlockList([id(0)]);
      expect((await blob.downloadToBuffer()).toString()).toBe("newer");
      expect((await blob.getBlockList("committed")).committedBlocks).toEqual([{ name: id(0), size: 5 }]);
    });

    when("refuses a block that is not in the list it is asked from, and writes nothing", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("missing");
      await blob.stageBlock(id(0), "a", 1);
      expect(await codeOf(blob.commitBlockList([id(9)]))).toBe("InvalidBlockList");
      expect(await codeOf(blob.commitBlockList([{ id: id(0), list: "committed" }]))).toBe("InvalidBlockList");
      expect(await blob.exists()).toBe(false);
      await blob.commitBlockList([{ id: id(0), list: "uncommitted" }]);
      expect(await codeOf(blob.commitBlockList([{ id: id(0), list: "uncommitted" }]))).toBe(
        "InvalidBlockList",
      );
      expect((await blob.downloadToBuffer()).toString()).toBe("a");
    });

    when("a plain upload leaves the blob without committed blocks", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("replaced");
      await blob.stageBlock(id(0), "blocks", 6);
      await blob.commitBlockList([id(0)]);
      await blob.upload("plain", 5);
      expect((await blob.getBlockList("committed")).committedBlocks).toEqual([]);
      expect(await codeOf(blob.commitBlockList([{ id: id(0), list: "committed" }]))).toBe("InvalidBlockList");
      expect((await blob.downloadToBuffer()).toString()).toBe("plain");
    });

    when("deleting a blob drops its committed and staged blocks", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("deleted");
      await blob.stageBlock(id(0), "a", 1);
      await blob.commitBlockList([id(0)]);
      await blob.stageBlock(id(1), "b", 1);
      await blob.delete();
      expect(await codeOf(blob.getBlockList("all"))).toBe("BlobNotFound");
      if (!target().capabilities.divergences.some((d) => d.id === "staged-blocks-outlive-delete")) {
        expect(await codeOf(blob.commitBlockList([id(1)]))).toBe("InvalidBlockList");
      }
    });

    when("deleting a container drops the blocks of its blobs", async () => {
      const t = target();
      const name = t.freshContainerName();
      const c = await t.store.createContainer(name);
      const blob = c.getBlockBlobClient("b");
      await blob.stageBlock(id(0), patternBytes(100_000, 8), 100_000);
      await blob.commitBlockList([id(0)]);
      await blob.stageBlock(id(1), "b", 1);
      await c.delete();
      await t.store.createContainer(name);
      expect(await codeOf(blob.getBlockList("all"))).toBe("BlobNotFound");
      expect(await codeOf(blob.commitBlockList([id(1)]))).toBe("InvalidBlockList");
    });

    when(
      "answers BlobNotFound for a blob with no blocks, ContainerNotFound for a missing container",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        expect(await codeOf(c.getBlockBlobClient("none").getBlockList("all"))).toBe("BlobNotFound");
        const gone = t.store.container(t.freshContainerName()).getBlockBlobClient("b");
        expect(await codeOf(gone.stageBlock(id(0), "a", 1))).toBe("ContainerNotFound");
      },
    );

    when(
      "commits under conditions: ifNoneMatch '*' on an existing blob and a stale ifMatch change nothing",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("conditional");
        await blob.stageBlock(id(0), "a", 1);
        const { etag } = await blob.commitBlockList([id(0)], { conditions: { ifNoneMatch: "*" } });
        await blob.stageBlock(id(1), "b", 1);
        expect(await codeOf(blob.commitBlockList([id(1)], { conditions: { ifNoneMatch: "*" } }))).toBe(
          "BlobAlreadyExists",
        );
        expect(await codeOf(blob.commitBlockList([id(1)], { conditions: { ifMatch: '"0x1"' } }))).toBe(
          "ConditionNotMet",
        );
        expect((await blob.getProperties()).etag).toBe(etag);
        await blob.commitBlockList([id(0), id(1)], { conditions: { ifMatch: etag } });
        expect((await blob.downloadToBuffer()).toString()).toBe("ab");
      },
    );

    when(
      "takes a block id of the most bytes and refuses one byte more or one that is not base64",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        const max = t.capabilities.maxBlockIdBytes;
        const blob = c.getBlockBlobClient("ids");
        await blob.stageBlock(Buffer.alloc(max, 7).toString("base64"), "a", 1);
        for (const bad of [Buffer.alloc(max + 1, 7).toString("base64"), "not base64!", "abc", ""]) {
          expect(await codeOf(blob.stageBlock(bad, "a", 1)), bad).toBe("InvalidBlockId");
        }
        expect(await codeOf(blob.commitBlockList(["abc"]))).toBe("InvalidBlockList");
      },
    );

    when("refuses a block id of another length than the blob's staged ids", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("lengths");
      await blob.stageBlock(id(0, 4), "a", 1);
      expect(await codeOf(blob.stageBlock(id(1, 8), "b", 1))).toBe("InvalidBlobOrBlock");
      expect((await blob.getBlockList("uncommitted")).uncommittedBlocks.map((b) => b.name)).toEqual([
        id(0, 4),
      ]);
    });

    when("lets one of two concurrent stagings with ids of different lengths win, never both", async () => {
      const c = await target().freshContainer();
      for (let round = 0; round < 5; round++) {
        const blob = c.getBlockBlobClient(`race-${round}`);
        const big = patternBytes(200_000, round);
        const results = await Promise.all([
          codeOf(blob.stageBlock(id(1, 4), big, big.length)),
          codeOf(blob.stageBlock(id(2, 8), big, big.length)),
        ]);
        expect(results.sort()).toEqual(["InvalidBlobOrBlock", "ok"]);
        expect((await blob.getBlockList("uncommitted")).uncommittedBlocks).toHaveLength(1);
      }
    });

    when("refuses a declared block length past the limit before reading a byte of the body", async () => {
      const t = target();
      const c = await t.freshContainer();
      let pulled = false;
      async function* body(): AsyncGenerator<Uint8Array> {
        pulled = true;
        yield Buffer.alloc(1);
      }
      const blob = c.getBlockBlobClient("huge");
      expect(await codeOf(blob.stageBlock(id(0), body(), t.capabilities.maxBlockBytes + 1))).toBe(
        "RequestBodyTooLarge",
      );
      expect(pulled).toBe(false);
      expect(await codeOf(blob.stageBlock(id(0), "ab", 3))).toBe("InvalidInput");
      expect(await codeOf(blob.getBlockList("all"))).toBe("BlobNotFound");
    });

    when("commits a list of the most blocks and refuses one more before any I/O", async () => {
      const t = target();
      const c = await t.freshContainer();
      const max = t.capabilities.maxCommittedBlocks;
      const blob = c.getBlockBlobClient("many");
      await blob.stageBlock(id(0), "z", 1);
      expect(await codeOf(blob.commitBlockList(Array.from({ length: max + 1 }, () => id(0))))).toBe(
        "BlockCountExceedsLimit",
      );
      await blob.commitBlockList(Array.from({ length: max }, () => id(0)));
      expect((await blob.getProperties()).contentLength).toBe(max);
      expect((await blob.getBlockList("committed")).committedBlocks).toHaveLength(max);
    });

    itWhen(
      target,
      (c) => !c.blocks,
      "the blob backend keeps block lists (blocks: true)",
      "answers NotSupported for every block call",
      async () => {
        const blob = (await target().freshContainer()).getBlockBlobClient("b");
        expect(await codeOf(blob.stageBlock(id(0), "a", 1))).toBe("NotSupported");
        expect(await codeOf(blob.commitBlockList([id(0)]))).toBe("NotSupported");
        expect(await codeOf(blob.getBlockList("all"))).toBe("NotSupported");
      },
    );

    it("declares its block limits as data", () => {
      const caps = target().capabilities;
      if (caps.blocks) {
        expect(caps).toMatchObject({
          maxBlockBytes: 4000 * 1024 * 1024,
          maxBlockIdBytes: 64,
          maxCommittedBlocks: 50_000,
          maxUncommittedBlocks: 100_000,
        });
      }
      expect(typeof caps.blocks).toBe("boolean");
    });
  });
};
