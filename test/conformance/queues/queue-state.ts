import { describe, expect, it } from "vitest";
import { checkServiceProperties } from "../service-properties-checks.js";
import { collect, expectCode, type QueueTargetRef } from "./helpers.js";

const EXPIRES = new Date("2099-01-01T00:00:00Z");

/** Queue metadata, stored access policies and the Queue service's properties, where the backend keeps them. */
export function queueStateSuite(target: QueueTargetRef): void {
  describe("queue metadata, access policies, service properties", () => {
    const when = (name: string, fn: () => Promise<void>) =>
      it(name, async (ctx) => {
        if (!target().store.stateCapabilities.queues) {
          const queue = await target().freshQueue();
          await expectCode(queue.setMetadata({ a: "b" }), "NotSupported");
          await expectCode(queue.getAccessPolicy(), "NotSupported");
          expect((await queue.getProperties()).metadata).toEqual({});
          ctx.skip("the backend keeps no queue state");
        }
        await fn();
      });

    when("metadata on create, read back with its case, replaced, listed; empty values kept", async () => {
      const { store } = target();
      const lowered = target().capabilities.divergences.some((d) => d.id === "metadata-names-lowercased");
      const cased = (name: string) => (lowered ? name.toLowerCase() : name);
      const name = target().freshQueueName();
      const queue = store.queue(name);
      await queue.create({ metadata: { Owner: "Ada", empty: "" } });
      expect((await queue.getProperties()).metadata).toEqual({ [cased("Owner")]: "Ada", empty: "" });
      // The same metadata again (names ignore case) is success; other metadata is QueueAlreadyExists.
      await queue.create({ metadata: { owner: "Ada", EMPTY: "" } });
      expect(await queue.createIfNotExists({ metadata: { Owner: "Ada", empty: "" } })).toEqual({
        succeeded: false,
      });
      await expectCode(queue.create({ metadata: { Owner: "Bob" } }), "QueueAlreadyExists");
      // createIfNotExists, as the SDK's: an existing queue is `succeeded: false`, whatever its metadata.
      expect(await queue.createIfNotExists({ metadata: { Owner: "Bob" } })).toEqual({ succeeded: false });
      await expectCode(queue.create(), "QueueAlreadyExists");
      await queue.setMetadata({ Team: "core" });
      expect((await queue.getProperties()).metadata).toEqual({ [cased("Team")]: "core" });
      const listed = await collect(store.listQueues({ prefix: name, includeMetadata: true }));
      expect(listed).toEqual([{ name, metadata: { [cased("Team")]: "core" } }]);
      await queue.setMetadata();
      expect((await queue.getProperties()).metadata).toEqual({});
      await queue.create();
      await expectCode(queue.setMetadata({ a: "x", A: "y" }), "InvalidMetadata");
      await expectCode(queue.setMetadata({ "not-an-identifier": "x" }), "InvalidMetadata");
      await expectCode(queue.setMetadata({ a: "x".repeat(8 * 1024) }), "MetadataTooLarge");
      expect((await queue.getProperties()).metadata).toEqual({});
      await expectCode(store.queue(target().freshQueueName()).setMetadata({ a: "b" }), "QueueNotFound");
    });

    when("stored access policies: set, read, at most five, letters raup; gone with the queue", async () => {
      const { store } = target();
      const name = target().freshQueueName();
      const queue = store.queue(name);
      await expectCode(queue.getAccessPolicy(), "QueueNotFound");
      await queue.create({ metadata: { kept: "until-delete" } });
      expect(await queue.getAccessPolicy()).toEqual({ signedIdentifiers: [] });
      await queue.setAccessPolicy([
        { id: "readers", accessPolicy: { permissions: "rp", expiresOn: EXPIRES } },
      ]);
      const { signedIdentifiers } = await queue.getAccessPolicy();
      expect(signedIdentifiers).toEqual([
        { id: "readers", accessPolicy: { permissions: "rp", expiresOn: EXPIRES } },
      ]);
      const six = Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, accessPolicy: { permissions: "r" } }));
      await expectCode(queue.setAccessPolicy(six), "InvalidXmlDocument");
      await expectCode(
        queue.setAccessPolicy([{ id: "p", accessPolicy: { permissions: "rw" } }]),
        "InvalidXmlDocument",
      );
      await expectCode(
        queue.setAccessPolicy([{ id: "x".repeat(65), accessPolicy: {} }]),
        "InvalidXmlDocument",
      );
      expect((await queue.getAccessPolicy()).signedIdentifiers.map((p) => p.id)).toEqual(["readers"]);
      await queue.setAccessPolicy(six.slice(0, 5));
      expect((await queue.getAccessPolicy()).signedIdentifiers).toHaveLength(5);
      // Policies and metadata setting one leaves the other.
      expect((await queue.getProperties()).metadata).toEqual({ kept: "until-delete" });
      await queue.delete();
      await queue.create();
      expect(await queue.getAccessPolicy()).toEqual({ signedIdentifiers: [] });
      expect((await queue.getProperties()).metadata).toEqual({});
    });

    when("the Queue service's properties: defaults, round trip, merge, refused CORS rules", async () => {
      await checkServiceProperties(target().store, "queue");
    });
  });
}
