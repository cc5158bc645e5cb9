import { describe, expect, it } from "vitest";
import { expectCode } from "../../support/expect-code.js";
import { checkServiceProperties } from "../service-properties-checks.js";
import { type BlobSuite, collect } from "./factory.js";

const EXPIRES = new Date("2099-01-01T00:00:00Z");

/** Container metadata, public access, stored access policies and the Blob service's properties. */
export const containerStateSuite: BlobSuite = (target) => {
  describe("container metadata, public access, access policies, service properties", () => {
    const when = (name: string, fn: () => Promise<void>) =>
      it(name, async (ctx) => {
        if (!target().store.stateCapabilities.blobs) {
          const container = await target().freshContainer();
          await expectCode(container.setMetadata({ a: "b" }), "NotSupported");
          await expectCode(container.getAccessPolicy(), "NotSupported");
          await expectCode(
            target().store.createContainer(target().freshContainerName(), { access: "blob" }),
            "NotSupported",
          );
          expect((await container.getProperties()).metadata).toEqual({});
          ctx.skip("the backend keeps no container state");
        }
        await fn();
      });

    when("metadata and public access on create, read back with their case, replaced, listed", async () => {
      const t = target();
      const lowered = t.capabilities.divergences.some((d) => d.id === "metadata-names-lowercased");
      const cased = (name: string) => (lowered ? name.toLowerCase() : name);
      const name = t.freshContainerName();
      const container = t.store.container(name);
      await container.create({ metadata: { Owner: "Ada", empty: "" }, access: "container" });
      const props = await container.getProperties();
      expect(props.metadata).toEqual({ [cased("Owner")]: "Ada", empty: "" });
      expect(props.blobPublicAccess).toBe("container");
      await container.setMetadata({ Team: "core" });
      const after = await container.getProperties();
      expect(after.metadata).toEqual({ [cased("Team")]: "core" });
      expect(after.blobPublicAccess).toBe("container");
      const [item] = await collect(t.store.listContainers({ prefix: name, includeMetadata: true }));
      expect(item).toMatchObject({
        name,
        metadata: { Team: "core" },
        properties: { publicAccess: "container" },
      });
      await expectCode(container.setMetadata({ a: "x", A: "y" }), "InvalidMetadata");
      await expectCode(
        t.store.container(t.freshContainerName()).setMetadata({ a: "b" }),
        "ContainerNotFound",
      );
      await expectCode(
        t.store.createContainer(t.freshContainerName(), { access: "public" as never }),
        "InvalidInput",
      );
    });

    when(
      "access policies and public access: set together, read, limits; gone with the container",
      async () => {
        const t = target();
        const name = t.freshContainerName();
        const container = t.store.container(name);
        await expectCode(container.getAccessPolicy(), "ContainerNotFound");
        await container.create({ metadata: { kept: "yes" } });
        expect(await container.getAccessPolicy()).toEqual({ signedIdentifiers: [] });
        const readers = { id: "readers", accessPolicy: { permissions: "rl", expiresOn: EXPIRES } };
        await container.setAccessPolicy("blob", [readers]);
        expect(await container.getAccessPolicy()).toEqual({
          blobPublicAccess: "blob",
          signedIdentifiers: [readers],
        });
        expect((await container.getProperties()).blobPublicAccess).toBe("blob");
        const six = Array.from({ length: 6 }, (_, i) => ({
          id: `p${i}`,
          accessPolicy: { permissions: "r" },
        }));
        await expectCode(container.setAccessPolicy(undefined, six), "InvalidXmlDocument");
        await expectCode(
          container.setAccessPolicy(undefined, [{ id: "p", accessPolicy: { permissions: "rz" } }]),
          "InvalidXmlDocument",
        );
        expect(await container.getAccessPolicy()).toEqual({
          blobPublicAccess: "blob",
          signedIdentifiers: [readers],
        });
        // No access level: private again.
        await container.setAccessPolicy(undefined, six.slice(0, 5));
        const five = await container.getAccessPolicy();
        expect(five.blobPublicAccess).toBeUndefined();
        expect(five.signedIdentifiers).toHaveLength(5);
        expect((await container.getProperties()).metadata).toEqual({ kept: "yes" });
        await container.delete();
        await container.create();
        expect(await container.getAccessPolicy()).toEqual({ signedIdentifiers: [] });
        expect((await container.getProperties()).metadata).toEqual({});
      },
    );

    when("the Blob service's properties: defaults, round trip, merge, refused CORS rules", async () => {
      await checkServiceProperties(target().store, "blob");
    });
  });
};
