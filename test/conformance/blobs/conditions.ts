import { describe, expect, it } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

export const conditionsSuite: BlobSuite = (target) => {
  describe("conditional writes and reads", () => {
    itWhen(
      target,
      (c) => c.conditionalWrites,
      "the blob backend cannot make writes conditional atomically (conditionalWrites: false, e.g. s3rver)",
      "ifNoneMatch '*' creates once: under a race of two writers exactly one wins",
      async () => {
        const c = await target().freshContainer();
        for (let round = 0; round < 5; round++) {
          const name = `race-${round}`;
          const writers = ["first", "second"].map((who) =>
            c
              .getBlockBlobClient(name)
              .upload(who, who.length, { conditions: { ifNoneMatch: "*" } })
              .then(
                () => who,
                (err: { code?: string }) => err.code,
              ),
          );
          const outcomes = await Promise.all(writers);
          const winners = outcomes.filter((o) => o === "first" || o === "second");
          expect(winners, outcomes.join()).toHaveLength(1);
          expect(outcomes.filter((o) => o === "BlobAlreadyExists")).toHaveLength(1);
          expect((await c.getBlobClient(name).downloadToBuffer()).toString()).toBe(winners[0]);
        }
      },
    );

    itWhen(
      target,
      (c) => c.conditionalWrites,
      "the blob backend cannot make writes conditional atomically (conditionalWrites: false, e.g. s3rver)",
      "ifMatch replaces only the version read; a stale ETag is ConditionNotMet and writes nothing",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("counter");
        const v1 = await blob.upload("1", 1);
        const v2 = await blob.upload("2", 1, { conditions: { ifMatch: v1.etag } });
        expect(await codeOf(blob.upload("3", 1, { conditions: { ifMatch: v1.etag } }))).toBe(
          "ConditionNotMet",
        );
        expect((await blob.downloadToBuffer()).toString()).toBe("2");
        expect(
          await codeOf(c.getBlockBlobClient("absent").upload("x", 1, { conditions: { ifMatch: v2.etag } })),
        ).toBe("ConditionNotMet");
        expect(await c.getBlobClient("absent").exists()).toBe(false);
        expect(await codeOf(blob.delete({ conditions: { ifMatch: v1.etag } }))).toBe("ConditionNotMet");
        await blob.delete({ conditions: { ifMatch: v2.etag } });
        expect(await blob.exists()).toBe(false);
      },
    );

    it("reads with a stale ifMatch are ConditionNotMet (a multi-range read never mixes versions)", async () => {
      const c = await target().freshContainer();
      const blob = c.getBlockBlobClient("doc");
      const v1 = await blob.upload("version one", 11);
      expect((await blob.downloadToBuffer(0, 7, { conditions: { ifMatch: v1.etag } })).toString()).toBe(
        "version",
      );
      await blob.upload("version two", 11);
      expect(await codeOf(blob.download(8, 3, { conditions: { ifMatch: v1.etag } }))).toBe("ConditionNotMet");
      expect(await codeOf(blob.getProperties({ conditions: { ifMatch: v1.etag } }))).toBe("ConditionNotMet");
    });

    itWhen(
      target,
      (c) => !c.conditionalWrites,
      "the blob backend makes writes conditional (conditionalWrites: true), so there is no refusal to check",
      "a backend without atomic conditional writes refuses them (NotSupported), never ignores them",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("x");
        expect(await codeOf(blob.upload("a", 1, { conditions: { ifNoneMatch: "*" } }))).toBe("NotSupported");
        expect(await blob.exists()).toBe(false);
      },
    );

    it('a read with ifNoneMatch "*" is UnsatisfiableCondition, whether the blob exists or not', async () => {
      const c = await target().freshContainer();
      await c.uploadBlockBlob("here", "x", 1);
      for (const name of ["here", "absent"]) {
        const blob = c.getBlobClient(name);
        const none = { conditions: { ifNoneMatch: "*" } };
        expect(await codeOf(blob.download(0, undefined, none))).toBe("UnsatisfiableCondition");
        expect(await codeOf(blob.getProperties(none))).toBe("UnsatisfiableCondition");
      }
    });

    it("rejects malformed conditions before any I/O", async () => {
      const blob = target().store.container(target().freshContainerName()).getBlockBlobClient("never");
      expect(await codeOf(blob.upload("a", 1, { conditions: { ifMatch: "no-quotes" } }))).toBe(
        "InvalidInput",
      );
      expect(await codeOf(blob.upload("a", 1, { conditions: { ifNoneMatch: "no-quotes" } }))).toBe(
        "InvalidInput",
      );
      const notADate = new Date("not a date");
      expect(await codeOf(blob.upload("a", 1, { conditions: { ifModifiedSince: notADate } }))).toBe(
        "InvalidInput",
      );
    });
  });
};
