import { randomBytes } from "node:crypto";
import { TableKitError } from "../../../model/index.js";
import type { InitialResourceState } from "../../access/state-backend.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendQueueListQuery, QueueBackend, QueueServiceBackend } from "../../queues/queue-backend.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";
import type { Db } from "./connection.js";
import { EmbeddedQueue, type EmbeddedQueueHost } from "./embedded-queue.js";
import { withLockWait } from "./lock-wait.js";
import { EmbeddedQueueGroupCommit } from "./queue-group-commit.js";
import { prepareQueueSchema } from "./queue-schema.js";
import { EmbeddedQueueStatements } from "./queue-statements.js";
import { EmbeddedResourceState } from "./resource-state.js";
import type { SqliteTransaction } from "./sqlite-database.js";

/** Random bytes in a pop receipt (128 bits). */
const RECEIPT_BYTES = 16;

/**
 * The queues of an embedded store, in its SQLite database. Every operation that changes a message
 * runs in an IMMEDIATE transaction (the database's write lock; the writes of one turn of the event
 * loop share one, each in its own savepoint), so two processes sharing a file can never both take
 * the same message inside its visibility window.
 */
export class EmbeddedQueues implements EmbeddedQueueHost, QueueServiceBackend {
  private readonly sql: EmbeddedQueueStatements;
  private readonly transaction: SqliteTransaction<[work: () => unknown], unknown>;
  /** Random bytes drawn ahead for pop receipts (one call to the CSPRNG per 256 receipts). */
  private receiptPool = Buffer.alloc(0);
  private receiptOffset = 0;
  private readonly groupCommit: EmbeddedQueueGroupCommit;
  /** Queue metadata, stored access policies and the Queue service's properties. */
  readonly state: EmbeddedResourceState;

  constructor(
    db: Db,
    readonly capabilities: QueueCapabilities,
  ) {
    prepareQueueSchema(db);
    this.sql = new EmbeddedQueueStatements(db);
    this.transaction = db.transaction((work: () => unknown) => work());
    this.groupCommit = new EmbeddedQueueGroupCommit(db);
    this.state = new EmbeddedResourceState(db, {
      port: "queue",
      key: (name) => name,
      exists: (name) => this.sql.queueId.get(name) !== undefined,
      notFound: queueNotFound,
      write: (call, work) => this.write(call, work),
      read: (call, work) => this.read(call, work),
    });
  }

  /** A new queue and its initial metadata in one transaction; an existing queue is left as it is. */
  createQueue(name: string, call: CallOptions, initial?: InitialResourceState): Promise<boolean> {
    return withLockWait(
      call,
      () =>
        this.transaction.immediate(() => {
          const created = this.sql.createQueue.run(name).changes === 1;
          if (created) this.state.init(name, initial);
          return created;
        }) as boolean,
    );
  }

  async deleteQueue(name: string, call: CallOptions): Promise<void> {
    await this.write(call, () => {
      const id = this.queueId(name);
      this.sql.clear.run(id);
      this.sql.dropQueue.run(id);
      this.state.drop(name);
    });
  }

  async listQueues(
    query: BackendQueueListQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    const prefix = query.prefix ?? "";
    const rows = await withLockWait(call, () =>
      this.sql.listQueues.all(prefix, `${prefix}\uffff`, query.continuation ?? "", query.maxPageSize + 1),
    );
    const names = rows.slice(0, query.maxPageSize).map((r) => r.name);
    return rows.length > query.maxPageSize ? { names, continuation: names.at(-1)! } : { names };
  }

  queue(name: string): QueueBackend {
    return new EmbeddedQueue(this, name);
  }

  /** The queue's id; QueueNotFound when it does not exist. Call inside a transaction. */
  queueId(name: string): number {
    const row = this.sql.queueId.get(name);
    if (!row) throw queueNotFound(name);
    return row.id;
  }

  get statements(): EmbeddedQueueStatements {
    return this.sql;
  }

  /**
   * A pop receipt: 128 random bits (whoever does not hold it cannot guess it from others), after
   * an "r" that keeps it from beginning with "-", which a command line reads as an option.
   */
  newReceipt(): string {
    if (this.receiptOffset === this.receiptPool.length) {
      this.receiptPool = randomBytes(RECEIPT_BYTES * 256);
      this.receiptOffset = 0;
    }
    const bytes = this.receiptPool.subarray(this.receiptOffset, this.receiptOffset + RECEIPT_BYTES);
    this.receiptOffset += RECEIPT_BYTES;
    return `r${bytes.toString("base64url")}`;
  }

  /**
   * Runs `work` holding the write lock: in the IMMEDIATE transaction of the writes asked for in
   * the same turn of the event loop (group commit), waiting abortably for it.
   */
  write<T>(call: CallOptions, work: () => T): Promise<T> {
    return this.groupCommit.run(call, work);
  }

  /** Runs `work` as one read transaction. */
  read<T>(call: CallOptions, work: () => T): Promise<T> {
    return withLockWait(call, () => this.transaction.deferred(work) as T);
  }
}

function queueNotFound(name: string): TableKitError {
  return new TableKitError("QueueNotFound", "The specified queue does not exist.", {
    details: { queueName: name },
  });
}
