import { type NormalizedEntity, type StoredEntity, TableKitError, utf8ItemSize } from "../model/index.js";
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

/** The services whose scalability targets the emulator enforces. */
export type ThrottleProfile = "azure" | "dynamodb";

/**
 * The throttling emulator (docs/throttling.md): an opt-in mode of the embedded engine that
 * enforces a cloud service's scalability targets and answers `ServerBusy` (503) past them, so a
 * hot-partition design fails on a laptop before it fails in production.
 */
export interface ThrottleOptions {
  /** "azure" (default): 2,000 entities/s a partition, 20,000 a store. "dynamodb": 1,000 WCU and 3,000 RCU/s a partition, 40,000 each a table. */
  readonly profile?: ThrottleProfile;
  /** Multiplies every target (default 1; 0.01 makes a partition's 2,000/s into 20/s for a quick test). */
  readonly scale?: number;
  /** Seconds of unused capacity a partition or store may bank and spend at once (default 1). */
  readonly burstSeconds?: number;
  /** The clock, in ms (default `performance.now`); tests freeze or step it. */
  readonly now?: () => number;
  /** Called on every refusal, before it is thrown. */
  readonly onThrottle?: (event: ThrottleEvent) => void;
}

/** One refusal: what was over its target. */
export interface ThrottleEvent {
  readonly scope: "partition" | "account" | "table";
  readonly table: string;
  readonly partitionKey?: string;
  readonly kind: "read" | "write";
  /** When the request would have been admitted, in ms from now. */
  readonly retryAfterMs: number;
}

interface Targets {
  /** Units a second one partition takes, for reads and for writes (equal when they share a budget). */
  readonly partition: { readonly read: number; readonly write: number };
  /** Units a second the store ("account", Azure) or each table (DynamoDB) takes. */
  readonly scope: { readonly read: number; readonly write: number; readonly per: "account" | "table" };
  /** Reads and writes draw from one budget (Azure counts entities, whatever the operation). */
  readonly shared: boolean;
  readonly writeUnits: (entity: NormalizedEntity) => number;
  readonly readUnits: (entity: StoredEntity) => number;
  /** A transaction's write units are multiplied by this (DynamoDB transactions cost double). */
  readonly transactionFactor: number;
  /** Table creation, deletion and listing count against the account (Azure) or not (DynamoDB's control plane). */
  readonly tableOperations: boolean;
}

/** The documented targets: Azure's storage scalability targets; DynamoDB's per-partition and default per-table quotas. */
const TARGETS: Readonly<Record<ThrottleProfile, Targets>> = {
  azure: {
    partition: { read: 2_000, write: 2_000 },
    scope: { read: 20_000, write: 20_000, per: "account" },
    shared: true,
    writeUnits: () => 1,
    readUnits: () => 1,
    transactionFactor: 1,
    tableOperations: true,
  },
  dynamodb: {
    partition: { read: 3_000, write: 1_000 },
    scope: { read: 40_000, write: 40_000, per: "table" },
    shared: false,
    // A write capacity unit per started KiB of the item; a read unit per started 4 KiB (strongly consistent).
    writeUnits: (entity) => Math.max(1, Math.ceil(utf8ItemSize(entity) / 1024)),
    readUnits: (entity) => Math.max(1, Math.ceil(utf8ItemSize(entity) / 4096)),
    transactionFactor: 2,
    tableOperations: false,
  },
};

/** A token bucket: `rate` units a second, holding at most `capacity`, starting full. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  private refill(now: number): void {
    if (now > this.at)
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = Math.max(this.at, now);
  }

  /** Ms until `units` could be admitted (0: now). A request larger than the bucket waits for a full bucket. */
  wait(units: number, now: number): number {
    this.refill(now);
    const need = Math.min(units, this.capacity);
    return this.tokens >= need ? 0 : Math.ceil(((need - this.tokens) * 1000) / this.rate);
  }

  /** Spends units; the balance may go negative (a read's cost is known only after it ran). */
  spend(units: number, now: number): void {
    this.refill(now);
    this.tokens -= units;
  }

  /** True when the bucket is back to full (it can be forgotten: a new one starts full). */
  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }
}

