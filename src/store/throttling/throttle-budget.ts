import { type NormalizedEntity, type StoredEntity, TableKitError, utf8ItemSize } from "../../model/index.js";

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

export interface Targets {
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
export class Limiter {
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

  /** Spends units already used (a read's, once its size is known) from a partition's or the scope's budget. */
  spend(table: string, partitionKey: string | undefined, kind: "read" | "write", units: number): void {
    const now = this.now();
    this.bucket(table, partitionKey, kind, now).spend(units, now);
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
