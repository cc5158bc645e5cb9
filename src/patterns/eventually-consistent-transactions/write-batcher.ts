import { isTableKitError, TableKitError } from "../../model/index.js";
import type { Store, TransactionAction } from "../../store/index.js";

/** A write of one step: a create, or an update or delete conditional on an ETag. */
export type StepWrite =
  | readonly ["create", Record<string, unknown> & { partitionKey: string; rowKey: string }]
  | readonly [
      "update",
      Record<string, unknown> & { partitionKey: string; rowKey: string },
      "Merge" | "Replace",
      { etag: string },
    ]
  | readonly ["delete", { partitionKey: string; rowKey: string }, { etag: string }];

interface Pending {
  readonly table: string;
  readonly write: StepWrite;
  resolve(etag: string | undefined): void;
  reject(err: unknown): void;
}

/** Most actions of one entity group transaction the batcher sends (the service's limit). */
const MAX_ACTIONS = 100;
/** Most bytes of entities per transaction (estimated): well under the 4 MiB request limit. */
const MAX_BYTES = 2_000_000;

const hasOwn = Object.prototype.hasOwnProperty;

/** An upper estimate of an entity's bytes on the wire (strings as escaped UTF-8, binary as base64). */
function approxBytes(value: unknown): number {
  if (typeof value === "string") return 6 * value.length + 8;
  if (value instanceof Uint8Array) return Math.ceil((value.byteLength * 4) / 3) + 8;
  if (typeof value === "object" && value !== null) {
    let n = 8;
    // for…in, not Object.entries: no array per property (a step's entity is a plain object).
    for (const name in value)
      if (hasOwn.call(value, name))
        n += 4 * name.length + approxBytes((value as Record<string, unknown>)[name]);
    return n;
  }
  return 32;
}

/**
 * Group commit for the steps of the transactions a worker holds: the writes asked for in one turn
 * of the event loop that land on one partition of one table go out as one entity group
 * transaction (each step's write conditional on its own ETag, so any subset may be sent again).
 * A transaction that fails on one action returns that action's error to its step and sends the
 * others again; one that fails as a whole (a lock, a busy emulator) sends each write on its own.
 */
export class WriteBatcher {
  private pending = new Map<string, Pending[]>();
  private scheduled = false;

  constructor(private readonly store: Store) {}

  /** Writes one step's action; resolves with the new ETag (undefined for a delete). */
  write(table: string, write: StepWrite): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      const key = `${table.toLowerCase()}\u0000${write[1].partitionKey}`;
      const group = this.pending.get(key);
      const item = { table, write, resolve, reject };
      if (group) group.push(item);
      else this.pending.set(key, [item]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = [...this.pending.values()];
    this.pending = new Map();
    for (const group of groups)
      this.sendGroup(group).catch((err: unknown) => {
        for (const p of group) p.reject(err); // settles only those still waiting
      });
  }

  /** Sends a partition's writes in transactions of distinct entities, one after another (their order kept). */
  private async sendGroup(group: Pending[]): Promise<void> {
    let rest = group;
    while (rest.length > 0) {
      const chunk: Pending[] = [];
      const later: Pending[] = [];
      const rows = new Set<string>();
      let bytes = 0;
      for (const item of rest) {
        const size = item.write[0] === "delete" ? 0 : approxBytes(item.write[1]);
        if (
          chunk.length >= MAX_ACTIONS ||
          rows.has(item.write[1].rowKey) ||
          (chunk.length > 0 && bytes + size > MAX_BYTES)
        ) {
          later.push(item);
          continue;
        }
        rows.add(item.write[1].rowKey);
        bytes += size;
        chunk.push(item);
      }
      await this.sendChunk(chunk);
      rest = later;
    }
  }

  private async sendChunk(chunk: readonly Pending[]): Promise<void> {
    if (chunk.length === 0) return;
    if (chunk.length === 1) return this.sendOne(chunk[0]!);
    const table = this.store.table(chunk[0]!.table);
    try {
      const response = await table.submitTransaction(chunk.map((p) => p.write as TransactionAction));
      for (const [i, p] of chunk.entries()) p.resolve(response.subResponses[i]?.etag);
    } catch (err) {
      const index = isTableKitError(err) ? err.index : undefined;
      if (index === undefined || index < 0 || index >= chunk.length) {
        await Promise.all(chunk.map((p) => this.sendOne(p)));
        return;
      }
      chunk[index]!.reject(ownError(err as TableKitError));
      await this.sendChunk(chunk.filter((_, i) => i !== index));
    }
  }

  private async sendOne(p: Pending): Promise<void> {
    const table = this.store.table(p.table);
    try {
      const w = p.write;
      if (w[0] === "create") p.resolve((await table.createEntity(w[1])).etag);
      else if (w[0] === "update") p.resolve((await table.updateEntity(w[1], w[2], w[3])).etag);
      else {
        await table.deleteEntity(w[1].partitionKey, w[1].rowKey, w[2]);
        p.resolve(undefined);
      }
    } catch (err) {
      p.reject(err);
    }
  }
}

/** The error of one action of a failed transaction, as its own write would have failed. */
function ownError(err: TableKitError): TableKitError {
  const message = err.message.replace(/^\d+:/, "");
  return new TableKitError(err.code, message, {
    cause: err,
    ...(err.details ? { details: err.details } : {}),
  });
}
