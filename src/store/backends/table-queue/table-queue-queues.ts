import { randomBytes } from "node:crypto";
import { odata } from "../../../filter/index.js";
import { isTableKitError } from "../../../model/index.js";
import type { InitialResourceState } from "../../access/state-backend.js";
import type { CallOptions } from "../../call-options.js";
import type { BackendQueueListQuery, QueueServiceBackend } from "../../queues/queue-backend.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";
import type { Store } from "../../store.js";
import type { Table } from "../../tables/table.js";
import type { TableQueueOptions } from "./connection.js";
import { queueNotFound } from "./errors.js";
import { CATALOGUE_PARTITION, messagePartition } from "./queue-message-entity.js";
import { encodeMetadata, TableQueueState } from "./queue-state.js";
import { type TableQueueHost, TableQueueQueue } from "./table-queue-queue.js";

const DEFAULT_TABLE = "tablekitqueues";

/**
 * Queues built only on the public table port (`Store`/`Table`), so every table backend has one:
 * one table holds a catalogue partition and one partition per queue (message-entity.ts). Leases are
 * ETag-conditional entity group transactions; see docs/queues.md for the design and its costs.
 */
export class TableQueueQueues implements TableQueueHost, QueueServiceBackend {
  readonly table: Table;
  private tableReady = false;
  /** Catalogue reads by queue name: the queue's partition, and when it was read. */
  private readonly known = new Map<string, { partition: string; readAt: number }>();
  private readonly catalogueTtlMs: number;
  /** Metadata and policies on each queue's catalogue entity; the service's properties in one more row. */
  readonly state = new TableQueueState(() => this.table);

  constructor(
    private readonly store: Store,
    readonly capabilities: QueueCapabilities,
    options: TableQueueOptions,
  ) {
    this.table = store.table(options.table ?? DEFAULT_TABLE);
    this.catalogueTtlMs = options.catalogueTtlMs ?? 1000;
  }

  /** Largest text chunk per String property, in UTF-16 code units. */
  get chunkUnits(): number {
    return Math.floor(this.store.capabilities.limits.maxStringBytes / 2);
  }

  async createQueue(name: string, call: CallOptions, initial?: InitialResourceState): Promise<boolean> {
    await this.ensureTable(call);
    this.known.delete(name);
    try {
      const generation = randomBytes(6).toString("hex");
      const metadata = initial ? { metadata: encodeMetadata(initial.metadata) } : {};
      await this.table.createEntity(
        { partitionKey: CATALOGUE_PARTITION, rowKey: name, generation, ...metadata },
        call,
      );
      return true;
    } catch (err) {
      if (isTableKitError(err, "EntityAlreadyExists")) return false;
      throw err;
    }
  }

  async deleteQueue(name: string, call: CallOptions): Promise<void> {
    this.known.delete(name);
    const entry = await this.readCatalogue(name, call);
    if (!entry) throw queueNotFound(name);
    try {
      await this.table.deleteEntity(CATALOGUE_PARTITION, name, { ...call, etag: entry.etag });
    } catch (err) {
      // Deleted (or recreated) meanwhile by someone else: this call did not delete it.
      if (isTableKitError(err, "ResourceNotFound", "UpdateConditionNotSatisfied"))
        throw queueNotFound(name, err);
      throw err;
    }
    await this.queue(name).purgePartition(entry.partition, call);
  }

  async listQueues(
    query: BackendQueueListQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    const prefix = query.prefix ?? "";
    // Queue names are [a-z0-9-]: every name with the prefix sorts below prefix + "~".
    const filter = odata`PartitionKey eq ${CATALOGUE_PARTITION} and RowKey ge ${prefix} and RowKey lt ${`${prefix}~`}`;
    try {
      const pages = this.table
        .listEntities({ ...call, queryOptions: { filter, select: ["RowKey"] } })
        .byPage({ maxPageSize: Math.min(query.maxPageSize, 1000), continuationToken: query.continuation });
      const page = (await pages.next()).value;
      const names = page ? page.map((e: { rowKey?: unknown }) => e.rowKey as string) : [];
      return page?.continuationToken ? { names, continuation: page.continuationToken } : { names };
    } catch (err) {
      if (isTableKitError(err, "TableNotFound")) return { names: [] };
      throw err;
    }
  }

  queue(name: string): TableQueueQueue {
    return new TableQueueQueue(this, name);
  }

  /** The partition of the queue's messages; QueueNotFound when the catalogue has no such queue. */
  async partition(name: string, call: CallOptions): Promise<string> {
    const cached = this.known.get(name);
    if (cached && Date.now() - cached.readAt < this.catalogueTtlMs) return cached.partition;
    const entry = await this.readCatalogue(name, call);
    if (!entry) {
      this.known.delete(name);
      throw queueNotFound(name);
    }
    this.known.set(name, { partition: entry.partition, readAt: Date.now() });
    return entry.partition;
  }

  private async readCatalogue(name: string, call: CallOptions) {
    try {
      const entity = await this.table.getEntity(CATALOGUE_PARTITION, name, call);
      return { partition: messagePartition(name, entity.generation as string), etag: entity.etag };
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound", "TableNotFound")) return undefined;
      throw err;
    }
  }

  private async ensureTable(call: CallOptions): Promise<void> {
    if (this.tableReady) return;
    try {
      await this.table.createTable(call);
    } catch (err) {
      if (!isTableKitError(err, "TableAlreadyExists")) throw err;
    }
    this.tableReady = true;
  }
}
