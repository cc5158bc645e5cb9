import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { expectCode } from "../../conformance/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-deleted-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("embedded deletion times (tk_deleted_names)", () => {
  it("a database made before the table gains it on open, and the hold then works", async () => {
    const url = `file:${join(dir, "old.db")}`;
    const first = await openStore(url);
    await first.createQueue("older");
    await first.close();
    // As a database of the release before: state tables, but no tk_deleted_names.
    const raw = new Database(join(dir, "old.db"));
    raw.exec("DROP TABLE tk_deleted_names");
    raw.close();
    const store = await openStore(url, { deletedNameHold: 30 });
    try {
      expect(await store.queue("older").exists()).toBe(true);
      await store.deleteQueue("older");
      await expectCode(store.createQueue("older"), "QueueBeingDeleted");
    } finally {
      await store.close();
    }
  });

  it("the times are kept per service: a container's name does not hold a queue's, nor a table's", async () => {
    const store = await openStore(`file:${join(dir, "ports.db")}`, { deletedNameHold: 30 });
    try {
      await store.createContainer("shared");
      await store.deleteContainer("shared");
      await store.createTable("shared");
      await store.deleteTable("shared");
      await store.createQueue("shared");
      await expectCode(store.createContainer("shared"), "ContainerBeingDeleted");
      // Tables are never held (Azure answers TableBeingDeleted only while it really deletes).
      await store.createTable("shared");
    } finally {
      await store.close();
    }
  });
});
