import { isTableKitError, type TableEntity } from "../../model/index.js";
import type { BlobContainer, OperationOptions, Store, Table, TransactionAction } from "../../store/index.js";
import { WideEntities } from "../wide-entities/wide-entities.js";
import { IdListCodec, idsOfText, idsToText } from "./id-list.js";

/** Where one id list is: an entity's `[PartitionKey, RowKey]`, or `["", blob name]`. */
export type ListKey = readonly [string, string];

/** An id list as read: its ids, and the version to guard the next write with (absent: no list). */
export interface StoredList {
  readonly ids: readonly string[];
  readonly etag?: string;
}

/**
 * Where the id lists of an index live: index entities (wide, so a list may span properties and
 * entities) or blobs. Writes are conditional on the version read; a list that lost a race throws
 * one of the conflict codes `isListConflict` names.
 */
export interface IdLists {
  read(key: ListKey, call?: OperationOptions): Promise<StoredList>;
  /** Writes `ids` over the version read (`etag` undefined: only if still absent); an empty list is deleted. */
  write(
    key: ListKey,
    ids: readonly string[],
    etag: string | undefined,
    call?: OperationOptions,
  ): Promise<void>;
}

/** True when a conditional write of a list failed because another writer changed it first. */
export function isListConflict(err: unknown): boolean {
  return isTableKitError(
    err,
    "UpdateConditionNotSatisfied",
    "EntityAlreadyExists",
    "ResourceNotFound",
    "ConditionNotMet",
    "BlobAlreadyExists",
    "BlobNotFound",
  );
}

/** Id lists as index entities: a list is one wide record (`ids0`, `ids1`, … over one or more entities). */
export class EntityIdLists implements IdLists {
  readonly codec: IdListCodec;
  readonly wide: WideEntities;

  constructor(store: Pick<Store, "capabilities">, table: Table) {
    this.codec = new IdListCodec(store.capabilities.limits);
    this.wide = new WideEntities(store, table);
  }

  async read([partitionKey, rowKey]: ListKey, call: OperationOptions = {}): Promise<StoredList> {
    try {
      const record = await this.wide.get(partitionKey, rowKey, call);
      return { ids: this.codec.ids(record), etag: record.etag };
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return { ids: [] };
      throw err;
    }
  }

  /** The record holding `ids` (undefined for an empty list). */
  record(
    [partitionKey, rowKey]: ListKey,
    ids: readonly string[],
  ): TableEntity<Record<string, unknown>> | undefined {
    if (ids.length === 0) return undefined;
    const record: Record<string, unknown> = { partitionKey, rowKey };
    for (const [name, tv] of this.codec.properties(ids)) record[name] = tv.value;
    return record as TableEntity<Record<string, unknown>>;
  }

  async write(
    key: ListKey,
    ids: readonly string[],
    etag: string | undefined,
    call: OperationOptions = {},
  ): Promise<void> {
    const record = this.record(key, ids);
    if (!record) {
      if (etag !== undefined) await this.wide.delete(key[0], key[1], { ...call, etag });
      return;
    }
    if (etag === undefined) await this.wide.create(record, call);
    else await this.wide.update(record, "Replace", { ...call, etag });
  }

  /**
   * The actions that change the list at `key` by `change` (given its ids as stored now; undefined:
   * leave it), conditional on that one read, for a caller's own transaction.
   */
  actionsFor(
    key: ListKey,
    change: (ids: readonly string[]) => readonly string[] | undefined,
    call: OperationOptions = {},
  ): Promise<TransactionAction[]> {
    let unchanged = false;
    return this.wide
      .actionsFor(
        key[0],
        key[1],
        (current) => {
          const ids = current ? this.codec.ids(current) : [];
          const next = change(ids);
          unchanged = next === undefined;
          return this.record(key, next ?? ids);
        },
        call,
      )
      .then((actions) => (unchanged ? [] : actions));
  }
}

/** Id lists as blobs, one a value (seed 001's option 1): one id a line, no size limit but the blob's. */
export class BlobIdLists implements IdLists {
  constructor(readonly container: BlobContainer) {}

  async read([, name]: ListKey, call: OperationOptions = {}): Promise<StoredList> {
    try {
      const response = await this.container.getBlobClient(name).download(undefined, undefined, call);
      const chunks: Buffer[] = [];
      for await (const chunk of response.readableStreamBody) chunks.push(chunk as Buffer);
      return { ids: idsOfText(Buffer.concat(chunks).toString("utf8")), etag: response.etag };
    } catch (err) {
      if (isTableKitError(err, "BlobNotFound")) return { ids: [] };
      throw err;
    }
  }

  async write(
    [, name]: ListKey,
    ids: readonly string[],
    etag: string | undefined,
    call: OperationOptions = {},
  ): Promise<void> {
    if (ids.length === 0) {
      if (etag !== undefined)
        await this.container.deleteBlob(name, { ...call, conditions: { ifMatch: etag } });
      return;
    }
    const body = Buffer.from(idsToText(ids), "utf8");
    await this.container.getBlockBlobClient(name).upload(body, body.length, {
      ...call,
      blobHTTPHeaders: { blobContentType: "text/plain; charset=utf-8" },
      conditions: etag === undefined ? { ifNoneMatch: "*" } : { ifMatch: etag },
    });
  }
}
