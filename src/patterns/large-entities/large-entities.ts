import { plainEntity } from "../../model/entity.js";
import {
  isTableKitError,
  type PropertyOutput,
  setOwn,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  type TypedValue,
  typedProperties,
} from "../../model/index.js";
import type { BlobContainer, OperationOptions, Store, Table } from "../../store/index.js";
import { recordKeys } from "../shared/support/record-checks.js";
import { type RecordWriteOptions, RecordWriter } from "../shared/support/record-writer.js";
import { type RetryOptions, retryPolicy } from "../shared/support/retry.js";
import { LargeBlobNames } from "./blob-names.js";
import { cleanupOrphans, type LargeCleanupOptions, type LargeCleanupReport } from "./large-cleanup.js";
import {
  type BlobPointer,
  blobBytes,
  decodeManifest,
  LargeLayout,
  type LargePlan,
  MANIFEST_PROPERTY,
  type Manifest,
  type PlannedValue,
  sha256,
} from "./large-layout.js";
import { readPointers } from "./large-read.js";

/** A large record as reads return it: every property, the large ones read back from their blobs. */
export type LargeRecord = TableEntityResult<Record<string, PropertyOutput>> & {
  partitionKey: string;
  rowKey: string;
};

/** One step of a write, reported to `onStep` after it completed (in this order). */
export type LargeEntityStep =
  | { readonly kind: "blobUploaded"; readonly blob: string }
  | { readonly kind: "entityWritten"; readonly etag: string }
  | { readonly kind: "entityDeleted" }
  | { readonly kind: "blobDeleted"; readonly blob: string };

export interface LargeEntitiesOptions extends Omit<RetryOptions, "abortSignal"> {
  /** Where the offloaded values go (the container must exist). */
  readonly container: BlobContainer;
  /** Prefix of every blob name (default `<table name>/`): the pattern owns what is under it. */
  readonly prefix?: string;
  /** String/Binary values above this many bytes (UTF-16 for Strings) always go to a blob. Default: 64 KiB. */
  readonly offloadAbove?: number;
  /**
   * How old an unreferenced blob must be before `cleanup` deletes it (default 1 hour); a write
   * whose uploads took more than half of it fails with OperationTimedOut instead of pointing at them.
   */
  readonly graceMs?: number;
  /** Called after each step of a write completes (progress, logging, fault-injection tests). */
  readonly onStep?: (step: LargeEntityStep) => void | Promise<void>;
}

/** `etag`: `*` (default) retries lost races; an ETag fails with UpdateConditionNotSatisfied if the entity changed. */
export type LargeWriteOptions = RecordWriteOptions;

/** What a write did. */
export interface LargeWriteResult {
  /** The entity's new ETag: pass it to guard the next write. */
  readonly etag: string;
  /** Properties held in blobs now, with their blob names. */
  readonly blobs: Readonly<Record<string, string>>;
  readonly uploaded: number;
  /** Blobs of replaced values deleted after the entity was written (the rest are left to `cleanup`). */
  readonly deleted: number;
}

const HOUR_MS = 3_600_000;

/**
 * Large entities (seed 001): a record too large for one entity keeps its large String and Binary
 * properties in blobs and, in the entity, a manifest pointing at them. Every write uploads new
 * values under NEW blob names, then writes the entity (ETag-guarded) to point at them, then deletes
 * the blobs of the values it replaced: a writer killed anywhere leaves the entity as it was or as
 * it became, never half, and its leftovers are blobs no entity points to, which `cleanup` finds.
 */
export class LargeEntities extends RecordWriter<StoredLarge, Map<string, PlannedValue>, LargeWriteResult> {
  readonly layout: LargeLayout;
  readonly names: LargeBlobNames;
  readonly container: BlobContainer;
  readonly graceMs: number;
  private readonly onStep: (step: LargeEntityStep) => void | Promise<void>;

  constructor(
    readonly store: Store,
    readonly table: Table,
    options: LargeEntitiesOptions,
  ) {
    super("large", retryPolicy({ maxAttempts: 20, ...options }));
    const caps = store.blobCapabilities;
    if (!caps) throw new TableKitError("NotSupported", `The store ${store.url} has no blob port`);
    const prefix = options.prefix ?? `${table.tableName}/`;
    if (typeof prefix !== "string") throw new TableKitError("InvalidInput", "prefix must be a string");
    this.container = options.container;
    this.names = new LargeBlobNames(prefix, caps);
    this.layout = new LargeLayout(store.capabilities.limits, caps.maxBlobNameLength, options.offloadAbove);
    this.graceMs = checkGrace(options.graceMs ?? HOUR_MS);
    this.onStep = options.onStep ?? (() => {});
  }

