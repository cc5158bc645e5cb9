import { odata } from "../../filter/index.js";
import { plainEntity } from "../../model/entity.js";
import {
  actionPayloadBytes,
  type PropertyOutput,
  setOwn,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  type TypedValue,
  typedProperties,
  typedValuesEqual,
} from "../../model/index.js";
import type { OperationOptions, Store, Table, TransactionAction } from "../../store/index.js";
import { recordKeys, recordNotFound } from "../shared/support/record-checks.js";
import { type RecordWriteOptions, RecordWriter } from "../shared/support/record-writer.js";
import {
  backoffDelay,
  type RetryOptions,
  retriesExhausted,
  retryPolicy,
  sleep,
} from "../shared/support/retry.js";
import { MANIFEST_PROPERTY, newVersion, type PartPlan, VERSION_PROPERTY, WideLayout } from "./wide-layout.js";

/** A wide record as reads return it: every property of every part, the ETag and Timestamp of part 0. */
export type WideRecord = TableEntityResult<Record<string, PropertyOutput>> & {
  partitionKey: string;
  rowKey: string;
};

/** What a write of a wide record did. */
export interface WideWriteResult {
  /** The record's new ETag (its part 0's): pass it to guard the next update. */
  readonly etag: string;
  readonly parts: number;
  /** Entities the transaction wrote or deleted (unchanged parts are left alone). */
  readonly written: number;
}

/** `etag`: `*` (default) retries lost races; an ETag fails with UpdateConditionNotSatisfied if the record changed. */
export type WideUpdateOptions = RecordWriteOptions;

/** A part as read back: its index, ETag, version and properties. */
interface StoredPart {
  readonly index: number;
  readonly rowKey: string;
  readonly etag: string;
  readonly version: string;
  readonly properties: Map<string, TypedValue>;
  readonly entity: TableEntityResult;
}

/** A consistent read of every part of a record. */
interface StoredRecord {
  readonly parts: StoredPart[];
}

/**
 * Wide entities (seed 001): a record with more than 252 properties, or more than 1 MiB, stored as
 * several entities under one PartitionKey with related RowKeys, written in one entity group
 * transaction and read back with one range query as one record. Updates are atomic and
 * ETag-guarded (the record's ETag is its part 0's, which every write rewrites); a record that
 * shrinks has its extra parts deleted in the same transaction. The record must fit one
 * transaction (the backend's `maxTransactionOperations` entities and `maxTransactionBytes`),
 * checked before anything is written.
 */
export class WideEntities extends RecordWriter<StoredRecord, Map<string, TypedValue>, WideWriteResult> {
  readonly layout: WideLayout;

  constructor(
    readonly store: Pick<Store, "capabilities">,
    readonly table: Table,
    options: Omit<RetryOptions, "abortSignal"> = {},
  ) {
    super("wide", retryPolicy({ maxAttempts: 20, ...options }));
    this.layout = new WideLayout(store.capabilities.limits, store.capabilities.keyOrder, table.tableName);
  }

  /** The parts a record would be written as (no I/O): their RowKeys and properties. */
  plan(record: TableEntity<Record<string, unknown>>): PartPlan[] {
    const { partitionKey, rowKey } = recordKeys(record, "wide");
    return this.layout.split(partitionKey, rowKey, this.layout.properties(record));
  }

  /** Inserts a new record (one transaction); EntityAlreadyExists if it exists. */
  async create(
    record: TableEntity<Record<string, unknown>>,
    options: OperationOptions = {},
  ): Promise<WideWriteResult> {
    const plan = this.plan(record);
    const versions = plan.map(() => newVersion());
    const actions: TransactionAction[] = plan.map((p) => [
      "create",
      this.partEntity(record, p, versions).input,
    ]);
    return this.submit(record.partitionKey, plan, actions, options);
  }

  /** The whole record with one range query (more only when a concurrent write tore the read); ResourceNotFound if absent. */
  async get(partitionKey: string, rowKey: string, options: OperationOptions = {}): Promise<WideRecord> {
    const stored = await this.read(partitionKey, rowKey, options);
    if (!stored) throw recordNotFound(partitionKey, rowKey);
    return recordOf(partitionKey, rowKey, stored);
  }

  protected etagOf(stored: StoredRecord): string {
    return stored.parts[0]!.etag;
  }

