import { randomUUID } from "node:crypto";
import { odata } from "../../../filter/index.js";
import { isTableKitError, type PropertyOutput, type TableEntityResult } from "../../../model/index.js";
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
import type { Table } from "../../tables/table.js";
import type { TransactionAction } from "../../tables/table-transaction.js";
import { lostRace, messageNotFound, popReceiptMismatch, retryTransient } from "./errors.js";
import {
  MARKER_PREFIX,
  type MessageFields,
  markerKey,
  markerProperties,
  messageFields,
  messageIdOf,
  messageProperties,
  storedMessage,
  VISIBLE_PREFIX,
  visibleKey,
  visibleUpTo,
} from "./queue-message-entity.js";
import { decodePopReceipt, encodePopReceipt, newLeaseSecret, type PopReceipt } from "./queue-pop-receipt.js";

type Read = TableEntityResult<Record<string, PropertyOutput>>;

/** Candidates read per receive beyond those asked for, so racing consumers rarely pick the same ones. */
const SPARE_CANDIDATES = 16;
/** Reads of the visible range per receive before it settles for fewer messages than asked. */
const RECEIVE_ROUNDS = 3;

/** What a queue needs of its service (TableQueueQueues); declared here so neither file imports the other. */
export interface TableQueueHost {
  readonly table: Table;
  readonly chunkUnits: number;
  partition(name: string, call: CallOptions): Promise<string>;
}

/**
 * One queue on the table port. Costs in round trips (docs/queues.md): send 1, receive 1 query + 1
 * transaction per message (in parallel), delete 2 (a read checks the lease's secret), update 2, peek 1,
 * count and clear 1 per page.
 */
export class TableQueueQueue implements QueueBackend {
  constructor(
    private readonly store: TableQueueHost,
    private readonly name: string,
  ) {}

  private get table() {
    return this.store.table;
  }

  async send(message: BackendSendMessage, call: CallOptions): Promise<LeasedMessage> {
    const partition = await this.store.partition(this.name, call);
    const now = Date.now();
    const fields: MessageFields = {
      messageId: randomUUID(),
      text: message.text,
      dequeueCount: 0,
      insertedAt: now,
      expiresAt: messageExpiry(now, message.timeToLiveSeconds),
      lease: newLeaseSecret(),
    };
    const visibleAt = now + message.visibilityTimeoutSeconds * 1000;
    const rowKey = visibleKey(visibleAt, fields.messageId);
    const actions: TransactionAction[] = [
      ["create", { partitionKey: partition, rowKey, ...messageProperties(fields, this.store.chunkUnits) }],
      [
        "create",
        {
          partitionKey: partition,
          rowKey: markerKey(fields.messageId),
          ...markerProperties(fields.expiresAt),
        },
      ],
    ] as TransactionAction[];
    const result = await retryTransient(call, () => this.table.submitTransaction(actions, call));
    const etag = result.subResponses[0]!.etag!;
    return leased(fields, rowKey, etag, visibleAt);
  }

  async receive(
    count: number,
    visibilityTimeoutSeconds: number,
    call: CallOptions,
  ): Promise<LeasedMessage[]> {
    const partition = await this.store.partition(this.name, call);
    const taken: LeasedMessage[] = [];
    for (let round = 0; round < RECEIVE_ROUNDS && taken.length < count; round++) {
      const now = Date.now();
      const page = await this.visiblePage(partition, now, count - taken.length + SPARE_CANDIDATES, call);
      const live = page.filter((e) => (e.expires as number) > now);
      await this.purge(
        partition,
        page.filter((e) => (e.expires as number) <= now),
        call,
      );
      if (live.length === 0) break;
      let lost = 0;
      // Racing consumers read the same head of the queue: each tries its candidates in a random order.
      const candidates = shuffle(live);
      while (taken.length < count && candidates.length > 0) {
        const batch = candidates.splice(0, count - taken.length);
        const results = await Promise.all(
          batch.map((e) => this.lease(partition, e, visibilityTimeoutSeconds, call)),
        );
        for (const r of results) {
          if (r) taken.push(r);
          else lost++;
        }
      }
      if (lost === 0) break;
    }
    return taken;
  }

