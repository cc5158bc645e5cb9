/**
 * The embedded engine's state tables (tk_resource_state, tk_service_properties): a database written
 * before they existed gains them when opened, and keeps its data; state rows are written and
 * dropped in the transaction of the create or delete they belong to, so no row outlives its resource.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function freshFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "tablekit-state-"));
  dirs.push(dir);
  return join(dir, "state.db");
}

const stateRows = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT port, name FROM tk_resource_state ORDER BY port, name").all();
  } finally {
    db.close();
  }
};

describe("embedded state tables", () => {
  it("a database without the state tables (written by an earlier version) gains them on open, data kept", async () => {
    const file = freshFile();
    const before = await openStore(`file:${file}`);
    await before.createTable("Old");
    await before.table("Old").createEntity({ partitionKey: "p", rowKey: "r", kept: true });
    await before.createQueue("oldq");
    await before.close();
    const db = new Database(file);
    db.exec("DROP TABLE tk_resource_state; DROP TABLE tk_service_properties;");
    db.close();

    const after = await openStore(`file:${file}`);
    try {
      expect((await after.table("Old").getEntity("p", "r")).kept).toBe(true);
      expect(await after.table("Old").getAccessPolicy()).toEqual([]);
      expect((await after.queue("oldq").getProperties()).metadata).toEqual({});
      await after.queue("oldq").setMetadata({ Since: "upgrade" });
      expect((await after.queue("oldq").getProperties()).metadata).toEqual({ Since: "upgrade" });
      expect((await after.getServiceProperties("table")).cors).toEqual([]);
    } finally {
      await after.close();
    }
  });

  it("no state row outlives its table, queue or container; a refused change writes none", async () => {
    const file = freshFile();
    const store = await openStore(`file:${file}`);
    try {
      await store.createTable("Acl");
      await store.table("Acl").setAccessPolicy([{ id: "p", accessPolicy: { permission: "r" } }]);
      await store.queue("metaq").create({ metadata: { a: "1" } });
      await store.createContainer("metac", { access: "blob" });
      expect(stateRows(file)).toEqual([
        { port: "blob", name: "metac" },
        { port: "queue", name: "metaq" },
        { port: "table", name: "acl" },
      ]);
      await expect(store.queue("metaq").setMetadata({ a: "x", A: "y" })).rejects.toMatchObject({
        code: "InvalidMetadata",
      });
      await store.deleteTable("Acl");
      await store.deleteQueue("metaq");
      await store.deleteContainer("metac");
      expect(stateRows(file)).toEqual([]);
      // A resource created without state writes no row.
      await store.createQueue("plain");
      expect(stateRows(file)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
