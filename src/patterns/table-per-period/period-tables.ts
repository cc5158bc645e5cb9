import { odata } from "../../filter/index.js";
import { prefixSuccessor, type TimeInput } from "../../keys/index.js";
import {
  type DateTime,
  isTableKitError,
  type PropertyInput,
  type TableEntity,
  TableKitError,
} from "../../model/index.js";
import type { OperationOptions, Store, Table, WriteResponse } from "../../store/index.js";
import {
  mergeParts,
  type ParallelQueryOptions,
  type PartEntity,
} from "../parallel-queries/parallel-query.js";
import { deferQuery, emptyQuery, type Query } from "../shared/support/query.js";
import { epochMsOf } from "../shared/support/time.js";
import { PeriodNames, type PeriodUnit } from "./period-names.js";

export type { PeriodUnit } from "./period-names.js";

export interface PeriodTablesOptions {
  /** Every table's name starts with this (a letter, then letters and digits): `LoginAttempts`. */
  readonly prefix: string;
  /** One table per "hour", "day" (default) or "month", in UTC. */
  readonly period?: PeriodUnit;
  /** Periods kept, the current one included (60 for "delete login attempts older than 60 days"); absent: all. */
  readonly retain?: number;
  /** The clock (default: now): which period is current. */
  readonly now?: () => TimeInput;
}

/** One period's table. */
export interface PeriodTable {
  readonly name: string;
  readonly start: DateTime;
  /** The start of the next period (exclusive end). */
  readonly end: DateTime;
}

/** Options of a query over a time window. */
export interface PeriodQueryOptions extends Omit<ParallelQueryOptions, "compare"> {
  /** The window: periods overlapping `from <= t < to` are read (default: every table). */
  readonly from?: TimeInput;
  readonly to?: TimeInput;
  /** A `$filter` applied in every table (narrow boundary periods with a RowKey range on your time keys). */
  readonly filter?: string;
}

/**
 * The high-volume delete pattern (seed 001): entities that expire together live in their own
 * table — one per hour, day or month (`LoginAttempts20240131`) — so deleting a period is one
 * `deleteTable` instead of a scan and a delete per entity. Writes go to the table of their
 * instant (created on first use, or ahead of time with `prepare`); a query over a time window
 * reads the tables it spans in parallel and merges them in key order; `applyRetention` deletes
 * whole tables past the retained periods, and writes to those periods are refused, so a deleted
 * name is never reused (the service may refuse it for a while after the delete).
 */
export class PeriodTables {
  readonly names: PeriodNames;
  private readonly retain: number | undefined;
  private readonly now: () => TimeInput;

  constructor(
    readonly store: Store,
    options: PeriodTablesOptions,
  ) {
    this.names = new PeriodNames(options?.prefix, options.period ?? "day");
    this.retain = options.retain;
    if (this.retain !== undefined && (!Number.isInteger(this.retain) || this.retain < 1)) {
      throw new TableKitError("InvalidInput", `retain must be a positive integer, got ${this.retain}`);
    }
    this.now = options.now ?? (() => new Date());
  }

  /** The table of an instant's period (no I/O). */
  tableFor(at: TimeInput): Table {
    return this.store.table(this.names.nameOf(this.names.periodOf(at)));
  }

  /**
   * Writes an entity into the table of `at` (default now), creating the table on first use:
   * one round trip, three the first time. OutOfRangeInput for a period past retention.
   */
  async write(
    entity: TableEntity<Record<string, PropertyInput>>,
    options: OperationOptions & { at?: TimeInput; mode?: "create" | "upsert" } = {},
  ): Promise<WriteResponse & { table: string }> {
    const period = this.names.periodOf(options.at ?? this.now());
    const oldest = this.oldestRetained();
    if (oldest !== undefined && period < oldest) {
      throw new TableKitError(
        "OutOfRangeInput",
        "The period is past retention: its table is (or will be) deleted",
        {
          details: { table: this.names.nameOf(period), oldest: this.names.nameOf(oldest) },
        },
      );
    }
    const table = this.store.table(this.names.nameOf(period));
    const send = () =>
      options.mode === "upsert"
        ? table.upsertEntity(entity, "Replace", options)
        : table.createEntity(entity, options);
    try {
      return { ...(await send()), table: table.tableName };
    } catch (err) {
      if (!isTableKitError(err, "TableNotFound")) throw err;
      await table.createTable(options); // a table that exists meanwhile is fine (as in the SDKs)
      return { ...(await send()), table: table.tableName };
    }
  }

  /**
   * Creates the current period's table and the next `ahead` (default 1) before they are needed:
   * a new table is throttled while the service learns its load, so roll over early.
   */
  async prepare(options: OperationOptions & { ahead?: number } = {}): Promise<string[]> {
    const ahead = options.ahead ?? 1;
    if (!Number.isInteger(ahead) || ahead < 0)
      throw new TableKitError("InvalidInput", "ahead must be a non-negative integer");
    const current = this.names.periodOf(this.now());
    const names = Array.from({ length: ahead + 1 }, (_, i) => this.names.nameOf(current + i));
    for (const name of names) await this.store.table(name).createTable(options);
    return names;
  }

  /** The period tables that exist, oldest first (one listing of the prefix's names). */
  async tables(options: OperationOptions = {}): Promise<PeriodTable[]> {
    const prefix = this.names.prefix;
    const upper = prefixSuccessor(prefix)!;
    const filter = `${odata`TableName ge ${prefix}`} and ${odata`TableName lt ${upper}`}`;
    const found: { period: number; name: string }[] = [];
    for await (const { name } of this.store.listTables({ ...options, queryOptions: { filter } })) {
      const period = this.names.parse(name);
      if (period !== undefined) found.push({ period, name });
    }
    return found
      .sort((a, b) => a.period - b.period)
      .map(({ period, name }) => ({
        name,
        start: this.names.startOf(period),
        end: this.names.startOf(period + 1),
      }));
  }

  /**
   * Entities of the tables whose periods overlap the window, read in parallel and merged in key
   * order (an entity in two tables comes once per table, the older period first), or as they arrive.
   * `byPage` tokens resume every table.
   */
  query(options: PeriodQueryOptions = {}): Query<PartEntity> {
    return deferQuery(async () => {
      const { from, to, filter, ...rest } = options;
      const first = from === undefined ? undefined : this.names.periodOf(from);
      const end = to === undefined ? undefined : epochMsOf(to);
      const parts = (await this.tables(options))
        .filter(
          (t) =>
            (first === undefined || this.names.periodOf(t.start) >= first) &&
            (end === undefined || t.start.epochMilliseconds < end),
        )
        .map((t) => ({ name: t.name, table: t.name, ...(filter === undefined ? {} : { filter }) }));
      return parts.length === 0 ? emptyQuery<PartEntity>() : mergeParts(this.store, parts, rest, (e) => e);
    });
  }

  /**
   * The retention policy: deletes every period table older than the `retain` periods ending with
   * the current one — one `deleteTable` each, whatever the table holds. Returns the names deleted.
   */
  async applyRetention(options: OperationOptions = {}): Promise<string[]> {
    const oldest = this.oldestRetained();
    if (oldest === undefined) return [];
    const deleted: string[] = [];
    for (const t of await this.tables(options)) {
      if (this.names.periodOf(t.start) >= oldest) continue;
      await this.store.deleteTable(t.name, options); // gone already (another process) is success
      deleted.push(t.name);
    }
    return deleted;
  }

  private oldestRetained(): number | undefined {
    return this.retain === undefined ? undefined : this.names.periodOf(this.now()) - this.retain + 1;
  }
}