  async peek(count: number, call: CallOptions): Promise<StoredMessage[]> {
    const partition = await this.store.partition(this.name, call);
    const now = Date.now();
    const filter = visibleFilter(partition, now);
    const out: StoredMessage[] = [];
    for await (const page of this.table.listEntities({ ...call, queryOptions: { filter } }).byPage({
      maxPageSize: count + SPARE_CANDIDATES,
    })) {
      for (const e of page) {
        if ((e.expires as number) > now) out.push(storedMessage(messageFields(e)));
        if (out.length === count) return out;
      }
    }
    return out;
  }

  async update(
    messageId: string,
    popReceipt: string,
    change: MessageChange,
    call: CallOptions,
  ): Promise<NewLease> {
    const partition = await this.store.partition(this.name, call);
    const receipt = await this.checkReceipt(partition, messageId, popReceipt, call);
    let current: Read | undefined;
    try {
      current = await this.table.getEntity(partition, receipt.rowKey, call);
    } catch (err) {
      if (!isTableKitError(err, "ResourceNotFound")) throw err;
    }
    if (!current || !holds(current, receipt)) throw await this.whyNot(partition, messageId, call);
    const fields = messageFields(current);
    const updated = change.text === undefined ? fields : { ...fields, text: change.text };
    const visibleAt = Date.now() + change.visibilityTimeoutSeconds * 1000;
    const moved = await this.move(partition, receipt.rowKey, receipt.etag, updated, visibleAt, call);
    if (!moved) throw await this.whyNot(partition, messageId, call);
    return { popReceipt: moved.popReceipt, nextVisibleOn: moved.nextVisibleOn };
  }

  async delete(messageId: string, popReceipt: string, call: CallOptions): Promise<void> {
    const partition = await this.store.partition(this.name, call);
    const receipt = await this.checkReceipt(partition, messageId, popReceipt, call);
    // The ETag alone is guessable: the lease's secret is checked first, the ETag again by the delete.
    const current = await this.table.getEntity(partition, receipt.rowKey, call).catch((err: unknown) => {
      if (isTableKitError(err, "ResourceNotFound")) return undefined;
      throw err;
    });
    if (!current || !holds(current, receipt)) throw await this.whyNot(partition, messageId, call);
    try {
      await retryTransient(call, () =>
        this.table.submitTransaction(
          [
            ["delete", { partitionKey: partition, rowKey: receipt.rowKey }, { etag: receipt.etag }],
            ["delete", { partitionKey: partition, rowKey: markerKey(messageId) }],
          ],
          call,
        ),
      );
    } catch (err) {
      if (!lostRace(err)) throw err;
      throw await this.whyNot(partition, messageId, call);
    }
  }

  async clear(call: CallOptions): Promise<void> {
    await this.purgePartition(await this.store.partition(this.name, call), call);
  }

  async count(call: CallOptions): Promise<number> {
    const partition = await this.store.partition(this.name, call);
    const now = Date.now();
    const filter = odata`PartitionKey eq ${partition} and RowKey ge ${MARKER_PREFIX} and RowKey lt ${"i/"}`;
    let n = 0;
    for await (const e of this.table.listEntities({
      ...call,
      queryOptions: { filter, select: ["expires"] },
    })) {
      if ((e.expires as number) > now) n++;
    }
    return n;
  }

  /** Deletes every entity of a partition (a queue's messages), a transaction per 100. */
  async purgePartition(partition: string, call: CallOptions): Promise<void> {
    const filter = odata`PartitionKey eq ${partition}`;
    const keys: string[] = [];
    for await (const e of this.table.listEntities({
      ...call,
      queryOptions: { filter, select: ["RowKey"] },
    })) {
      keys.push(e.rowKey as string);
    }
    for (let i = 0; i < keys.length; i += 100) {
      const chunk = keys.slice(i, i + 100);
      try {
        await retryTransient(call, () =>
          this.table.submitTransaction(
            chunk.map((rowKey) => ["delete", { partitionKey: partition, rowKey }] as TransactionAction),
            call,
          ),
        );
      } catch (err) {
        if (!lostRace(err)) throw err;
        // Someone deleted one of them meanwhile: delete the rest one by one.
        for (const rowKey of chunk) await this.table.deleteEntity(partition, rowKey, call).catch(ignoreLost);
      }
    }
  }

  /** Takes one candidate: moves it to its new visibility key, ETag-conditionally. Undefined if another consumer won. */
  private async lease(partition: string, entity: Read, seconds: number, call: CallOptions) {
    const fields = messageFields(entity);
    const visibleAt = Date.now() + seconds * 1000;
    return this.move(
      partition,
      entity.rowKey!,
      entity.etag,
      { ...fields, dequeueCount: fields.dequeueCount + 1 },
      visibleAt,
      call,
    );
  }

