import { randomUUID } from "node:crypto";
import { TableKitError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import {
  type BackendSendMessage,
  type LeasedMessage,
  type MessageChange,
  messageExpiry,
  type NewLease,
  type QueueBackend,
  type StoredMessage,
} from "../../queues/queue-backend.js";
import type { EmbeddedQueueStatements, MessageRow } from "./queue-statements.js";

/** What a queue needs of its store's queues (EmbeddedQueues); declared here so neither file imports the other. */
export interface EmbeddedQueueHost {
  readonly statements: EmbeddedQueueStatements;
  queueId(name: string): number;
  newReceipt(): string;
  write<T>(call: CallOptions, work: () => T): Promise<T>;
  read<T>(call: CallOptions, work: () => T): Promise<T>;
}

/** One queue of an embedded store. */
export class EmbeddedQueue implements QueueBackend {
  constructor(
    private readonly queues: EmbeddedQueueHost,
    private readonly name: string,
  ) {}

  async send(message: BackendSendMessage, call: CallOptions): Promise<LeasedMessage> {
    const now = Date.now();
    const expires = messageExpiry(now, message.timeToLiveSeconds);
    const visible = now + message.visibilityTimeoutSeconds * 1000;
    const messageId = randomUUID();
    const popReceipt = this.queues.newReceipt();
    await this.queues.write(call, () => {
      const queue = this.queues.queueId(this.name);
      this.queues.statements.insert.run(queue, messageId, message.text, now, expires, visible, popReceipt);
    });
    return {
      messageId,
      text: message.text,
      dequeueCount: 0,
      insertedOn: new Date(now),
      expiresOn: new Date(expires),
      popReceipt,
      nextVisibleOn: new Date(visible),
    };
  }

  async receive(
    count: number,
    visibilityTimeoutSeconds: number,
    call: CallOptions,
  ): Promise<LeasedMessage[]> {
    const sql = this.queues.statements;
    return this.queues.write(call, () => {
      const queue = this.queues.queueId(this.name);
      const now = Date.now();
      sql.purgeExpired.run(queue, now);
      const rows = sql.visible.all(queue, now, now, count);
      const visible = now + visibilityTimeoutSeconds * 1000;
      return rows.map((row) => {
        const popReceipt = this.queues.newReceipt();
        sql.lease.run(visible, popReceipt, row.seq);
        return {
          ...stored(row),
          dequeueCount: row.dequeues + 1,
          popReceipt,
          nextVisibleOn: new Date(visible),
        };
      });
    });
  }

  async peek(count: number, call: CallOptions): Promise<StoredMessage[]> {
    return this.queues.read(call, () => {
      const queue = this.queues.queueId(this.name);
      const now = Date.now();
      return this.queues.statements.visible.all(queue, now, now, count).map(stored);
    });
  }

  async update(
    messageId: string,
    popReceipt: string,
    change: MessageChange,
    call: CallOptions,
  ): Promise<NewLease> {
    return this.queues.write(call, () => {
      const row = this.leased(messageId, popReceipt);
      const visible = Date.now() + change.visibilityTimeoutSeconds * 1000;
      const receipt = this.queues.newReceipt();
      this.queues.statements.update.run(change.text ?? null, visible, receipt, row.seq);
      return { popReceipt: receipt, nextVisibleOn: new Date(visible) };
    });
  }

  async delete(messageId: string, popReceipt: string, call: CallOptions): Promise<void> {
    await this.queues.write(call, () => {
      this.queues.statements.deleteOne.run(this.leased(messageId, popReceipt).seq);
    });
  }

  async clear(call: CallOptions): Promise<void> {
    await this.queues.write(call, () => this.queues.statements.clear.run(this.queues.queueId(this.name)));
  }

  async count(call: CallOptions): Promise<number> {
    return this.queues.read(call, () => {
      const queue = this.queues.queueId(this.name);
      return this.queues.statements.count.get(queue, Date.now())!.n;
    });
  }

  /** The message whose current pop receipt is `popReceipt`; MessageNotFound or PopReceiptMismatch. */
  private leased(messageId: string, popReceipt: string): MessageRow {
    const queue = this.queues.queueId(this.name);
    const row = this.queues.statements.byId.get(queue, messageId);
    if (!row || row.expires <= Date.now()) {
      throw new TableKitError("MessageNotFound", "The specified message does not exist.", {
        details: { messageId },
      });
    }
    if (row.receipt !== popReceipt) {
      throw new TableKitError(
        "PopReceiptMismatch",
        "The specified pop receipt did not match the pop receipt for a dequeued message.",
        { details: { messageId } },
      );
    }
    return row;
  }
}

function stored(row: MessageRow): StoredMessage {
  return {
    messageId: row.id,
    text: row.text,
    dequeueCount: row.dequeues,
    insertedOn: new Date(row.inserted),
    expiresOn: new Date(row.expires),
  };
}
