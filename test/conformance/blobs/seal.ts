import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

export const sealSuite: BlobSuite = (target) => {
  describe("sealed append blobs", () => {
    itWhen(
      target,
      (c) => c.appendBlobs && c.sealAppendBlobs,
      "the blob backend cannot seal append blobs (sealAppendBlobs: false)",
      "seals an append blob: appends refused, the seal reported and kept",
      async () => {
        const c = await target().freshContainer();
        const log = c.getAppendBlobClient("log");
        await log.create();
        await log.appendBlock("abc", 3);
        expect((await log.getProperties()).isSealed).toBe(false);
        if (!target().capabilities.divergences.some((d) => d.id === "seal-ignores-append-position")) {
          expect(await codeOf(log.seal({ conditions: { appendPosition: 2 } }))).toBe(
            "AppendPositionConditionNotMet",
          );
        }
        const sealed = await log.seal({ conditions: { appendPosition: 3 } });
        expect((await log.getProperties()).etag).toBe(sealed.etag);
        expect((await log.getProperties()).isSealed).toBe(true);
        expect(await codeOf(log.appendBlock("def", 3))).toBe("BlobIsSealed");
        await log.seal(); // sealing again succeeds
        expect((await log.downloadToBuffer()).toString()).toBe("abc");
        await c.getBlockBlobClient("block").upload("x", 1);
        expect(await codeOf(c.getAppendBlobClient("block").seal())).toBe("InvalidBlobType");
        expect(await codeOf(c.getAppendBlobClient("missing").seal())).toBe("BlobNotFound");
        // A new append blob of the name starts unsealed.
        await log.create();
        await log.appendBlock("x", 1);
        expect((await log.getProperties()).isSealed).toBe(false);
      },
    );
  });
};
