import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BlobPart } from "../../../src/index.js";
import { type BlobSuite, codeOf, patternBytes } from "./factory.js";

/** Put Block List's port call: a blob committed from files and kept ranges of itself, in order. */
export const commitPartsSuite: BlobSuite = (target) => {
  describe("commitParts", () => {
    const dir = mkdtempSync(join(tmpdir(), "tablekit-parts-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, bytes: Buffer): BlobPart => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return { kind: "file", path, size: bytes.length };
    };

    it("commits files in order; ranges across their boundaries read right; the files stay as they were", async () => {
      const c = await target().freshContainer();
      const a = patternBytes(70_000, 1);
      const b = patternBytes(5, 2);
      const d = patternBytes(90_000, 3);
      const parts = [file("a", a), file("b", b), file("d", d)];
      const blob = c.getBlockBlobClient("parts");
      const { etag } = await blob.commitParts(parts, { metadata: { k: "v" } });
      const all = Buffer.concat([a, b, d]);
      expect((await blob.downloadToBuffer()).equals(all)).toBe(true);
      expect((await blob.downloadToBuffer(69_998, 10)).equals(all.subarray(69_998, 70_008))).toBe(true);
      expect((await blob.downloadToBuffer(70_004, 1)).equals(all.subarray(70_004, 70_005))).toBe(true);
      expect(await blob.getProperties()).toMatchObject({
        etag,
        contentLength: all.length,
        metadata: { k: "v" },
      });
      await blob.delete();
      expect(readFileSync(join(dir, "a")).equals(a)).toBe(true);
      expect(readFileSync(join(dir, "d")).equals(d)).toBe(true);
    });

    it("keeps ranges of the blob as it was, with new files, and the replaced version's bytes stay out", async () => {
      const c = await target().freshContainer();
      const a = patternBytes(80_000, 4);
      const b = patternBytes(30_000, 5);
      const blob = c.getBlockBlobClient("kept");
      const first = await blob.commitParts([file("ka", a), file("kb", b)]);
      const e = patternBytes(10, 6);
      // The second block, then a new one, then the first block's middle.
      await blob.commitParts(
        [
          { kind: "current", offset: 80_000, size: 30_000 },
          file("ke", e),
          { kind: "current", offset: 100, size: 50_000 },
        ],
        { basedOn: first.etag },
      );
      const expected = Buffer.concat([b, e, a.subarray(100, 50_100)]);
      expect((await blob.downloadToBuffer()).equals(expected)).toBe(true);
      expect((await blob.downloadToBuffer(29_995, 20)).equals(expected.subarray(29_995, 30_015))).toBe(true);
    });

    it("refuses a kept range once the blob has changed (ConditionNotMet), and honours the write's conditions", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("stale");
      const first = await blob.commitParts([file("s1", patternBytes(1000, 7))]);
      await blob.upload("other", 5);
      const keep: BlobPart = { kind: "current", offset: 0, size: 5 };
      expect(await codeOf(blob.commitParts([keep], { basedOn: first.etag }))).toBe("ConditionNotMet");
      const createOnly = blob.commitParts([file("s2", patternBytes(3))], {
        conditions: { ifNoneMatch: "*" },
      });
      // A backend without atomic conditional writes refuses the condition (conditions suite).
      const refusal = target().capabilities.conditionalWrites ? "BlobAlreadyExists" : "NotSupported";
      expect(await codeOf(createOnly)).toBe(refusal);
      expect((await blob.downloadToBuffer()).toString()).toBe("other");
    });

    it("commits an empty list as an empty blob", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("empty");
      await blob.commitParts([]);
      expect((await blob.getProperties()).contentLength).toBe(0);
      expect((await blob.downloadToBuffer()).length).toBe(0);
    });
  });
};
