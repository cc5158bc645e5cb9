import type { TableEntity } from "../../../model/index.js";
import type { OperationOptions, UpdateMode } from "../../../store/index.js";
import { checkRecordEtag, checkUpdateMode, recordKeys, recordNotFound } from "./record-checks.js";
import { type RetryPolicy, retryUnlessPinned } from "./retry.js";

/** Options of a record write: `*` (default) retries lost races; an ETag fails if the record changed. */
export interface RecordWriteOptions extends OperationOptions {
  readonly etag?: string;
}

/**
 * The update/upsert/delete skeleton of a pattern that stores one record over several entities or
 * blobs (wide entities, large entities): read the stored record, check the caller's ETag against
 * it, merge or replace, write; under `*`, retry a write that lost a race. Subclasses say how a
 * record is read, planned and written.
 */
export abstract class RecordWriter<Stored, Values, Result> {
  protected constructor(
    /** "wide", "large": for messages. */
    private readonly what: string,
    protected readonly policy: RetryPolicy,
  ) {}

  /** The record as stored, or undefined. */
  protected abstract read(
    partitionKey: string,
    rowKey: string,
    options: OperationOptions,
  ): Promise<Stored | undefined>;
  /** The stored record's ETag (what a caller's `etag` is checked against). */
  protected abstract etagOf(stored: Stored): string;
  /** The caller's properties, checked: with `replacing`, every limit the write will meet fails here, before any I/O. */
  protected abstract given(record: TableEntity<Record<string, unknown>>, replacing: boolean): Values;
  /** The stored properties with the given ones laid over them. */
  protected abstract merged(stored: Stored, given: Values): Values;
  /** Writes `values` as the record: over `stored` (conditional on it), or as a new record. */
  protected abstract write(
    record: TableEntity<Record<string, unknown>>,
    values: Values,
    stored: Stored | undefined,
    options: OperationOptions,
  ): Promise<Result>;
  /** Deletes the stored record, conditional on it. */
  protected abstract remove(
    partitionKey: string,
    rowKey: string,
    stored: Stored,
    options: OperationOptions,
  ): Promise<void>;
  /** What follows a delete once it committed (large entities delete their blobs). */
  protected async afterRemove(_stored: Stored): Promise<void> {}

  /** Replaces the record (or, with "Merge", overlays the given properties); ResourceNotFound if absent. */
  update(
    record: TableEntity<Record<string, unknown>>,
    mode: UpdateMode = "Replace",
    options: RecordWriteOptions = {},
  ): Promise<Result> {
    return this.rewrite(record, mode, options.etag ?? "*", options, false);
  }

  /** Inserts the record, or replaces/merges it when it exists. */
  upsert(
    record: TableEntity<Record<string, unknown>>,
    mode: UpdateMode = "Replace",
    options: OperationOptions = {},
  ): Promise<Result> {
    return this.rewrite(record, mode, "*", options, true);
  }

  /** Deletes the record (ETag-guarded when `etag` is given); ResourceNotFound if absent. */
  async delete(partitionKey: string, rowKey: string, options: RecordWriteOptions = {}): Promise<void> {
    const etag = options.etag ?? "*";
    const removed = await this.attempts(etag, options, async () => {
      const stored = await this.read(partitionKey, rowKey, options);
      if (!stored) return undefined;
      checkRecordEtag(this.etagOf(stored), etag);
      await this.remove(partitionKey, rowKey, stored, options);
      return stored;
    });
    if (!removed) throw recordNotFound(partitionKey, rowKey);
    await this.afterRemove(removed);
  }

  protected attempts<T>(etag: string, options: OperationOptions, work: () => Promise<T>): Promise<T> {
    const what = `${this.what[0]!.toUpperCase()}${this.what.slice(1)} entity write`;
    return retryUnlessPinned(etag, what, this.policy, options.abortSignal, work);
  }

  private async rewrite(
    record: TableEntity<Record<string, unknown>>,
    mode: UpdateMode,
    etag: string,
    options: OperationOptions,
    insert: boolean,
  ): Promise<Result> {
    const { partitionKey, rowKey } = recordKeys(record, this.what);
    checkUpdateMode(mode);
    const given = this.given(record, mode === "Replace");
    const result = await this.attempts(etag, options, async () => {
      const stored = await this.read(partitionKey, rowKey, options);
      if (!stored) return insert ? this.write(record, given, undefined, options) : undefined;
      checkRecordEtag(this.etagOf(stored), etag);
      return this.write(record, mode === "Replace" ? given : this.merged(stored, given), stored, options);
    });
    if (result === undefined) throw recordNotFound(partitionKey, rowKey);
    return result;
  }
}