  /** Which properties a record would keep in the entity and which in blobs (no I/O). */
  plan(record: TableEntity<Record<string, unknown>>): { inline: string[]; offloaded: string[] } {
    const { partitionKey, rowKey } = recordKeys(record, "large");
    const plan = this.layout.split(partitionKey, rowKey, asValues(this.layout.properties(record)));
    return { inline: [...plan.inline.keys()], offloaded: [...plan.offloaded.keys()] };
  }

  /** Inserts a new record; EntityAlreadyExists (and its uploads deleted) if it exists. */
  async create(
    record: TableEntity<Record<string, unknown>>,
    options: OperationOptions = {},
  ): Promise<LargeWriteResult> {
    const { partitionKey, rowKey } = recordKeys(record, "large");
    const plan = this.layout.split(partitionKey, rowKey, asValues(this.layout.properties(record)));
    return this.writePlan(partitionKey, rowKey, plan, undefined, options);
  }

  /** The whole record: one point read, then one download per offloaded property (in parallel). */
  async get(partitionKey: string, rowKey: string, options: OperationOptions = {}): Promise<LargeRecord> {
    for (let attempt = 1; ; attempt++) {
      const entity = await this.table.getEntity(partitionKey, rowKey, options);
      const manifest = decodeManifest(entity[MANIFEST_PROPERTY], `${partitionKey}/${rowKey}`);
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(entity)) {
        if (name !== MANIFEST_PROPERTY) setOwn(out, name, value);
      }
      try {
        const values = await readPointers(this.container, manifest, options);
        for (const [name, value] of values) setOwn(out, name, value);
        return out as LargeRecord;
      } catch (err) {
        // A writer replaced the value (and deleted its blob) after our point read: read again.
        if (!isTableKitError(err, "BlobNotFound") || attempt >= this.policy.maxAttempts) throw err;
        const now = await this.table.getEntity(partitionKey, rowKey, options);
        if (now.etag === entity.etag) throw err; // the entity still points at it: the blob is gone
      }
    }
  }

  protected etagOf(stored: StoredLarge): string {
    return stored.etag;
  }

  protected given(
    record: TableEntity<Record<string, unknown>>,
    replacing: boolean,
  ): Map<string, PlannedValue> {
    const given = asValues(this.layout.properties(record));
    if (replacing) this.layout.split(record.partitionKey, record.rowKey, given);
    return given;
  }

  /** The stored values with the given ones over them: offloaded properties not named keep their blobs. */
  protected merged(stored: StoredLarge, given: Map<string, PlannedValue>): Map<string, PlannedValue> {
    return new Map([...stored.values, ...given]);
  }

  protected write(
    record: TableEntity<Record<string, unknown>>,
    values: Map<string, PlannedValue>,
    stored: StoredLarge | undefined,
    options: OperationOptions,
  ): Promise<LargeWriteResult> {
    const { partitionKey, rowKey } = record;
    return this.writePlan(
      partitionKey,
      rowKey,
      this.layout.split(partitionKey, rowKey, values),
      stored,
      options,
    );
  }

  /** The entity first (ETag-guarded); its blobs after it committed (`afterRemove`). */
  protected async remove(
    partitionKey: string,
    rowKey: string,
    stored: StoredLarge,
    options: OperationOptions,
  ): Promise<void> {
    await this.table.deleteEntity(partitionKey, rowKey, { ...signal(options), etag: stored.etag });
  }

  protected override async afterRemove(stored: StoredLarge): Promise<void> {
    await this.onStep({ kind: "entityDeleted" });
    await this.deleteBlobs([...stored.manifest.values()].map((p) => p.blob));
  }

  /**
   * Deletes the blobs under the prefix that no entity points to and that are older than the grace
   * period: what a writer killed between its steps left. Streams the listing page by page
   * (bounded memory) with one point read per entity a page names.
   */
  cleanup(options: LargeCleanupOptions = {}): Promise<LargeCleanupReport> {
    return cleanupOrphans(this, { ...options, graceMs: checkGrace(options.graceMs ?? this.graceMs) });
  }

  /** Uploads the new values, writes the entity over `stored` (or creates it), deletes replaced blobs. */
  private async writePlan(
    partitionKey: string,
    rowKey: string,
    plan: LargePlan,
    stored: StoredLarge | undefined,
    options: OperationOptions,
  ): Promise<LargeWriteResult> {
    const started = performance.now();
    const manifest = new Map<string, BlobPointer>();
    const uploaded: string[] = [];
    const reusable = new Map([...(stored?.manifest.values() ?? [])].map((p) => [p.sha256 + p.type, p]));
    for (const [name, planned] of plan.offloaded) {
      if (planned.kind === "pointer") {
        manifest.set(name, planned.pointer);
        continue;
      }
      const bytes = blobBytes(planned.value);
      const type = planned.value.type as BlobPointer["type"]; // blobBytes took only String or Binary
      const hash = sha256(bytes);
      const same = reusable.get(hash + type);
      if (same) {
        manifest.set(name, same); // the stored entity points at these very bytes already
        continue;
      }
      const blob = this.names.fresh(partitionKey, rowKey, name);
      await this.container.getBlockBlobClient(blob).upload(bytes, bytes.byteLength, {
        ...signal(options),
        blobHTTPHeaders: {
          blobContentType: type === "String" ? "text/plain; charset=utf-8" : "application/octet-stream",
        },
      });
      uploaded.push(blob);
      manifest.set(name, { blob, type, bytes: bytes.byteLength, sha256: hash });
      await this.onStep({ kind: "blobUploaded", blob });
    }
    const entity = plainEntity(this.layout.entity(partitionKey, rowKey, plan.inline, manifest));
    let etag: string;
    try {
      if (uploaded.length > 0 && performance.now() - started > this.graceMs / 2) {
        throw new TableKitError(
          "OperationTimedOut",
          `Large entity ${partitionKey}/${rowKey}: the uploads took more than half the grace period (${this.graceMs} ms); cleanup may already delete them`,
        );
      }
      etag = stored
        ? (await this.table.updateEntity(entity, "Replace", { ...signal(options), etag: stored.etag })).etag
        : (await this.table.createEntity(entity, signal(options))).etag;
    } catch (err) {
      await this.deleteBlobs(uploaded, false); // nothing points at them; cleanup gets any left
      throw err;
    }
    await this.onStep({ kind: "entityWritten", etag });
    const kept = new Set([...manifest.values()].map((p) => p.blob));
    const replaced = [...(stored?.manifest.values() ?? [])].map((p) => p.blob).filter((b) => !kept.has(b));
    const deleted = await this.deleteBlobs(replaced);
    return {
      etag,
      blobs: Object.fromEntries([...manifest].map(([name, p]) => [name, p.blob])),
      uploaded: uploaded.length,
      deleted,
    };
  }

  /** The stored entity: its ETag, manifest, and properties (offloaded ones as pointers). */
  protected async read(
    partitionKey: string,
    rowKey: string,
    options: OperationOptions,
  ): Promise<StoredLarge | undefined> {
    let entity: TableEntityResult<Record<string, PropertyOutput>>;
    try {
      entity = await this.table.getEntity(partitionKey, rowKey, signal(options));
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return undefined;
      throw err;
    }
    const manifest = decodeManifest(entity[MANIFEST_PROPERTY], `${partitionKey}/${rowKey}`);
    const values = new Map<string, PlannedValue>();
    for (const [name, value] of typedProperties(entity)) {
      if (name !== MANIFEST_PROPERTY) values.set(name, { kind: "value", value });
    }
    for (const [name, pointer] of manifest) values.set(name, { kind: "pointer", pointer });
    return { etag: entity.etag, manifest, values };
  }

  /** Deletes blobs one by one; a failure leaves the rest to `cleanup`. Returns how many went. */
  private async deleteBlobs(blobs: readonly string[], report = true): Promise<number> {
    let deleted = 0;
    for (const blob of blobs) {
      try {
        await this.container.getBlobClient(blob).deleteIfExists();
      } catch {
        continue; // an orphan now: cleanup deletes it
      }
      deleted++;
      if (report) await this.onStep({ kind: "blobDeleted", blob });
    }
    return deleted;
  }
}

interface StoredLarge {
  readonly etag: string;
  readonly manifest: Manifest;
  readonly values: ReadonlyMap<string, PlannedValue>;
}

function asValues(properties: ReadonlyMap<string, TypedValue>): Map<string, PlannedValue> {
  return new Map([...properties].map(([name, value]) => [name, { kind: "value", value } as const]));
}

function signal(options: OperationOptions): OperationOptions {
  return options.abortSignal ? { abortSignal: options.abortSignal } : {};
}

function checkGrace(graceMs: number): number {
  if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
    throw new TableKitError(
      "InvalidInput",
      `graceMs must be a whole number of milliseconds >= 0, got ${graceMs}`,
    );
  }
  return graceMs;
}
