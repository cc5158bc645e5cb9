import { abortedError } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type { Db } from "./connection.js";
import { toTableKitError } from "./errors.js";
import { withLockWait } from "./lock-wait.js";
import type { SqliteTransaction } from "./sqlite-database.js";

interface Pending {
  readonly work: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  done: boolean;
}

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

/**
 * Group commit for the message writes of an embedded store: the writes asked for in one turn of
 * the event loop run in one IMMEDIATE transaction, each in a savepoint of its own (one that fails
 * undoes only its own changes and fails only its caller), so the deliveries of a worker deleting
 * their messages pay one commit, not one each. Each write still sees the database exactly as if
 * it ran alone, after the ones before it; other processes see the group whole. The group waits
 * for the write lock like any write; a caller whose signal fires meanwhile leaves it, Aborted.
 */
export class EmbeddedQueueGroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  private readonly group: SqliteTransaction<[works: readonly Pending[]], Outcome[]>;
  private readonly savepoint: SqliteTransaction<[work: () => unknown], unknown>;

  constructor(db: Db) {
    this.savepoint = db.transaction((work: () => unknown) => work());
    this.group = db.transaction((works: readonly Pending[]) =>
      works.map((p): Outcome => {
        try {
          return { ok: true, value: this.savepoint(p.work) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  /** Runs `work` (synchronous) in the next group; resolves with what it returned. */
  run<T>(call: CallOptions, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { work, resolve: resolve as (v: unknown) => void, reject, done: false };
      const signal = call.abortSignal;
      signal?.addEventListener(
        "abort",
        () => {
          if (p.done) return;
          p.done = true;
          reject(abortedError(signal.reason));
        },
        { once: true },
      );
      this.pending.push(p);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const taken = this.pending;
    this.pending = [];
    try {
      // Waits (without a signal of its own) while another connection holds the lock; callers that
      // abort meanwhile have left, and their work is skipped. Settles in the same synchronous turn
      // as the commit, so no caller learns of an abort after its write was committed.
      await withLockWait({}, () => {
        const live = taken.filter((p) => !p.done);
        const outcomes = live.length === 0 ? [] : this.group.immediate(live);
        live.forEach((p, i) => {
          const o = outcomes[i]!;
          p.done = true;
          if (o.ok) p.resolve(o.value);
          else p.reject(toTableKitError(o.error));
        });
      });
    } catch (err) {
      for (const p of taken) {
        if (p.done) continue;
        p.done = true;
        p.reject(err);
      }
    }
  }
}
