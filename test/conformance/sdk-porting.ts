import { describe, expect, it } from "vitest";
import { DateTime, type Table } from "../../src/index.js";
import { caught, type TargetRef } from "./helpers.js";

/** What `@azure/data-tables` code reads of errors and dates, unchanged after changing its import. */
export function sdkPortingSuite(target: TargetRef): void {
  describe("code ported from @azure/data-tables", () => {
    let table: Table;
    const fresh = async () => {
      table = await target().freshTable();
      return table;
    };

    it("branches on err.statusCode and err.details.odataError.code as with the SDK's RestError", async () => {
      const t = await fresh();
      const missing = await caught(() => t.getEntity("p", "absent"));
      expect(missing.statusCode === 404).toBe(true);
      expect(missing).toMatchObject({ code: "ResourceNotFound", status: 404 });
      expect((missing.details as { odataError: { code: string } }).odataError.code).toBe("ResourceNotFound");

      await t.createEntity({ partitionKey: "p", rowKey: "r" });
      const duplicate = await caught(() => t.createEntity({ partitionKey: "p", rowKey: "r" }));
      expect(duplicate).toMatchObject({ statusCode: 409, code: "EntityAlreadyExists", status: 409 });

      const stale = await caught(() =>
        t.updateEntity({ partitionKey: "p", rowKey: "r" }, "Merge", { etag: 'W/"x"' }),
      );
      expect(stale.statusCode).toBe(stale.status);
    });

    it("a failed transaction reads as the SDK's: statusCode, code, and the index before the message", async () => {
      const t = await fresh();
      await t.createEntity({ partitionKey: "p", rowKey: "b" });
      const err = await caught(() =>
        t.submitTransaction([
          ["create", { partitionKey: "p", rowKey: "a" }],
          ["create", { partitionKey: "p", rowKey: "b" }],
        ]),
      );
      expect(err).toMatchObject({ statusCode: 409, code: "EntityAlreadyExists", index: 1 });
      const { odataError } = err.details as { odataError: { message: { value: string } } };
      expect(odataError.message.value).toMatch(/^1:/);
    });

    it("a Date written reads back usable as one; a DateTime keeps its 100 ns", async () => {
      const t = await fresh();
      const sent = new Date("2024-02-29T12:34:56.789Z");
      const exact = DateTime.parse("2024-02-29T12:34:56.7891234Z");
      await t.createEntity({ partitionKey: "p", rowKey: "d", sent, exact });
      const read = await t.getEntity<{ sent: DateTime; exact: DateTime }>("p", "d");
      expect(read.sent.getTime()).toBe(sent.getTime());
      expect(read.sent.getUTCFullYear()).toBe(2024);
      expect(read.sent < read.exact || read.sent > read.exact).toBe(false); // the same millisecond
      expect(read.exact.ticks).toBe(exact.ticks);
      expect(JSON.parse(JSON.stringify(read)).exact).toBe("2024-02-29T12:34:56.7891234Z");
    });
  });
}
