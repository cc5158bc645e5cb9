import { isTableKitError, TableKitError } from "../../model/index.js";
import { encodeCompositeToken, type PartPosition } from "./composite-token.js";
import type { PartCursor, PartEntity, ResolvedPart } from "./part-cursor.js";

/** How a run merges its parts: in an order every part already follows, or as pages arrive. */
export type RunOrder =
  | { readonly kind: "key"; readonly compare: (a: PartEntity, b: PartEntity) => number }
  | { readonly kind: "arrival" };

export interface RunSettings<T> {
  readonly cursors: readonly PartCursor[];
  readonly order: RunOrder;
  readonly concurrency: number;
  readonly pageSize: number;
  readonly limit: number;
  readonly select: string[] | undefined;
  readonly fingerprint: string;
  readonly abortSignal: AbortSignal | undefined;
  readonly map: (entity: PartEntity, part: ResolvedPart) => T;
}

/** One page of a run, with the token that resumes after it (absent at the end). */
export interface RunPage<T> {
  readonly items: T[];
  readonly continuationToken?: string;
}

/**
 * One pass of a parallel query: keeps at most `concurrency` part requests in flight, hands out
 * pages merged in order or as they arrive, and stops every request on failure, abort or close.
 */
export class ParallelRun<T> {
  private inFlight = 0;
  private emitted = 0;
  /** Parts whose page arrived, in arrival order (arrival mode). */
  private readonly arrived: PartCursor[] = [];
  private readonly controller = new AbortController();
  private readonly aborted: Promise<void>;
  private readonly onAbort: () => void;
  /** The token of everything handed out so far: what an error tells the caller to resume from. */
  private resumeToken: string;

  constructor(private readonly settings: RunSettings<T>) {
    const signal = settings.abortSignal;
    let wake = () => {};
    this.aborted = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.onAbort = () => {
      this.controller.abort(signal?.reason);
      wake();
    };
    signal?.addEventListener("abort", this.onAbort, { once: true });
    this.resumeToken = this.token();
  }

  /** The next page, or undefined when every part is finished (or the limit is reached). */
  async nextPage(): Promise<RunPage<T> | undefined> {
    const { cursors, limit } = this.settings;
    if (this.emitted >= limit || cursors.every((c) => c.finished)) return undefined;
    this.throwFailure();
    this.pump();
    const items = this.settings.order.kind === "key" ? await this.mergedPage() : await this.arrivedPage();
    this.emitted += items.length;
    this.pump();
    const more = this.emitted < limit && !cursors.every((c) => c.finished);
    if (more) this.resumeToken = this.token();
    return more ? { items, continuationToken: this.resumeToken } : { items };
  }

  /** Stops every request still in flight and waits for them to settle (their answers are dropped). */
  async close(): Promise<void> {
    this.settings.abortSignal?.removeEventListener("abort", this.onAbort);
    this.controller.abort(new TableKitError("Aborted", "The parallel query was closed"));
    await Promise.all(this.settings.cursors.map((c) => c.pending));
  }

  private room(): number {
    return Math.min(this.settings.pageSize, this.settings.limit - this.emitted);
  }

  /** The next entities in the merge order: each needs the head of every unfinished part. */
  private async mergedPage(): Promise<T[]> {
    const { cursors, map } = this.settings;
    const compare = (this.settings.order as Extract<RunOrder, { kind: "key" }>).compare;
    const room = this.room();
    const out: T[] = [];
    while (out.length < room) {
      while (cursors.some((c) => !c.buffered && !c.finished)) await this.progress();
      let best: PartCursor | undefined;
      for (const c of cursors) if (c.buffered && (!best || compare(c.head, best.head) < 0)) best = c;
      if (!best) break;
      out.push(map(best.take(), best.part));
    }
    return out;
  }

  /** The rest of the page that arrived first. */
  private async arrivedPage(): Promise<T[]> {
    const { cursors, map } = this.settings;
    for (;;) {
      const cursor = this.arrived.shift();
      if (cursor) {
        const out: T[] = [];
        const room = this.room();
        while (cursor.buffered && out.length < room) out.push(map(cursor.take(), cursor.part));
        if (cursor.buffered) this.arrived.unshift(cursor);
        return out;
      }
      if (cursors.every((c) => c.finished)) return [];
      await this.progress();
    }
  }

  /** Starts requests for parts that need a page, within the concurrency limit. */
  private pump(): void {
    const { cursors, concurrency, select } = this.settings;
    const pageSize = this.room();
    if (pageSize <= 0) return;
    for (const cursor of cursors) {
      if (this.inFlight >= concurrency) return;
      if (!cursor.needsFetch) continue;
      this.inFlight++;
      cursor.pending = cursor
        .fetch(pageSize, select, this.controller.signal)
        .then(
          () => {
            if (this.settings.order.kind === "arrival" && cursor.buffered) this.arrived.push(cursor);
          },
          (err: unknown) => {
            cursor.error = err;
          },
        )
        .finally(() => {
          this.inFlight--;
          cursor.pending = undefined;
        });
    }
  }

  /** Waits for one request to finish (or the caller to abort), then reports any failure. */
  private async progress(): Promise<void> {
    this.throwFailure();
    this.pump();
    const pending = this.settings.cursors.flatMap((c) => (c.pending ? [c.pending] : []));
    if (pending.length > 0) await Promise.race([...pending, this.aborted]);
    this.throwFailure();
  }

  private throwFailure(): void {
    const signal = this.settings.abortSignal;
    if (signal?.aborted) {
      throw new TableKitError("Aborted", "The operation was aborted", {
        cause: signal.reason,
        details: { continuationToken: this.resumeToken },
      });
    }
    const failed = this.settings.cursors.find((c) => c.error !== undefined);
    if (failed) throw partFailure(failed.error, failed.part.name, this.resumeToken);
  }

  private token(): string {
    const positions: PartPosition[] = this.settings.cursors.map((c) => c.position());
    return encodeCompositeToken(this.settings.fingerprint, positions);
  }
}

/**
 * A part's failure, named: the same code (callers branch on it), the part's name first in the
 * message and in `details.part`, the original error as `cause`, and the token that resumes the
 * query after everything already handed out in `details.continuationToken`.
 */
function partFailure(err: unknown, part: string, continuationToken: string): unknown {
  if (!isTableKitError(err)) return err;
  return new TableKitError(err.code, `${part}: ${err.message}`, {
    cause: err,
    ...(err.index === undefined ? {} : { index: err.index }),
    ...(err.position === undefined ? {} : { position: err.position }),
    details: { ...err.details, part, continuationToken },
  });
}