  protected given(record: TableEntity<Record<string, unknown>>, replacing: boolean): Map<string, TypedValue> {
    const given = this.layout.properties(record);
    if (replacing) this.layout.split(record.partitionKey, record.rowKey, given);
    return given;
  }

  protected merged(stored: StoredRecord, given: Map<string, TypedValue>): Map<string, TypedValue> {
    return mergedProperties(stored, given);
  }

  /** One transaction: rewrites part 0 and the parts whose content changed, deletes parts no longer needed. */
  protected write(
    record: TableEntity<Record<string, unknown>>,
    values: Map<string, TypedValue>,
    stored: StoredRecord | undefined,
    options: OperationOptions,
  ): Promise<WideWriteResult> {
    if (!stored) return this.create(record, options);
    const plan = this.layout.split(record.partitionKey, record.rowKey, values);
    return this.submit(record.partitionKey, plan, this.changes(record, stored, plan), options);
  }

  /** Every part in one transaction, each conditional on the ETag read. */
  protected async remove(
    partitionKey: string,
    _rowKey: string,
    stored: StoredRecord,
    options: OperationOptions,
  ): Promise<void> {
    const actions = stored.parts.map(
      (p): TransactionAction => ["delete", { partitionKey, rowKey: p.rowKey }, { etag: p.etag }],
    );
    await this.table.submitTransaction(
      actions,
      options.abortSignal ? { abortSignal: options.abortSignal } : {},
    );
  }

  /**
   * The actions that turn the record as stored now into `next(current)` (undefined: delete it;
   * `current` undefined: there is none), for a caller that sends them in a transaction of its own.
   * One read: part 0 and every part rewritten or deleted are conditional on the ETags it saw, new
   * parts are creates, so the transaction fails if the record changed since.
   */
  async actionsFor(
    partitionKey: string,
    rowKey: string,
    next: (current: WideRecord | undefined) => TableEntity<Record<string, unknown>> | undefined,
    options: OperationOptions = {},
  ): Promise<TransactionAction[]> {
    const stored = await this.read(partitionKey, rowKey, options);
    const record = next(stored ? recordOf(partitionKey, rowKey, stored) : undefined);
    if (!record) {
      return (stored?.parts ?? []).map((p) => [
        "delete",
        { partitionKey, rowKey: p.rowKey },
        { etag: p.etag },
      ]);
    }
    const plan = this.plan(record);
    if (!stored) {
      const versions = plan.map(() => newVersion());
      return plan.map((p) => ["create", this.partEntity(record, p, versions).input]);
    }
    return this.changes(record, stored, plan);
  }

  /** The transaction that turns the stored parts into the planned ones. */
  private changes(
    record: TableEntity<Record<string, unknown>>,
    stored: StoredRecord,
    plan: PartPlan[],
  ): TransactionAction[] {
    const old = stored.parts;
    const versions = plan.map((p) => {
      const before = old[p.index];
      return p.index > 0 && before && sameProperties(before.properties, p.properties)
        ? before.version
        : newVersion();
    });
    const actions: TransactionAction[] = [];
    let bytes = 0;
    for (const p of plan) {
      const before = old[p.index];
      if (p.index > 0 && before?.version === versions[p.index]) continue; // unchanged
      const entity = this.partEntity(record, p, versions);
      actions.push(
        before ? ["update", entity.input, "Replace", { etag: before.etag }] : ["create", entity.input],
      );
      bytes += actionPayloadBytes(
        this.table.tableName,
        before
          ? { kind: "update", entity: entity.normalized, mode: "Replace", etag: before.etag }
          : { kind: "create", entity: entity.normalized },
      );
    }
    for (const extra of old.slice(plan.length)) {
      const keys = { partitionKey: record.partitionKey, rowKey: extra.rowKey };
      actions.push(["delete", keys, { etag: extra.etag }]);
      bytes += actionPayloadBytes(this.table.tableName, { kind: "delete", ...keys, etag: extra.etag });
    }
    this.layout.checkTransactionBytes(bytes);
    return actions;
  }

  /** A part as the transaction takes it (`input`) and as its size is measured (`normalized`). */
  private partEntity(record: { partitionKey: string; rowKey: string }, part: PartPlan, versions: string[]) {
    const normalized = this.layout.entity(
      record.partitionKey,
      record.rowKey,
      part.index,
      part.properties,
      versions.slice(1),
      versions[part.index],
    );
    return { input: plainEntity(normalized), normalized };
  }

