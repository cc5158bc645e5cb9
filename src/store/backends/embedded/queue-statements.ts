import type { Db } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

export interface MessageRow {
  seq: number;
  id: string;
  text: string;
  inserted: number;
  expires: number;
  visible: number;
  dequeues: number;
  receipt: string;
}

/** The prepared statements of the embedded queues, compiled once per store. */
export class EmbeddedQueueStatements {
  readonly queueId: SqliteStatement<[string], { id: number }>;
  readonly createQueue: SqliteStatement<[string]>;
  readonly dropQueue: SqliteStatement<[number]>;
  readonly listQueues: SqliteStatement<[string, string, string, number], { name: string }>;
  readonly insert: SqliteStatement<[number, string, string, number, number, number, string]>;
  readonly purgeExpired: SqliteStatement<[number, number]>;
  readonly visible: SqliteStatement<[number, number, number, number], MessageRow>;
  readonly lease: SqliteStatement<[number, string, number]>;
  readonly byId: SqliteStatement<[number, string], MessageRow>;
  readonly update: SqliteStatement<[string | null, number, string, number]>;
  readonly deleteOne: SqliteStatement<[number]>;
  readonly clear: SqliteStatement<[number]>;
  readonly count: SqliteStatement<[number, number], { n: number }>;

  constructor(db: Db) {
    this.queueId = db.prepare("SELECT id FROM tk_queues WHERE name = ?");
    this.createQueue = db.prepare("INSERT OR IGNORE INTO tk_queues (name) VALUES (?)");
    this.dropQueue = db.prepare("DELETE FROM tk_queues WHERE id = ?");
    this.listQueues = db.prepare(
      "SELECT name FROM tk_queues WHERE name >= ? AND name < ? AND name > ? ORDER BY name LIMIT ?",
    );
    this.insert = db.prepare(
      "INSERT INTO tk_messages (queue, id, text, inserted, expires, visible, dequeues, receipt) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
    );
    this.purgeExpired = db.prepare("DELETE FROM tk_messages WHERE queue = ? AND expires <= ?");
    this.visible = db.prepare(
      "SELECT seq, id, text, inserted, expires, visible, dequeues, receipt FROM tk_messages WHERE queue = ? AND visible <= ? AND expires > ? ORDER BY visible, seq LIMIT ?",
    );
    this.lease = db.prepare(
      "UPDATE tk_messages SET visible = ?, dequeues = dequeues + 1, receipt = ? WHERE seq = ?",
    );
    this.byId = db.prepare(
      "SELECT seq, id, text, inserted, expires, visible, dequeues, receipt FROM tk_messages WHERE queue = ? AND id = ?",
    );
    this.update = db.prepare(
      "UPDATE tk_messages SET text = coalesce(?, text), visible = ?, receipt = ? WHERE seq = ?",
    );
    this.deleteOne = db.prepare("DELETE FROM tk_messages WHERE seq = ?");
    this.clear = db.prepare("DELETE FROM tk_messages WHERE queue = ?");
    this.count = db.prepare("SELECT count(*) AS n FROM tk_messages WHERE queue = ? AND expires > ?");
  }
}