/** Buckets of every partition and scope, and the admission rule. */
class Limiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly targets: Targets;
  private readonly scale: number;
  private readonly burst: number;
  private readonly now: () => number;

  constructor(readonly options: ThrottleOptions) {
    const profile = options.profile ?? "azure";
    const targets = TARGETS[profile as ThrottleProfile];
    if (!Object.hasOwn(TARGETS, profile) || !targets) {
      throw new TableKitError(
        "InvalidInput",
        `throttle profile must be "azure" or "dynamodb", got ${String(profile)}`,
      );
    }
    this.targets = targets;
    this.scale = positive("scale", options.scale ?? 1);
    this.burst = positive("burstSeconds", options.burstSeconds ?? 1);
    this.now = options.now ?? (() => performance.now());
  }

  get profile(): Targets {
    return this.targets;
  }

  /**
   * Admits a request of `units` on `table` (and one partition, when it is confined to one) or
   * throws ServerBusy without doing it. `charge` false admits without spending (a read spends later).
   */
  admit(
    table: string,
    partitionKey: string | undefined,
    kind: "read" | "write",
    units: number,
    charge = true,
  ): void {
    const now = this.now();
    const scopes: { scope: ThrottleEvent["scope"]; bucket: Bucket }[] = [];
    if (partitionKey !== undefined)
      scopes.push({ scope: "partition", bucket: this.bucket(table, partitionKey, kind, now) });
    scopes.push({ scope: this.targets.scope.per, bucket: this.bucket(table, undefined, kind, now) });
    for (const { scope, bucket } of scopes) {
      const retryAfterMs = bucket.wait(units, now);
      if (retryAfterMs > 0)
        throw this.busy({
          scope,
          table,
          ...(scope === "partition" ? { partitionKey } : {}),
          kind,
          retryAfterMs,
        });
    }
    if (charge) for (const { bucket } of scopes) bucket.spend(units, now);
  }

  /** Spends units already used (a read's, once its size is known). */
  spend(table: string, partitionKey: string | undefined, kind: "read" | "write", units: number): void {
    const now = this.now();
    if (partitionKey !== undefined) this.bucket(table, partitionKey, kind, now).spend(units, now);
    else this.bucket(table, undefined, kind, now).spend(units, now);
  }

  private bucket(
    table: string,
    partitionKey: string | undefined,
    kind: "read" | "write",
    now: number,
  ): Bucket {
    const t = this.targets;
    const budget = t.shared ? "rw" : kind;
    const scopeName = t.scope.per === "account" && partitionKey === undefined ? "" : table.toLowerCase();
    const id = JSON.stringify([budget, scopeName, partitionKey ?? null]);
    let bucket = this.buckets.get(id);
    if (!bucket) {
      if (this.buckets.size >= 10_000) this.forgetFull(now);
      const rate = (partitionKey === undefined ? t.scope : t.partition)[kind] * this.scale;
      bucket = new Bucket(rate, Math.max(1, rate * this.burst), now);
      this.buckets.set(id, bucket);
    }
    return bucket;
  }

  /** Drops buckets that refilled completely: they behave exactly like new ones. */
  private forgetFull(now: number): void {
    for (const [id, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(id);
  }

  private busy(event: ThrottleEvent): TableKitError {
    this.options.onThrottle?.(event);
    const what =
      event.scope === "partition"
        ? `partition '${event.partitionKey}' of table '${event.table}'`
        : event.scope === "table"
          ? `table '${event.table}'`
          : "the account";
    return new TableKitError(
      "ServerBusy",
      `The server is busy: ${event.kind}s to ${what} are over the ${this.options.profile ?? "azure"} scalability target (throttling emulator); retry after a backoff`,
      { details: { ...event, profile: this.options.profile ?? "azure" } },
    );
  }
}

function positive(name: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new TableKitError(
      "InvalidInput",
      `throttle ${name} must be a positive number, got ${String(value)}`,
    );
  }
  return value;
}

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

  private write<T>(partitionKey: string, units: number, work: () => Promise<T>): Promise<T> {
    this.limiter.admit(this.name, partitionKey, "write", units);
    return work();
  }

  insert(entity: NormalizedEntity, options: CallOptions): Promise<WriteResult> {
    return this.write(entity.partitionKey, this.limiter.profile.writeUnits(entity), () =>
      this.inner.insert(entity, options),
    );
  }

  upsert(entity: NormalizedEntity, mode: UpdateMode, options: CallOptions): Promise<WriteResult> {
    return this.write(entity.partitionKey, this.limiter.profile.writeUnits(entity), () =>
      this.inner.upsert(entity, mode, options),
    );
  }

  update(
    entity: NormalizedEntity,
    mode: UpdateMode,
    etag: string,
    options: CallOptions,
  ): Promise<WriteResult> {
    return this.write(entity.partitionKey, this.limiter.profile.writeUnits(entity), () =>
      this.inner.update(entity, mode, etag, options),
    );
  }

  delete(partitionKey: string, rowKey: string, etag: string, options: CallOptions): Promise<void> {
    return this.write(partitionKey, 1, () => this.inner.delete(partitionKey, rowKey, etag, options));
  }

  transact(actions: readonly BackendAction[], options: CallOptions): Promise<(WriteResult | undefined)[]> {
    const profile = this.limiter.profile;
    let units = 0;
    for (const a of actions) units += a.kind === "delete" ? 1 : profile.writeUnits(a.entity);
    const first = actions[0]!;
    const partitionKey = first.kind === "delete" ? first.partitionKey : first.entity.partitionKey;
    return this.write(partitionKey, units * profile.transactionFactor, () =>
      this.inner.transact(actions, options),
    );
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
