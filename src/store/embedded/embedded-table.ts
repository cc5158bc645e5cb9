import { DateTime, type NormalizedEntity, type StoredEntity } from "../../model/index.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  BackendTable,
  CallOptions,
  UpdateMode,
  WriteResult,
} from "../backend.js";
import type { EmbeddedStore } from "./embedded-store.js";
import { isNoSuchTable, throwIfAborted, toTableKitError } from "./errors.js";
import { type Stamp, stampOf } from "./etag.js";
import { toStoredKey } from "./key-order.js";
import { decodeProperties } from "./property-codec.js";
import { readPage } from "./query.js";
import type { TableHandle } from "./table-handle.js";
import { deleteEntity, insertEntity, updateEntity, upsertEntity } from "./writes.js";

/** One table of an embedded store. Cheap to create: it resolves the table on each call. */
export class EmbeddedTable implements BackendTable {
  constructor(
    private readonly store: EmbeddedStore,
    private readonly name: string,
  ) {}

  private get limits() {
    return this.store.capabilities.limits;
  }

  async insert(entity: NormalizedEntity, options: CallOptions): Promise<WriteResult> {
    throwIfAborted(options);
    return this.store.withTable(this.name, (h) => insertEntity(h, entity, stampOf(DateTime.now())));
  }

  async upsert(entity: NormalizedEntity, mode: UpdateMode, options: CallOptions): Promise<WriteResult> {
    throwIfAborted(options);
    return this.store.withTable(this.name, (h) =>
      this.store.immediate(() => upsertEntity(h, entity, mode, stampOf(DateTime.now()), this.limits)),
    );
  }

  async update(
    entity: NormalizedEntity,
    mode: UpdateMode,
    etag: string,
    options: CallOptions,
  ): Promise<WriteResult> {
    throwIfAborted(options);
    return this.store.withTable(this.name, (h) =>
      this.store.immediate(() => updateEntity(h, entity, mode, etag, stampOf(DateTime.now()), this.limits)),
    );
  }

  async delete(partitionKey: string, rowKey: string, etag: string, options: CallOptions): Promise<void> {
    throwIfAborted(options);
    this.store.withTable(this.name, (h) =>
      // Unconditional: one DELETE statement is atomic. Conditional: check and delete under the lock.
      etag === "*"
        ? deleteEntity(h, partitionKey, rowKey, etag)
        : this.store.immediate(() => deleteEntity(h, partitionKey, rowKey, etag)),
    );
  }

  async get(partitionKey: string, rowKey: string, options: CallOptions): Promise<StoredEntity | undefined> {
    throwIfAborted(options);
    return this.store.withTable(this.name, (h) => readEntity(h, partitionKey, rowKey));
  }

  async query(query: BackendQuery, options: CallOptions): Promise<BackendPage> {
    throwIfAborted(options);
    return this.store.withTable(this.name, (h) => readPage(h, query, options));
  }

  async transact(
    actions: readonly BackendAction[],
    options: CallOptions,
  ): Promise<(WriteResult | undefined)[]> {
    throwIfAborted(options);
    return this.store.withTable(this.name, (h) =>
      this.store.immediate(() => {
        const now = stampOf(DateTime.now());
        return actions.map((action, index) => {
          try {
            return apply(h, action, now, this.limits);
          } catch (err) {
            // A dropped table is retried whole by withTable; anything else names its action.
            if (isNoSuchTable(err)) throw err;
            throw toTableKitError(err).withIndex(index);
          }
        });
      }),
    );
  }
}

function apply(
  h: TableHandle,
  action: BackendAction,
  now: Stamp,
  limits: EmbeddedStore["capabilities"]["limits"],
): WriteResult | undefined {
  switch (action.kind) {
    case "create":
      return insertEntity(h, action.entity, now);
    case "upsert":
      return upsertEntity(h, action.entity, action.mode, now, limits);
    case "update":
      return updateEntity(h, action.entity, action.mode, action.etag, now, limits);
    case "delete":
      deleteEntity(h, action.partitionKey, action.rowKey, action.etag);
      return undefined;
  }
}

function readEntity(h: TableHandle, partitionKey: string, rowKey: string): StoredEntity | undefined {
  const row = h.selectOne.get(toStoredKey(partitionKey), toStoredKey(rowKey)) as
    | [p: string, ts: bigint, etag: string]
    | undefined;
  if (!row) return undefined;
  return {
    partitionKey,
    rowKey,
    properties: decodeProperties(row[0]),
    etag: row[2],
    timestamp: DateTime.fromTicks(row[1]),
  };
}
