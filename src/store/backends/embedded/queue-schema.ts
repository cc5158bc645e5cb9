import { type Db, withBusyWait } from "./connection.js";

/**
 * The queues of an embedded store live in the same SQLite database as its tables: a catalogue
 * (AUTOINCREMENT ids, never reused, so a stale id can only point at a deleted queue) and one
 * message table. Receives read `(queue, visible, seq)` in order; expiry purges use `(queue, expires)`.
 * Created with IF NOT EXISTS, so databases written before queues existed gain them on open.
 */
const QUEUE_SCHEMA = `
CREATE TABLE IF NOT EXISTS tk_queues (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS tk_messages (
  seq INTEGER PRIMARY KEY,
  queue INTEGER NOT NULL,
  id TEXT NOT NULL UNIQUE,
  text TEXT NOT NULL,
  inserted INTEGER NOT NULL,
  expires INTEGER NOT NULL,
  visible INTEGER NOT NULL,
  dequeues INTEGER NOT NULL,
  receipt TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tk_messages_visible ON tk_messages (queue, visible, seq);
CREATE INDEX IF NOT EXISTS tk_messages_expires ON tk_messages (queue, expires);
`;

/** Creates the queue tables when missing (concurrent openers serialize on the write lock). */
export function prepareQueueSchema(db: Db): void {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tk_messages'")
    .get();
  if (exists) return;
  // The store waits for locks itself (lock-wait.ts); here, at open, SQLite's own handler may block.
  withBusyWait(db, () => db.transaction(() => db.exec(QUEUE_SCHEMA)).immediate());
}