  /**
   * Re-keys a message to `visibleAt` in one entity group transaction (delete the old entity if its
   * ETag is still `etag`, create the new one): exactly one of any racing movers succeeds.
   */
  private async move(
    partition: string,
    rowKey: string,
    etag: string,
    fields: MessageFields,
    visibleAt: number,
    call: CallOptions,
  ): Promise<LeasedMessage | undefined> {
    const newKey = visibleKey(visibleAt, fields.messageId);
    const held = { ...fields, lease: newLeaseSecret() };
    const entity = {
      partitionKey: partition,
      rowKey: newKey,
      ...messageProperties(held, this.store.chunkUnits),
    };
    try {
      if (newKey === rowKey) {
        const written = await retryTransient(call, () =>
          this.table.updateEntity(entity, "Replace", { ...call, etag }),
        );
        return leased(held, newKey, written.etag, visibleAt);
      }
      const result = await retryTransient(call, () =>
        this.table.submitTransaction(
          [
            ["delete", { partitionKey: partition, rowKey }, { etag }],
            ["create", entity],
          ] as TransactionAction[],
          call,
        ),
      );
      return leased(held, newKey, result.subResponses[1]!.etag!, visibleAt);
    } catch (err) {
      if (lostRace(err)) return undefined;
      throw err;
    }
  }

  /** The decoded receipt; MessageNotFound/PopReceiptMismatch when it cannot be this message's current one. */
  private async checkReceipt(partition: string, messageId: string, popReceipt: string, call: CallOptions) {
    const receipt = decodePopReceipt(popReceipt);
    if (receipt && receipt.expiresAt <= Date.now()) throw messageNotFound(messageId);
    if (!receipt || messageIdOf(receipt.rowKey) !== messageId)
      throw await this.whyNot(partition, messageId, call);
    return receipt;
  }

  /** Why a receipt did not match: the message is gone or expired (MessageNotFound), or it moved on (PopReceiptMismatch). */
  private async whyNot(partition: string, messageId: string, call: CallOptions) {
    try {
      const marker = await this.table.getEntity(partition, markerKey(messageId), call);
      return (marker.expires as number) > Date.now()
        ? popReceiptMismatch(messageId)
        : messageNotFound(messageId);
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return messageNotFound(messageId);
      throw err;
    }
  }

  /** The first page of messages visible at `now`, in delivery order. */
  private async visiblePage(
    partition: string,
    now: number,
    size: number,
    call: CallOptions,
  ): Promise<Read[]> {
    const filter = visibleFilter(partition, now);
    const pages = this.table
      .listEntities({ ...call, queryOptions: { filter } })
      .byPage({ maxPageSize: Math.min(size, 1000) });
    return (await pages.next()).value ?? [];
  }

  /** Deletes expired messages met on the way (best effort: another consumer may be doing the same). */
  private async purge(partition: string, expired: readonly Read[], call: CallOptions): Promise<void> {
    await Promise.all(
      expired.map((e) =>
        this.table
          .submitTransaction(
            [
              ["delete", { partitionKey: partition, rowKey: e.rowKey! }, { etag: e.etag }],
              ["delete", { partitionKey: partition, rowKey: markerKey(e.id as string) }],
            ],
            call,
          )
          .catch(ignoreLost),
      ),
    );
  }
}

function visibleFilter(partition: string, now: number): string {
  return odata`PartitionKey eq ${partition} and RowKey ge ${VISIBLE_PREFIX} and RowKey lt ${visibleUpTo(now)}`;
}

/** Whether the entity read is the lease `receipt` names: its ETag, its secret and its expiry. */
function holds(entity: Read, receipt: PopReceipt): boolean {
  return (
    entity.etag === receipt.etag && entity.lease === receipt.lease && entity.expires === receipt.expiresAt
  );
}

function leased(fields: MessageFields, rowKey: string, etag: string, visibleAt: number): LeasedMessage {
  return {
    ...storedMessage(fields),
    popReceipt: encodePopReceipt({ rowKey, etag, expiresAt: fields.expiresAt, lease: fields.lease! }),
    nextVisibleOn: new Date(visibleAt),
  };
}

function ignoreLost(err: unknown): void {
  if (!lostRace(err)) throw err;
}

function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
