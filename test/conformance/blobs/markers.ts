import { describe, expect, it } from "vitest";
import type { BlobContainer } from "../../../src/index.js";
import { type BlobSuite, codeOf, collect } from "./factory.js";

/**
 * Continuation tokens of List Blobs and List Containers (docs/blobs.md, Semantics: Listing). Where the backend
 * takes names (capabilities.nameMarkers), a page ending on a blob or container gets its name, and a
 * name given as a token resumes after it, as Azurite's markers do; everywhere, a checksummed token
 * made for another listing, or damaged, is refused.
 */
const NAMES = ["a/1", "a/2", "b", "c/x/1", "c/y", "d"];

async function filled(container: Promise<BlobContainer>): Promise<BlobContainer> {
  const c = await container;
  for (const n of NAMES) await c.uploadBlockBlob(n, n, n.length);
  return c;
}

const flatNames = async (c: BlobContainer, token: string, prefix = "") =>
  (await collect(c.listBlobsFlat({ prefix }).byPage({ continuationToken: token }))).flatMap((p) =>
    p.segment.blobItems.map((b) => b.name),
  );

const hierarchyNames = async (c: BlobContainer, token: string, prefix = "") =>
  (await collect(c.listBlobsByHierarchy("/", { prefix }).byPage({ continuationToken: token }))).flatMap(
    (p) => [...p.segment.blobPrefixes.map((x) => x.name), ...p.segment.blobItems.map((x) => x.name)],
  );

