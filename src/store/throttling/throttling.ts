import { type StoredEntity, TableKitError } from "../../model/index.js";
import type { StateBackend } from "../access/state-backend.js";
import type { BackendStore } from "../backend.js";
import type { CallOptions } from "../call-options.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  BackendTableQuery,
  TableBackend,
  TableServiceBackend,
  WriteResult,
} from "../tables/table-backend.js";
import type { Capabilities } from "../tables/table-capabilities.js";
import { Limiter, type ThrottleOptions, type ThrottleProfile } from "./throttle-budget.js";

export type { ThrottleEvent, ThrottleOptions, ThrottleProfile } from "./throttle-budget.js";

/** The one partition a query reads, when its key ranges are all inside one. */
function singlePartition(query: BackendQuery): string | undefined {
  const first = query.ranges?.[0];
  if (first?.kind !== "rows") return undefined;
  return query.ranges!.every((r) => r.kind === "rows" && r.pk === first.pk) ? first.pk : undefined;
}

/** A table whose every call is admitted (or refused with ServerBusy, doing nothing) by the limiter first. */
class ThrottledTable implements TableBackend {
  constructor(
    private readonly inner: TableBackend,
    private readonly name: string,
    private readonly limiter: Limiter,
  ) {}

  /** Write units of one action: a delete costs one, a write its entity's units. */
  private unitsOf(action: BackendAction): number {
    return action.kind === "delete" ? 1 : this.limiter.profile.writeUnits(action.entity);
  }

  private admitWrite(action: BackendAction, units: number): void {
    const partitionKey = action.kind === "delete" ? action.partitionKey : action.entity.partitionKey;
    this.limiter.admit(this.name, partitionKey, "write", units);
  }

  async write(action: BackendAction, call: CallOptions): Promise<WriteResult | undefined> {
    this.admitWrite(action, this.unitsOf(action));
    return this.inner.write(action, call);
  }

  async transact(actions: readonly BackendAction[], call: CallOptions): Promise<(WriteResult | undefined)[]> {
    let units = 0;
    for (const action of actions) units += this.unitsOf(action);
    this.admitWrite(actions[0]!, units * this.limiter.profile.transactionFactor);
    return this.inner.transact(actions, call);
  }

  async get(partitionKey: string, rowKey: string, call: CallOptions): Promise<StoredEntity | undefined> {
    this.limiter.admit(this.name, partitionKey, "read", 1, false);
    const entity = await this.inner.get(partitionKey, rowKey, call);
    const units = entity ? this.limiter.profile.readUnits(entity) : 1;
    this.limiter.spend(this.name, partitionKey, "read", units);
    this.limiter.spend(this.name, undefined, "read", units);
    return entity;
  }

  async query(query: BackendQuery, call: CallOptions): Promise<BackendPage> {
    this.limiter.admit(this.name, singlePartition(query), "read", 1, false);
    const page = await this.inner.query(query, call);
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

/** A table service whose tables are throttled; table operations count against the account (Azure). */
class ThrottledTables implements TableServiceBackend {
  constructor(
    private readonly inner: TableServiceBackend,
    private readonly limiter: Limiter,
  ) {}

  get capabilities(): Capabilities {
    return this.inner.capabilities;
  }

  /** Policies and service properties are account-management calls: passed on unthrottled. */
  get state(): StateBackend | undefined {
    return this.inner.state;
  }

  private tableOperation(name: string): void {
    if (this.limiter.profile.tableOperations) this.limiter.admit(name, undefined, "write", 1);
  }

  async createTable(name: string, call: CallOptions): Promise<void> {
    this.tableOperation(name);
    return this.inner.createTable(name, call);
  }

  async deleteTable(name: string, call: CallOptions): Promise<void> {
    this.tableOperation(name);
    return this.inner.deleteTable(name, call);
  }

  async listTables(
    query: BackendTableQuery,
    call: CallOptions,
  ): Promise<{ names: string[]; continuation?: string }> {
    this.tableOperation("");
    return this.inner.listTables(query, call);
  }

  table(name: string): TableBackend {
    return new ThrottledTable(this.inner.table(name), name, this.limiter);
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
  return (backend) => ({
    tables: new ThrottledTables(backend.tables, limiter),
    // The emulator throttles the table port; the other ports pass through (it models the Table service's targets).
    ...(backend.queues ? { queues: backend.queues } : {}),
    ...(backend.blobs ? { blobs: backend.blobs } : {}),
    close: () => backend.close(),
  });
}

/** The store URL parameters of the emulator: `?throttle=azure[&scale=0.1][&burst=2]`. */
export const THROTTLE_URL_PARAMETERS: readonly string[] = ["throttle", "scale", "burst"];

/**
 * The throttle options of a store URL's parameters (`THROTTLE_URL_PARAMETERS`), checked now;
 * undefined when none is given. A backend that takes them splits its URL's parameters itself.
 */
export function throttleFromParameters(params: ReadonlyMap<string, string>): ThrottleOptions | undefined {
  if (!THROTTLE_URL_PARAMETERS.some((name) => params.has(name))) return undefined;
  const options: { profile?: ThrottleProfile; scale?: number; burstSeconds?: number } = {};
  const profile = params.get("throttle");
  const scale = params.get("scale");
  const burst = params.get("burst");
  if (profile !== undefined) options.profile = profile as ThrottleProfile;
  if (scale !== undefined) options.scale = Number(scale);
  if (burst !== undefined) options.burstSeconds = Number(burst);
  try {
    new Limiter(options); // checks the values now, not at the first request
  } catch (err) {
    throw new TableKitError("InvalidStoreUrl", (err as Error).message, { cause: err });
  }
  return options;
}
