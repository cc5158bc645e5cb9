import { describe, expect, it } from "vitest";
import { type BlobSuite, codeOf, collect } from "./factory.js";

export const containersSuite: BlobSuite = (target) => {
  describe("containers", () => {
    it("creates, finds, lists and deletes a container (SDK parity for the *IfExists calls)", async () => {
      const t = target();
      const name = t.freshContainerName();
      const container = t.store.container(name);
      expect(await container.exists()).toBe(false);
      expect(await codeOf(container.getProperties())).toBe("ContainerNotFound");
      expect(await container.createIfNotExists()).toEqual({ succeeded: true });
      expect(await container.createIfNotExists()).toEqual({ succeeded: false });
      expect(await codeOf(container.create())).toBe("ContainerAlreadyExists");
      expect(await container.exists()).toBe(true);
      const props = await container.getProperties();
      expect(props.etag).toMatch(/^"/);
      expect(props.lastModified).toBeInstanceOf(Date);
      const listed = await collect(t.store.listContainers({ prefix: name }));
      expect(listed.map((c) => c.name)).toEqual([name]);
      await container.uploadBlockBlob("inside", "x", 1);
      await t.store.deleteContainer(name);
      expect(await container.exists()).toBe(false);
      expect(await container.deleteIfExists()).toEqual({ succeeded: false });
      expect(await codeOf(container.delete())).toBe("ContainerNotFound");
    });

    it("lists containers by prefix in name order, page by page", async () => {
      const t = target();
      const base = t.freshContainerName();
      const names = ["b", "a", "c"].map((s) => {
        const n = `${base}-${s}`;
        return n;
      });
      // Register them for cleanup through fresh names is not possible: delete them here.
      try {
        for (const n of names) await t.store.createContainer(n);
        const pages = await collect(t.store.listContainers({ prefix: base }).byPage({ maxPageSize: 2 }));
        expect(pages.map((p) => p.containerItems.map((c) => c.name))).toEqual([
          [`${base}-a`, `${base}-b`],
          [`${base}-c`],
        ]);
        expect(pages[0]!.continuationToken).toBeDefined();
        expect(pages[1]!.continuationToken).toBeUndefined();
        const resumed = await collect(
          t.store
            .listContainers({ prefix: base })
            .byPage({ maxPageSize: 2, continuationToken: pages[0]!.continuationToken }),
        );
        expect(resumed.flatMap((p) => p.containerItems.map((c) => c.name))).toEqual([`${base}-c`]);
      } finally {
        for (const n of names) await t.store.container(n).deleteIfExists();
      }
    });

    it("answers ContainerNotFound for blob writes, reads and listings in a missing container", async () => {
      const t = target();
      const missing = t.store.container(t.freshContainerName());
      expect(await codeOf(missing.uploadBlockBlob("a", "x", 1))).toBe("ContainerNotFound");
      expect(await codeOf(missing.getBlobClient("a").download())).toBe("ContainerNotFound");
      expect(await codeOf(missing.getBlobClient("a").getProperties())).toBe("ContainerNotFound");
      expect(await codeOf(collect(missing.listBlobsFlat()))).toBe("ContainerNotFound");
      expect(await missing.getBlobClient("a").exists()).toBe(false);
    });

    it("checks container names: 3 to the backend's limit of lowercase letters, digits and single hyphens", async () => {
      const t = target();
      const max = t.capabilities.maxContainerNameLength;
      const atLimit = `z${"0".repeat(max - 1)}`;
      expect(await t.store.container(atLimit).createIfNotExists()).toEqual({ succeeded: true });
      await t.store.deleteContainer(atLimit);
      for (const bad of [
        `z${"0".repeat(max)}`,
        "ab",
        "Abc",
        "a--b",
        "-ab",
        "ab-",
        "a_b",
        "a.b",
        "",
        "abc/",
      ]) {
        expect(await codeOf(t.store.container(bad).create()), bad).toBe("InvalidResourceName");
      }
    });
  });
};
