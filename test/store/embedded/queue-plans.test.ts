import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { prepareQueueSchema } from "../../../src/store/backends/embedded/queue-schema.js";
import { EmbeddedQueueStatements } from "../../../src/store/backends/embedded/queue-statements.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-queue-plans-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Plan = string[];

/** SQLite's query plan of each prepared queue statement, as its `EXPLAIN QUERY PLAN` details. */
function plans(db: Database.Database): Record<string, Plan> {
  const statements = new EmbeddedQueueStatements(db) as unknown as Record<string, Database.Statement>;
  const out: Record<string, Plan> = {};
  for (const [name, statement] of Object.entries(statements)) {
    const params = statement.source.split("?").length - 1;
    const rows = db
      .prepare(`EXPLAIN QUERY PLAN ${statement.source}`)
      .all(...Array.from({ length: params }, () => 1)) as { detail: string }[];
    out[name] = rows.map((r) => r.detail);
  }
  return out;
}

/** Every statement searches an index or the primary key: none scans a table or sorts in a temporary tree. */
function expectIndexed(all: Record<string, Plan>): void {
  expect(Object.keys(all).length).toBeGreaterThanOrEqual(13);
  for (const [name, plan] of Object.entries(all)) {
    for (const step of plan) {
      expect({ name, step }).not.toMatchObject({ step: expect.stringMatching(/^SCAN|TEMP B-TREE/) });
    }
  }
  // Receive and peek read the visible messages in order from (queue, visible, seq), and stop at the limit.
  expect(all.visible).toEqual([
    expect.stringMatching(/^SEARCH tk_messages USING INDEX tk_messages_visible \(queue=\? AND visible<\?\)$/),
  ]);
  expect(all.purgeExpired).toEqual([
    expect.stringMatching(/USING (COVERING )?INDEX tk_messages_expires \(queue=\? AND expires<\?\)/),
  ]);
  // Delete and update find one message by its id (a unique index), then by its rowid.
  expect(all.byId).toEqual([
    expect.stringMatching(/^SEARCH tk_messages USING INDEX sqlite_autoindex_tk_messages_\d \(id=\?\)$/),
  ]);
  for (const byRowid of ["lease", "update", "deleteOne"]) {
    expect(all[byRowid]).toEqual([
      expect.stringMatching(/^SEARCH tk_messages USING INTEGER PRIMARY KEY \(rowid=\?\)$/),
    ]);
  }
}

describe("the embedded queue's statements use their indexes however long the queue is", () => {
  it("on a new database", () => {
    const db = new Database(":memory:");
    prepareQueueSchema(db);
    expectIndexed(plans(db));
    db.close();
  });

  it("on a database holding a long queue and a short one, after ANALYZE has given the planner their sizes", async () => {
    const file = join(dir, "queues.db");
    const store = await openStore(`file:${file}`);
    const long = await store.createQueue("long");
    const short = await store.createQueue("short");
    for (let i = 0; i < 2000; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, j) => long.sendMessage(`m${i + j}`, { visibilityTimeout: j % 2 })),
      );
    }
    await short.sendMessage("only");
    const { receivedMessageItems } = await long.receiveMessages({ numberOfMessages: 32 });
    expect(receivedMessageItems).toHaveLength(32);
    await store.close();
    const db = new Database(file);
    db.exec("ANALYZE");
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_stat1 WHERE tbl = 'tk_messages'").get()).toEqual({
      n: 3,
    });
    expectIndexed(plans(db));
    db.close();
  });
});
