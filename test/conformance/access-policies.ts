import { describe, expect, it } from "vitest";
import { expectCode, type TargetRef } from "./helpers.js";
import { checkServiceProperties } from "./service-properties-checks.js";

const READERS = {
  id: "readers",
  accessPolicy: {
    start: new Date("2020-01-01T00:00:00.000Z"),
    expiry: new Date("2099-01-01T00:00:00.000Z"),
    permission: "r",
  },
};

/** A table's stored access policies and the Table service's properties, where the backend keeps them. */
export function accessPoliciesSuite(target: TargetRef): void {
  describe("stored access policies and service properties", () => {
    const when = (name: string, fn: () => Promise<void>) =>
      it(name, async (ctx) => {
        if (!target().store.stateCapabilities.tables) {
          await expectCode(target().store.table(target().freshTableName()).getAccessPolicy(), "NotSupported");
          ctx.skip("the backend keeps no table state");
        }
        await fn();
      });

    when("sets, reads and replaces a table's policies; a deleted table's never come back", async () => {
      const { store } = target();
      const name = target().freshTableName();
      const table = store.table(name);
      await expectCode(table.getAccessPolicy(), "TableNotFound");
      await expectCode(table.setAccessPolicy([READERS]), "TableNotFound");
      await table.createTable();
      expect(await table.getAccessPolicy()).toEqual([]);
      // Every policy here has a start and an expiry: Azurite's Table service refuses one without (the service takes it).
      await table.setAccessPolicy([
        READERS,
        { id: "writers", accessPolicy: { ...READERS.accessPolicy, permission: "au" } },
      ]);
      const read = await table.getAccessPolicy();
      expect(read.map((p) => p.id)).toEqual(["readers", "writers"]);
      expect(read[0]!.accessPolicy?.permission).toBe("r");
      expect(read[0]!.accessPolicy?.expiry).toEqual(new Date("2099-01-01T00:00:00Z"));
      // Names ignore case: the same table's policies.
      expect((await store.table(name.toUpperCase()).getAccessPolicy()).map((p) => p.id)).toEqual([
        "readers",
        "writers",
      ]);
      await table.setAccessPolicy([]);
      expect(await table.getAccessPolicy()).toEqual([]);
      await table.setAccessPolicy([READERS]);
      await table.deleteTable();
      await table.createTable();
      expect(await table.getAccessPolicy()).toEqual([]);
      await table.deleteTable();
    });

    when("refuses what the service refuses, and writes nothing", async () => {
      const { store } = target();
      const table = store.table(target().freshTableName());
      await table.createTable();
      await table.setAccessPolicy([READERS]);
      const six = Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, accessPolicy: READERS.accessPolicy }));
      await expectCode(table.setAccessPolicy(six), "InvalidXmlDocument");
      await table.setAccessPolicy(six.slice(0, 5));
      expect(await table.getAccessPolicy()).toHaveLength(5);
      await table.setAccessPolicy([READERS]);
      for (const bad of [
        [{ id: "x".repeat(65), accessPolicy: { permission: "r" } }],
        [{ id: "", accessPolicy: { permission: "r" } }],
        [{ id: "p", accessPolicy: { permission: "rw" } }],
        [{ id: "p", accessPolicy: { permission: "p" } }],
        [{ id: "p", accessPolicy: { start: new Date("soon") } }],
        [READERS, READERS],
      ]) {
        await expectCode(table.setAccessPolicy(bad), "InvalidXmlDocument");
      }
      expect((await table.getAccessPolicy()).map((p) => p.id)).toEqual(["readers"]);
      await table.setAccessPolicy([
        { id: "x".repeat(64), accessPolicy: { ...READERS.accessPolicy, permission: "raud" } },
      ]);
      expect((await table.getAccessPolicy())[0]!.id).toHaveLength(64);
      await table.deleteTable();
    });

    it("the Table service's properties: defaults, round trip, merge, refused CORS rules", async (ctx) => {
      const { store } = target();
      if (!store.stateCapabilities.serviceProperties.tables) {
        await expectCode(store.getServiceProperties("table"), "NotSupported");
        ctx.skip("the backend keeps no service properties");
      }
      await checkServiceProperties(store, "table");
    });
  });
}
