import { describe, expect } from "vitest";
import { itWhen } from "../../support/it-when.js";
import { type BlobSuite, codeOf } from "./factory.js";

const NO_TAGS = "the blob backend keeps no index tags (tags: false, e.g. S3)";
const NO_FIND = "the blob backend cannot search by tags (findByTags: false)";

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

export const tagsSuite: BlobSuite = (target) => {
  describe("blob index tags", () => {
    itWhen(
      target,
      (c) => c.tags,
      NO_TAGS,
      "setTags/getTags round-trip; the ETag stays; tagCount counts them",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("tagged");
        const written = await blob.upload("x", 1);
        await blob.setTags({ project: "alpha", "a b+c-d.e/f:g=h_i": "Value 1" });
        expect((await blob.getTags()).tags).toEqual({ project: "alpha", "a b+c-d.e/f:g=h_i": "Value 1" });
        const p = await blob.getProperties();
        expect(p.etag).toBe(written.etag);
        expect(p.tagCount).toBe(2);
        await blob.setTags({});
        expect((await blob.getTags()).tags).toEqual({});
        expect((await blob.getProperties()).tagCount).toBeUndefined();
        expect(await codeOf(c.getBlobClient("missing").getTags())).toBe("BlobNotFound");
        expect(await codeOf(c.getBlobClient("missing").setTags({ a: "b" }))).toBe("BlobNotFound");
      },
    );

    itWhen(
      target,
      (c) => c.tags,
      NO_TAGS,
      "uploads carry tags; an overwrite without tags clears them",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("up");
        await blob.upload("x", 1, { tags: { k: "v" } });
        expect((await blob.getTags()).tags).toEqual({ k: "v" });
        await blob.uploadData(Buffer.from("y"));
        expect((await blob.getTags()).tags).toEqual({});
        if (target().capabilities.blocks) {
          await blob.stageBlock(Buffer.from("b1").toString("base64"), "zz", 2);
          await blob.commitBlockList([Buffer.from("b1").toString("base64")], { tags: { from: "commit" } });
          expect((await blob.getTags()).tags).toEqual({ from: "commit" });
        }
      },
    );

    itWhen(
      target,
      (c) => c.tags,
      NO_TAGS,
      "each tag limit crossed by one is refused and writes nothing",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("limits");
        await blob.upload("x", 1, { tags: { keep: "me" } });
        const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, `v${i}`]));
        const eleven = { ...ten, k10: "v10" };
        const bad: [Record<string, string>, string][] = [
          [eleven, "TagsTooLarge"],
          [{ ["k".repeat(129)]: "v" }, "InvalidTag"],
          [{ "": "v" }, "InvalidTag"],
          [{ k: "v".repeat(257) }, "InvalidTag"],
          [{ "k!": "v" }, "InvalidTag"],
          [{ k: "v\u00e9" }, "InvalidTag"],
        ];
        for (const [tags, code] of bad) {
          expect(await codeOf(blob.setTags(tags)), JSON.stringify(tags).slice(0, 40)).toBe(code);
          expect(await codeOf(c.getBlockBlobClient("other").upload("x", 1, { tags }))).toBe(code);
        }
        expect((await blob.getTags()).tags).toEqual({ keep: "me" });
        expect(await c.getBlobClient("other").exists()).toBe(false);
        await blob.setTags(ten);
        await blob.setTags({ ["k".repeat(128)]: "v".repeat(256) });
        if (!target().capabilities.divergences.some((d) => d.id === "tag-empty-value-refused")) {
          await blob.setTags({ k: "" });
          expect((await blob.getTags()).tags).toEqual({ k: "" });
        }
      },
    );

    itWhen(
      target,
      (c) => c.tags,
      NO_TAGS,
      "listings carry tags with includeTags",
      async () => {
        const c = await target().freshContainer();
        await c.getBlockBlobClient("a").upload("x", 1, { tags: { t: "1" } });
        await c.getBlockBlobClient("b").upload("x", 1);
        const items = await collect(c.listBlobsFlat({ includeTags: true }));
        expect(items.map((i) => [i.name, i.tags])).toEqual([
          ["a", { t: "1" }],
          ["b", undefined],
        ]);
        expect(items[0]!.properties.tagCount).toBe(1);
        const plain = await collect(c.listBlobsFlat());
        expect(plain[0]!.tags).toBeUndefined();
      },
    );

    itWhen(
      target,
      (c) => c.tagConditions,
      "the backend applies no tag conditions",
      "tagConditions guard reads and writes (ConditionNotMet), writing nothing",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("cond");
        await blob.upload("one", 3, { tags: { stage: "draft", n: "5" } });
        const met = { tagConditions: `"stage" = 'draft' AND ("n" > '4' OR "x" = 'y')` };
        const unmet = { tagConditions: `"stage" <> 'draft'` };
        expect((await blob.downloadToBuffer(0, undefined, { conditions: met })).toString()).toBe("one");
        expect(await codeOf(blob.downloadToBuffer(0, undefined, { conditions: unmet }))).toBe(
          "ConditionNotMet",
        );
        expect(await codeOf(blob.getProperties({ conditions: unmet }))).toBe("ConditionNotMet");
        expect(await codeOf(blob.upload("two", 3, { conditions: unmet }))).toBe("ConditionNotMet");
        if (!target().capabilities.divergences.some((d) => d.id === "set-tags-ignores-if-tags")) {
          expect(await codeOf(blob.setTags({ a: "b" }, { conditions: unmet }))).toBe("ConditionNotMet");
        }
        expect(await codeOf(blob.getTags({ conditions: unmet }))).toBe("ConditionNotMet");
        expect(await codeOf(blob.delete({ conditions: unmet }))).toBe("ConditionNotMet");
        expect((await blob.downloadToBuffer()).toString()).toBe("one");
        expect((await blob.getTags()).tags).toEqual({ stage: "draft", n: "5" });
        await blob.upload("two", 3, { conditions: met, tags: { stage: "final" } });
        expect((await blob.getTags({ conditions: { tagConditions: `"stage"='final'` } })).tags).toEqual({
          stage: "final",
        });
        expect(await codeOf(blob.getTags({ conditions: { tagConditions: `"stage" = 'final' OR` } }))).toBe(
          "InvalidHeaderValue",
        );
      },
    );

    itWhen(
      target,
      (c) => c.findByTags,
      NO_FIND,
      "findBlobsByTags: the account and a container, AND, ranges, @container",
      async () => {
        const t = target();
        const one = await t.freshContainer();
        const two = await t.freshContainer();
        const marker = `run${Date.now()}`;
        await one.getBlockBlobClient("a").upload("x", 1, { tags: { run: marker, n: "1", color: "red" } });
        await one.getBlockBlobClient("b").upload("x", 1, { tags: { run: marker, n: "2", color: "blue" } });
        await two.getBlockBlobClient("c").upload("x", 1, { tags: { run: marker, n: "3", color: "red" } });
        await two.getBlockBlobClient("d").upload("x", 1, { tags: { run: "other", n: "3" } });
        const names = (items: { containerName: string; name: string }[]) =>
          items.map((i) => `${i.containerName === one.containerName ? "one" : "two"}/${i.name}`).sort();
        const found = await collect(t.store.findBlobsByTags(`"run" = '${marker}' AND "color" = 'red'`));
        expect(names(found)).toEqual(["one/a", "two/c"]);
        expect(found.find((f) => f.name === "a")!.tags).toEqual({ run: marker, color: "red" });
        expect(
          names(await collect(t.store.findBlobsByTags(`"run" = '${marker}' AND "n" >= '2' AND "n" < '3'`))),
        ).toEqual(["one/b"]);
        expect(
          names(
            await collect(
              t.store.findBlobsByTags(`@container = '${two.containerName}' AND "run" = '${marker}'`),
            ),
          ),
        ).toEqual(["two/c"]);
        expect(names(await collect(two.findBlobsByTags(`"n" = '3'`)))).toEqual(["two/c", "two/d"]);
        expect(names(await collect(one.findBlobsByTags(`"n" = '3'`)))).toEqual([]);
      },
    );

    itWhen(
      target,
      (c) => c.findByTags,
      NO_FIND,
      "findBlobsByTags pages with maxPageSize and continuation tokens",
      async () => {
        const t = target();
        const c = await t.freshContainer();
        const marker = `page${Date.now()}`;
        for (let i = 0; i < 5; i++)
          await c.getBlockBlobClient(`b${i}`).upload("x", 1, { tags: { page: marker } });
        const pages: string[][] = [];
        let token: string | undefined;
        do {
          const page = (
            await c
              .findBlobsByTags(`"page" = '${marker}'`)
              .byPage({ maxPageSize: 2, continuationToken: token })
              .next()
          ).value!;
          pages.push(page.blobs.map((b: { name: string }) => b.name));
          token = page.continuationToken;
        } while (token);
        expect(pages.flat().sort()).toEqual(["b0", "b1", "b2", "b3", "b4"]);
        expect(pages[0]).toHaveLength(2);
      },
    );

    itWhen(
      target,
      (c) => c.findByTags,
      NO_FIND,
      "malformed tag queries are InvalidQueryParameterValue before any call",
      async () => {
        const s = target().store;
        for (const bad of [
          `"a" = 'b' OR "c" = 'd'`,
          `"a" <> 'b'`,
          `"a" = 'b`,
          `"a" = b`,
          ``,
          `@container = 'x'`,
          `@container > 'x' AND "a" = 'b'`,
          `("a" = 'b')`,
          `"a" = 'b' AND`,
          `"a" = 'b' AND @container = 'x' AND @container = 'y'`,
          "x".repeat(5000),
        ]) {
          expect(await codeOf(collect(s.findBlobsByTags(bad))), bad.slice(0, 40)).toBe(
            "InvalidQueryParameterValue",
          );
        }
      },
    );

    itWhen(
      target,
      (c) => !c.tags,
      "the backend keeps tags",
      "without tags, the tag calls are NotSupported",
      async () => {
        const c = await target().freshContainer();
        const blob = c.getBlockBlobClient("n");
        await blob.upload("x", 1);
        expect(await codeOf(blob.setTags({ a: "b" }))).toBe("NotSupported");
        expect(await codeOf(blob.getTags())).toBe("NotSupported");
        expect(await codeOf(blob.upload("x", 1, { tags: { a: "b" } }))).toBe("NotSupported");
        expect(await codeOf(collect(target().store.findBlobsByTags(`"a" = 'b'`)))).toBe("NotSupported");
      },
    );
  });
};
