import { createHash } from "node:crypto";
import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf, patternBytes } from "./factory.js";

export const appendsSuite: BlobSuite = (target) => {
  describe("append blobs", () => {
    itWhen(
      target,
      (c) => c.appendBlobs,
      "the blob backend has no append blobs (appendBlobs: false; on S3 logs go to numbered block blobs)",
      "creates an append blob and appends blocks at growing offsets",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("app.log");
        expect(await log.createIfNotExists({ metadata: { kind: "log" } })).toMatchObject({ succeeded: true });
        expect(await log.createIfNotExists()).toEqual({ succeeded: false });
        const first = await log.appendBlock("line 1\n", 7);
        const second = await log.appendBlock(Buffer.from("line 2\n"), 7);
        expect([first.blobAppendOffset, second.blobAppendOffset]).toEqual(["0", "7"]);
        expect([first.blobCommittedBlockCount, second.blobCommittedBlockCount]).toEqual([1, 2]);
        expect(second.etag).not.toBe(first.etag);
        expect((await log.downloadToBuffer()).toString()).toBe("line 1\nline 2\n");
        expect((await log.downloadToBuffer(7)).toString()).toBe("line 2\n");
        expect(await log.getProperties()).toMatchObject({
          blobType: "AppendBlob",
          contentLength: 14,
          blobCommittedBlockCount: 2,
          metadata: { kind: "log" },
        });
        await log.create();
        expect((await log.getProperties()).contentLength).toBe(0);
      },
    );

    itWhen(
      target,
      (c) => c.appendBlobs,
      "the blob backend has no append blobs (appendBlobs: false; on S3 logs go to numbered block blobs)",
      "applies appendPosition, maxSize and ifMatch, and appends nothing when they fail",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("log");
        const created = await log.create();
        await log.appendBlock("abc", 3, { conditions: { appendPosition: 0 } });
        expect(await codeOf(log.appendBlock("def", 3, { conditions: { appendPosition: 0 } }))).toBe(
          "AppendPositionConditionNotMet",
        );
        expect(await codeOf(log.appendBlock("def", 3, { conditions: { maxSize: 5 } }))).toBe(
          "MaxBlobSizeConditionNotMet",
        );
        expect(await codeOf(log.appendBlock("def", 3, { conditions: { ifMatch: created.etag } }))).toBe(
          "ConditionNotMet",
        );
        await log.appendBlock("def", 3, { conditions: { appendPosition: 3, maxSize: 6 } });
        expect((await log.downloadToBuffer()).toString()).toBe("abcdef");
      },
    );

    itWhen(
      target,
      (c) => c.appendBlobs,
      "the blob backend has no append blobs (appendBlobs: false; on S3 logs go to numbered block blobs)",
      "refuses appends to a block blob or a missing blob",
      async () => {
        const c = await target().freshContainer();
        await c.uploadBlockBlob("block", "x", 1);
        expect(await codeOf(c.getAppendBlobClient("block").appendBlock("y", 1))).toBe("InvalidBlobType");
        expect(await codeOf(c.getAppendBlobClient("missing").appendBlock("y", 1))).toBe("BlobNotFound");
      },
    );

    itWhen(
      target,
      (c) => c.appendBlobs,
      "the blob backend has no append blobs (appendBlobs: false; on S3 logs go to numbered block blobs)",
      "takes a block of exactly the limit and refuses one byte more or an empty one",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("big");
        await log.create();
        const limit = target().capabilities.maxAppendBlockBytes;
        const block = patternBytes(limit);
        await log.appendBlock(block, limit);
        expect((await log.getProperties()).contentLength).toBe(limit);
        expect(await codeOf(log.appendBlock(Buffer.alloc(limit + 1), limit + 1))).toBe("RequestBodyTooLarge");
        expect(await codeOf(log.appendBlock("", 0))).toBe("InvalidInput");
        expect((await log.downloadToBuffer(limit - 10)).equals(block.subarray(limit - 10))).toBe(true);
      },
    );

    itWhen(
      target,
      (c) => c.appendBlobs,
      "the blob backend has no append blobs (appendBlobs: false; on S3 logs go to numbered block blobs)",
      "appends ranges of another blob (appendBlockFromURL) under source and append conditions",
      async () => {
        const c = await target().freshContainer();
        const body = patternBytes(10_000, 5);
        await c.uploadBlockBlob("src", body, body.length);
        const source = c.getBlobClient("src");
        const { etag } = await source.getProperties();
        const log = c.getAppendBlobClient("log");
        await log.create();
        const first = await log.appendBlockFromURL(source, 2000, 3000);
        expect([first.blobAppendOffset, first.blobCommittedBlockCount]).toEqual(["0", 1]);
        const rest = await log.appendBlockFromURL(source, 9000, undefined, {
          sourceConditions: { ifMatch: etag },
          conditions: { appendPosition: 3000, maxSize: 4000 },
        });
        expect(rest.blobAppendOffset).toBe("3000");
        const md5 = createHash("md5").update(body.subarray(0, 10)).digest();
        await log.appendBlockFromURL(source, 0, 10, { sourceContentMD5: md5 });
        const expected = Buffer.concat([
          body.subarray(2000, 5000),
          body.subarray(9000),
          body.subarray(0, 10),
        ]);
        expect((await log.downloadToBuffer()).equals(expected)).toBe(true);
        // Every refusal appends nothing.
        const refusals = [
          log.appendBlockFromURL(source, 0, 10, { sourceConditions: { ifNoneMatch: etag } }),
          log.appendBlockFromURL(source, 0, 10, { sourceContentMD5: Buffer.alloc(16) }),
          log.appendBlockFromURL(source, 0, 10, { conditions: { appendPosition: 0 } }),
          log.appendBlockFromURL(source, 0, 10, { conditions: { maxSize: expected.length + 9 } }),
          log.appendBlockFromURL(source, 20_000, 10),
          log.appendBlockFromURL(c.getBlobClient("missing"), 0, 10),
          c.getAppendBlobClient("src").appendBlockFromURL(source, 0, 10),
          c.getAppendBlobClient("none").appendBlockFromURL(source, 0, 10),
        ];
        expect(await Promise.all(refusals.map(codeOf))).toEqual([
          "SourceConditionNotMet",
          "Md5Mismatch",
          "AppendPositionConditionNotMet",
          "MaxBlobSizeConditionNotMet",
          "CannotVerifyCopySource",
          "CannotVerifyCopySource",
          "InvalidBlobType",
          "BlobNotFound",
        ]);
        expect((await log.getProperties()).contentLength).toBe(expected.length);
      },
    );

    itWhen(
      target,
      (c) => c.appendBlobs,
      "the blob backend has no append blobs (appendBlobs: false; on S3 logs go to numbered block blobs)",
      "refuses a source range past the append-block limit, a bad range and an empty source",
      async () => {
        const c = await target().freshContainer();
        const limit = target().capabilities.maxAppendBlockBytes;
        await c.uploadBlockBlob("src", "abc", 3);
        await c.uploadBlockBlob("empty", "", 0);
        const log = c.getAppendBlobClient("log");
        await log.create();
        const source = c.getBlobClient("src");
        expect(await codeOf(log.appendBlockFromURL(source, 0, limit + 1))).toBe("RequestBodyTooLarge");
        expect(await codeOf(log.appendBlockFromURL(source, -1, 2))).toBe("InvalidInput");
        expect(await codeOf(log.appendBlockFromURL(source, 0, 0))).toBe("InvalidInput");
        expect(await codeOf(log.appendBlockFromURL(c.getBlobClient("empty")))).toBe("InvalidInput");
        await log.appendBlockFromURL(source, 0, limit);
        expect((await log.downloadToBuffer()).toString()).toBe("abc");
      },
    );

    itWhen(
      target,
      (c) => !c.appendBlobs,
      "the blob backend has append blobs (appendBlobs: true), so there is no refusal to check",
      "a backend without append blobs says so (NotSupported)",
      async () => {
        const c = await target().freshContainer();
        expect(await codeOf(c.getAppendBlobClient("log").create())).toBe("NotSupported");
        expect(await codeOf(c.getAppendBlobClient("log").appendBlock("x", 1))).toBe("NotSupported");
        await c.uploadBlockBlob("src", "x", 1);
        const source = c.getBlobClient("src");
        expect(await codeOf(c.getAppendBlobClient("log").appendBlockFromURL(source, 0, 1))).toBe(
          "NotSupported",
        );
      },
    );
  });
};