export const markersSuite: BlobSuite = (target) => {
  describe("listing markers", () => {
    it("a flat page's token is its last blob's name where the backend takes names, and a name resumes after it", async () => {
      const t = target();
      const c = await filled(t.freshContainer());
      const pages = await collect(c.listBlobsFlat().byPage({ maxPageSize: 4 }));
      const first = pages[0]!.continuationToken!;
      expect(await flatNames(c, first)).toEqual(NAMES.slice(4));
      if (!t.capabilities.nameMarkers) {
        expect(first).toMatch(/^tk2\./);
        expect(await codeOf(flatNames(c, "c/x/1"))).toBe("InvalidContinuationToken");
        return;
      }
      expect(first).toBe("c/x/1");
      // Any name, listed or not: the listing starts after it.
      expect(await flatNames(c, "a/2")).toEqual(NAMES.slice(2));
      expect(await flatNames(c, "a/15")).toEqual(NAMES.slice(1));
      expect(await flatNames(c, "")).toEqual(NAMES);
      // Before the prefix: from the prefix's first name; past it: nothing.
      expect(await flatNames(c, "a", "c/")).toEqual(["c/x/1", "c/y"]);
      expect(await flatNames(c, "c/x/1", "c/")).toEqual(["c/y"]);
      expect(await flatNames(c, "c/z", "c/")).toEqual([]);
      // A flat listing has no directories: a name ending in '/' is only a name.
      expect(await flatNames(c, "c/x/")).toEqual(NAMES.slice(3));
    });

    it("a name holding what no blob name may, or a checksummed token of another listing, is InvalidContinuationToken", async () => {
      const c = await filled(target().freshContainer());
      for (const bad of ["a\u0000", "a\u0001b", "\ud800", "a\u007f", "tk2.not-a-token", "tk1.AAAAAAAAAAAA"]) {
        expect(await codeOf(flatNames(c, bad)), JSON.stringify(bad)).toBe("InvalidContinuationToken");
      }
      // A checksummed token (a directory's page) made for another prefix is refused, not read as a name.
      const pages = await collect(c.listBlobsByHierarchy("/", { prefix: "c/" }).byPage({ maxPageSize: 1 }));
      const directoryToken = pages[0]!.continuationToken!;
      expect(directoryToken).toMatch(/^tk2\./);
      expect(await hierarchyNames(c, directoryToken, "c/")).toEqual(["c/y"]);
      expect(await codeOf(hierarchyNames(c, directoryToken))).toBe("InvalidContinuationToken");
      expect(await codeOf(flatNames(c, directoryToken, "c/"))).toBe("InvalidContinuationToken");
      const damaged = `${directoryToken.slice(0, 6)}${directoryToken[6] === "A" ? "B" : "A"}${directoryToken.slice(7)}`;
      expect(await codeOf(hierarchyNames(c, damaged, "c/"))).toBe("InvalidContinuationToken");
    });

    it("a page ending on a blob named like a checksummed token (tk1., tk2.) gets a checksummed token", async () => {
      const c = await target().freshContainer();
      const names = ["tk1.a", "tk2.b", "u"];
      for (const n of names) await c.uploadBlockBlob(n, n, n.length);
      const pages = await collect(c.listBlobsFlat().byPage({ maxPageSize: 1 }));
      expect(pages.map((p) => p.segment.blobItems.map((b) => b.name))).toEqual(names.map((n) => [n]));
      for (const p of pages.slice(0, 2)) expect(p.continuationToken).toMatch(/^tk2\./);
      expect(await flatNames(c, pages[1]!.continuationToken!)).toEqual(["u"]);
      // Sent as a name, such a name is read as a token and refused.
      expect(await codeOf(flatNames(c, "tk2.b"))).toBe("InvalidContinuationToken");
    });

    it("by hierarchy: a page ending on a blob gives its name, one ending on a directory a checksummed token; a name inside a directory resumes after the directory", async () => {
      const t = target();
      const c = await filled(t.freshContainer());
      const pages = await collect(c.listBlobsByHierarchy("/").byPage({ maxPageSize: 1 }));
      const items = pages.map((p) => [...p.segment.blobPrefixes, ...p.segment.blobItems].map((x) => x.name));
      expect(items).toEqual([["a/"], ["b"], ["c/"], ["d"]]);
      expect(pages[0]!.continuationToken).toMatch(/^tk2\./);
      expect(pages[2]!.continuationToken).toMatch(/^tk2\./);
      expect(await hierarchyNames(c, pages[0]!.continuationToken!)).toEqual(["c/", "b", "d"]);
      if (!t.capabilities.nameMarkers) {
        expect(pages[1]!.continuationToken).toMatch(/^tk2\./);
        return;
      }
      expect(pages[1]!.continuationToken).toBe("b");
      expect(await hierarchyNames(c, "b")).toEqual(["c/", "d"]);
      // A directory's name resumes after everything under it; so does any name inside it.
      expect(await hierarchyNames(c, "a/")).toEqual(["c/", "b", "d"]);
      expect(await hierarchyNames(c, "c/x/1")).toEqual(["d"]);
      expect(await hierarchyNames(c, "c/")).toEqual(["d"]);
      // Below a prefix, the directories are the next level down.
      expect(await hierarchyNames(c, "c/x/", "c/")).toEqual(["c/y"]);
      expect(await hierarchyNames(c, "c/x/0", "c/")).toEqual(["c/y"]);
      expect(await hierarchyNames(c, "c/w", "c/")).toEqual(["c/x/", "c/y"]);
    });

    it("a page ending inside a blob's snapshots keeps a checksummed token; the blob itself gives its name", async () => {
      const t = target();
      // Azurite lists snapshots after their blob and pages through them its own way (divergence).
      const apart = t.capabilities.divergences.some((d) => d.id === "snapshots-listed-after-blob");
      if (!t.capabilities.snapshots || apart) return;
      const c = await t.freshContainer();
      for (const n of ["m", "n"]) await c.uploadBlockBlob(n, n, 1);
      await c.getBlobClient("m").createSnapshot();
      const pages = await collect(c.listBlobsFlat({ includeSnapshots: true }).byPage({ maxPageSize: 1 }));
      expect(
        pages.map((p) => [p.segment.blobItems[0]!.name, p.segment.blobItems[0]!.snapshot !== undefined]),
      ).toEqual([
        ["m", true],
        ["m", false],
        ["n", false],
      ]);
      expect(pages[0]!.continuationToken).toMatch(/^tk2\./);
      const resumed = await collect(
        c
          .listBlobsFlat({ includeSnapshots: true })
          .byPage({ continuationToken: pages[0]!.continuationToken! }),
      );
      expect(
        resumed.flatMap((p) => p.segment.blobItems.map((b) => [b.name, b.snapshot !== undefined])),
      ).toEqual([
        ["m", false],
        ["n", false],
      ]);
      if (t.capabilities.nameMarkers) expect(pages[1]!.continuationToken).toBe("m");
      else expect(pages[1]!.continuationToken).toMatch(/^tk2\./);
    });

    it("containers: a page's token is its last container's name where the backend takes names, and a name resumes after it", async () => {
      const t = target();
      const base = t.freshContainerName();
      const names = ["a", "b", "c"].map((s) => `${base}-${s}`);
      try {
        for (const n of names) await t.store.createContainer(n);
        const list = async (token: string, prefix = base) =>
          (
            await collect(
              t.store.listContainers({ prefix }).byPage({ maxPageSize: 5, continuationToken: token }),
            )
          ).flatMap((p) => p.containerItems.map((x) => x.name));
        const pages = await collect(t.store.listContainers({ prefix: base }).byPage({ maxPageSize: 2 }));
        expect(await list(pages[0]!.continuationToken!)).toEqual(names.slice(2));
        const blobs = await filled(t.freshContainer());
        const blobToken = (await collect(blobs.listBlobsByHierarchy("/").byPage({ maxPageSize: 1 })))[0]!
          .continuationToken!;
        expect(await codeOf(list(blobToken))).toBe("InvalidContinuationToken");
        if (!t.capabilities.nameMarkers) {
          expect(pages[0]!.continuationToken).toMatch(/^tk2\./);
          expect(await codeOf(list(names[0]!))).toBe("InvalidContinuationToken");
          return;
        }
        expect(pages[0]!.continuationToken).toBe(names[1]);
        expect(await list(names[0]!)).toEqual(names.slice(1));
        expect(await list(`${base}-bb`)).toEqual(names.slice(2));
        expect(await list("0")).toEqual(names);
        expect(await list(names[2]!)).toEqual([]);
        for (const bad of ["Upper", "a_b", "a.b", "a\u0000"]) {
          expect(await codeOf(list(bad)), bad).toBe("InvalidContinuationToken");
        }
      } finally {
        for (const n of names) await t.store.container(n).deleteIfExists();
      }
    });
  });
};
