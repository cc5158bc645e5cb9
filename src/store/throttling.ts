import { type NormalizedEntity, type StoredEntity, TableKitError } from "../model/index.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  BackendStore,
  BackendTable,
  BackendTableQuery,
  CallOptions,
  UpdateMode,
  WriteResult,
} from "./backend.js";
import { Limiter, type ThrottleOptions, type ThrottleProfile } from "./throttle-budget.js";

export type { ThrottleEvent, ThrottleOptions, ThrottleProfile } from "./throttle-budget.js";

/** The one partition a query reads, when its key ranges are all inside one. */
function singlePartition(query: BackendQuery): string | undefined {
  const ranges = query.ranges;
  if (!ranges || ranges.length === 0) return undefined;
  const first = ranges[0]!;
  if (first.kind !== "rows") return undefined;
  return ranges.every((r) => r.kind === "rows" && r.pk === first.pk) ? first.pk : undefined;
}

/** A backend table whose every call is admitted (or refused with ServerBusy) by the limiter first. */
class ThrottledTable implements BackendTable {
  constructor(
    private readonly inner: BackendTable,
    private readonly name: string,
    private readonly limiter: Limiter,
  ) {}

  /** Admits a write of `units` to one partition, or throws ServerBusy before it is sent. */
  private admitWrite(partitionKey: string, units: number): void {
    this.limiter.admit(this.name, partitionKey, "write", units);
  }

  private unitsOf(entity: NormalizedEntity): number {
    return this.limiter.profile.writeUnits(entity);
  }

  async insert(entity: NormalizedEntity, options: CallOptions): Promise<WriteResult> {
    this.admitWrite(entity.partitionKey, this.unitsOf(entity));
    return this.inner.insert(entity, options);
  }

  async upsert(entity: NormalizedEntity, mode: UpdateMode, options: CallOptions): Promise<WriteResult> {
    this.admitWrite(entity.partitionKey, this.unitsOf(entity));
    return this.inner.upsert(entity, mode, options);
  }

  async update(
    entity: NormalizedEntity,
    mode: UpdateMode,
    etag: string,
    options: CallOptions,
  ): Promise<WriteResult> {
    this.admitWrite(entity.partitionKey, this.unitsOf(entity));
    return this.inner.update(entity, mode, etag, options);
  }

  async delete(partitionKey: string, rowKey: string, etag: string, options: CallOptions): Promise<void> {
    this.admitWrite(partitionKey, 1);
    return this.inner.delete(partitionKey, rowKey, etag, options);
  }

  async transact(
    actions: readonly BackendAction[],
    options: CallOptions,
  ): Promise<(WriteResult | undefined)[]> {
    let units = 0;
    for (const a of actions) units += a.kind === "delete" ? 1 : this.unitsOf(a.entity);
    const first = actions[0]!;
    this.admitWrite(
      first.kind === "delete" ? first.partitionKey : first.entity.partitionKey,
      units * this.limiter.profile.transactionFactor,
    );
    return this.inner.transact(actions, options);
  }

  async get(partitionKey: string, rowKey: string, options: CallOptions): Promise<StoredEntity | undefined> {
    this.limiter.admit(this.name, partitionKey, "read", 1, false);
    const entity = await this.inner.get(partitionKey, rowKey, options);
    const units = entity ? this.limiter.profile.readUnits(entity) : 1;
    this.limiter.spend(this.name, partitionKey, "read", units);
    this.limiter.spend(this.name, undefined, "read", units);
    return entity;
  }

  async query(query: BackendQuery, options: CallOptions): Promise<BackendPage> {
    this.limiter.admit(this.name, singlePartition(query), "read", 1, false);
    const page = await this.inner.query(query, options);
    // Each entity read counts against its own partition; an empty page still costs one unit.
    const byPartition = new Map<string, number>();
    let total = 0;
    for (const entity of page.entities) {
      const units = this.limiter.profile.readUnits(entity);
      byPartition.set(entity.partitionKey, (byPartition.get(entity.partitionKey) ?? 0) + units);
      total += units;
    }
    for (const [partitionKey, units] of byPartition)
      this.limiter.spend(this.name, partitionKey, "read", units);
    this.limiter.spend(this.name, undefined, "read", Math.max(1, total));
    return page;
  }
}

/** A backend store whose tables are throttled; table operations count against the account (Azure). */
class ThrottledStore implements BackendStore {
  constructor(
    private readonly inner: BackendStore,
    private readonly limiter: Limiter,
  ) {}

  get capabilities() {
    return this.inner.capabilities;
  }

  private tableOperation(name: string): void {
    if (this.limiter.profile.tableOperations) this.limiter.admit(name, undefined, "write", 1);
  }

  createTable(name: string, options: CallOptions): Promise<void> {
    this.tableOperation(name);
    return this.inner.createTable(name, options);
  }

  deleteTable(name: string, options: CallOptions): Promise<void> {
    this.tableOperation(name);
    return this.inner.deleteTable(name, options);
  }

  listTables(
    query: BackendTableQuery,
    options: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    this.tableOperation("");
    return this.inner.listTables(query, options);
  }

  table(name: string): BackendTable {
    return new ThrottledTable(this.inner.table(name), name, this.limiter);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Checks throttle options (a profile name or the full options) and returns what wraps a backend
 * in the emulator, so bad options fail before a store is opened.
 */
export function throttling(
  options: ThrottleOptions | ThrottleProfile,
): (backend: BackendStore) => BackendStore {
  const limiter = new Limiter(typeof options === "string" ? { profile: options } : (options ?? {}));
  return (backend) => new ThrottledStore(backend, limiter);
}

/**
 * Splits a `?throttle=azure[&scale=0.1][&burst=2]` suffix off an embedded store's location (only
 * when the query starts with `throttle=`, so paths are otherwise left alone).
 */
export function throttleFromLocation(location: string): { location: string; throttle?: ThrottleOptions } {
  const at = location.lastIndexOf("?");
  if (at < 0 || !location.startsWith("throttle=", at + 1)) return { location };
  const params = new URLSearchParams(location.slice(at + 1));
  const options: { profile?: ThrottleProfile; scale?: number; burstSeconds?: number } = {};
  for (const [key, value] of params) {
    if (key === "throttle") options.profile = value as ThrottleProfile;
    else if (key === "scale") options.scale = Number(value);
    else if (key === "burst") options.burstSeconds = Number(value);
    else {
      throw new TableKitError(
        "InvalidStoreUrl",
        `Unknown store URL parameter '${key}' (throttle, scale, burst)`,
      );
    }
  }
  try {
    new Limiter(options); // checks the values now, not at the first request
  } catch (err) {
    throw new TableKitError("InvalidStoreUrl", (err as Error).message, { cause: err });
  }
  return { location: location.slice(0, at), throttle: options };
}