  private async submit(
    partitionKey: string,
    plan: PartPlan[],
    actions: TransactionAction[],
    options: OperationOptions,
  ): Promise<WideWriteResult> {
    const response = await this.table.submitTransaction(actions, options);
    const etag = response.getResponseForEntity(plan[0]!.rowKey)?.etag;
    if (etag === undefined) throw new TableKitError("BackendError", `No ETag for part 0 of ${partitionKey}`);
    return { etag, parts: plan.length, written: actions.length };
  }

  /**
   * Every part of a record, checked against part 0's manifest. A read that saw parts of two
   * versions (a query of several pages racing a write) is read again.
   */
  protected async read(
    partitionKey: string,
    rowKey: string,
    options: OperationOptions,
  ): Promise<StoredRecord | undefined> {
    const { lower, upper } = this.layout.range(rowKey);
    let filter = `${odata`PartitionKey eq ${partitionKey}`} and ${odata`RowKey ge ${lower}`}`;
    if (upper !== undefined) filter += ` and ${odata`RowKey lt ${upper}`}`;
    for (let attempt = 1; ; attempt++) {
      const parts: StoredPart[] = [];
      const listOptions = {
        queryOptions: { filter },
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      };
      for await (const entity of this.table.listEntities(listOptions)) {
        const where = this.layout.partOf(entity.rowKey!);
        if (!where || where.rowKey !== rowKey) continue;
        const properties = typedProperties(entity);
        const version = properties.get(VERSION_PROPERTY);
        properties.delete(VERSION_PROPERTY);
        properties.delete(MANIFEST_PROPERTY);
        parts.push({
          index: where.index,
          rowKey: entity.rowKey!,
          etag: entity.etag,
          version: version?.type === "String" ? version.value : "",
          properties,
          entity,
        });
      }
      if (parts.length === 0) return undefined;
      if (consistent(parts)) return { parts };
      if (attempt >= this.policy.maxAttempts) {
        throw retriesExhausted(
          `Wide entity ${partitionKey}/${rowKey}: parts of different writes`,
          attempt,
          undefined,
        );
      }
      await sleep(backoffDelay(this.policy, attempt), options.abortSignal);
    }
  }
}

/** The record of its stored parts: every property of every part, the ETag and Timestamp of part 0. */
function recordOf(partitionKey: string, rowKey: string, stored: StoredRecord): WideRecord {
  const part0 = stored.parts[0]!.entity;
  const out: Record<string, unknown> = { partitionKey, rowKey };
  for (const part of stored.parts) {
    for (const [name, value] of Object.entries(part.entity)) {
      if (name === VERSION_PROPERTY || name === MANIFEST_PROPERTY) continue;
      if (name === "partitionKey" || name === "rowKey" || name === "etag" || name === "timestamp") continue;
      setOwn(out, name, value);
    }
  }
  return { ...out, etag: part0.etag, timestamp: part0.timestamp } as WideRecord;
}

/** Parts 0..n-1 all present, each with the version part 0's manifest names. */
function consistent(parts: StoredPart[]): boolean {
  const manifest = parts[0]?.index === 0 ? parts[0].entity[MANIFEST_PROPERTY] : undefined;
  if (typeof manifest !== "string") return false;
  const versions = manifest === "" ? [] : manifest.split(",");
  if (parts.length !== versions.length + 1) return false;
  return parts.every((p, i) => p.index === i && (i === 0 || p.version === versions[i - 1]));
}

function mergedProperties(
  stored: StoredRecord,
  given: ReadonlyMap<string, TypedValue>,
): Map<string, TypedValue> {
  const out = new Map<string, TypedValue>();
  for (const part of stored.parts) for (const [name, value] of part.properties) out.set(name, value);
  for (const [name, value] of given) out.set(name, value);
  return out;
}

function sameProperties(a: ReadonlyMap<string, TypedValue>, b: ReadonlyMap<string, TypedValue>): boolean {
  if (a.size !== b.size) return false;
  const bs = [...b];
  let i = 0;
  for (const [name, value] of a) {
    const [otherName, otherValue] = bs[i++]!;
    if (name !== otherName || !typedValuesEqual(value, otherValue)) return false;
  }
  return true;
}
