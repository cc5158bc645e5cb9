import type { TableEntityResult } from "../../model/index.js";
import type { Table } from "../../store/index.js";
import type { PartPosition } from "./composite-token.js";

/** An entity as a parallel query returns it: its keys are always there (they order the merge). */
export type PartEntity = TableEntityResult & { partitionKey: string; rowKey: string };

/** A part of a parallel query with its table resolved. */
export interface ResolvedPart {
  readonly name: string;
  readonly table: Table;
  readonly filter?: string;
}

/**
 * One part's progress through its own pages: the unread rest of the page it holds, the token of
 * that page and of the next, and the last key handed out from it. Fetches never reject: a failure
 * is kept in `error` for the run to report with the part's name.
 */
export class PartCursor {
  private items: PartEntity[] = [];
  private pos = 0;
  /** Token the held page was read with (undefined: the part's first page). */
  private pageStart: string | undefined;
  /** Token of the page after the held one. */
  private next: string | undefined;
  /** No page follows the held one. */
  private exhausted = false;
  private after: readonly [string, string] | undefined;
  pending: Promise<void> | undefined;
  error: unknown;

  constructor(
    readonly index: number,
    readonly part: ResolvedPart,
    position: PartPosition,
    /** Compares keys in the backend's order: skipping what was handed out before a resume needs it. */
    private readonly compareKeys: (a: string, b: string) => number,
  ) {
    if (position.done) this.exhausted = true;
    else {
      this.next = position.token;
      this.after = position.after;
    }
  }

  get buffered(): boolean {
    return this.pos < this.items.length;
  }

  /** Every entity of the part has been handed out. */
  get finished(): boolean {
    return !this.buffered && this.exhausted;
  }

  get needsFetch(): boolean {
    return !this.buffered && !this.exhausted && this.pending === undefined && this.error === undefined;
  }

  /** The next entity to hand out (only while `buffered`). */
  get head(): PartEntity {
    return this.items[this.pos]!;
  }

  take(): PartEntity {
    const entity = this.items[this.pos++]!;
    this.after = [entity.partitionKey, entity.rowKey];
    if (!this.buffered) {
      this.items = [];
      this.pos = 0;
    }
    return entity;
  }

  /** Where a resumed query picks this part up. */
  position(): PartPosition {
    if (this.finished) return { done: true };
    const token = this.buffered ? this.pageStart : this.next;
    return {
      done: false,
      ...(token === undefined ? {} : { token }),
      ...(this.after ? { after: this.after } : {}),
    };
  }

  /** Reads the part's next page (one request). */
  async fetch(maxPageSize: number, select: string[] | undefined, signal: AbortSignal): Promise<void> {
    const token = this.next;
    const queryOptions = {
      ...(this.part.filter === undefined ? {} : { filter: this.part.filter }),
      ...(select ? { select } : {}),
    };
    const pages = this.part.table
      .listEntities({ queryOptions, abortSignal: signal })
      .byPage({ maxPageSize, ...(token === undefined ? {} : { continuationToken: token }) });
    let page: PartEntity[] & { continuationToken?: string };
    try {
      const result = await pages.next();
      page = result.done ? [] : (result.value as PartEntity[] & { continuationToken?: string });
    } finally {
      await pages.return?.(undefined);
    }
    const after = this.after;
    this.items = after ? page.filter((e) => this.isAfter(e, after)) : page;
    this.pos = 0;
    this.pageStart = token;
    this.next = page.continuationToken;
    this.exhausted = this.next === undefined;
  }

  private isAfter(e: PartEntity, [pk, rk]: readonly [string, string]): boolean {
    const byPartition = this.compareKeys(e.partitionKey, pk);
    return byPartition > 0 || (byPartition === 0 && this.compareKeys(e.rowKey, rk) > 0);
  }
}
