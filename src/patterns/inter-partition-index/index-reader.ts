import { odata } from "../../filter/index.js";
import {
  compareUtf8,
  compareUtf16,
  type TableEntityResult,
  TableKitError,
  typedProperties,
} from "../../model/index.js";
import type { OperationOptions, Table } from "../../store/index.js";
import { recordFromEntity } from "../entity-models/model-records.js";
import type { IndexDefinition, ListOptions, ModelRecord, Where } from "../entity-models/types.js";
import type { StepHandler } from "../eventually-consistent-transactions/handler.js";
import type { TransactionStep } from "../eventually-consistent-transactions/steps.js";
import { type Derivation, findEntity, type PrimaryChange } from "../shared/derivations/derived.js";
import type { Fields } from "../shared/schema/field.js";
import { forEachConcurrently } from "../shared/support/concurrency.js";
import { ExternalSorter } from "../shared/support/external-sort.js";
import { deferQuery, entityQuery, type Query, rowRangeFilter } from "../shared/support/query.js";
import { ENTRY_MARKER, fingerprint } from "./index-entry.js";
import type { InterPartitionIndex } from "./inter-partition-index.js";

/** What `verify` found (and, with `repair`, fixed). */
export interface IndexVerifyReport {
  /** Primaries read, and entries read. */
  readonly primaries: number;
  readonly entries: number;
  /** Primaries without their entry. */
  readonly missing: number;
  /** Entries no primary should have (deleted, or moved to another value). */
  readonly stale: number;
  /** Entries at the right key holding other values than their primary. */
  readonly outdated: number;
  /** Problems repaired (each through the index's own handler, on the primary as it is then). */
  readonly repaired: number;
  /** The first problems found, as text. */
  readonly samples: readonly string[];
  /** Runs of expected entries the sort wrote to temporary files (0: everything fitted in one run). */
  readonly spilledRuns: number;
}

export interface IndexVerifyOptions extends OperationOptions {
  /** Fix what is found (default false: only report). */
  readonly repair?: boolean;
  /** Expected entries held in memory at once before a sorted run goes to a temporary file (default 50,000). */
  readonly runSize?: number;
}

/** One expected or actual entry in the merge: its key, what it holds, and its primary's key. */
interface MergeItem {
  readonly pk: string;
  readonly rk: string;
  readonly f: string;
  readonly ppk: string;
  readonly prk: string;
}

const MAX_SAMPLES = 20;
const LOOKUP_CONCURRENCY = 8;
const PROBLEM_BATCH = 10_000;

/**
 * An inter-partition index bound to its tables: look-ups, the verify/repair pass, and the
 * derivation a `SyncedRepository` of the primaries' table calls on every write.
 */
export class InterPartitionIndexReader<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
  IPK extends readonly string[],
  IRK extends readonly string[],
> implements Derivation
{
  constructor(
    readonly index: InterPartitionIndex<F, PKN, RKN, I, T, IPK, IRK>,
    private readonly keyOrder: "utf16" | "utf8",
    readonly primary: Table,
    readonly indexTable: Table,
  ) {}

  get handler(): StepHandler<never> {
    return this.index.handler;
  }

  /** The step for a write of one of this index's primaries (in its primary table). */
  stepFor(change: PrimaryChange): TransactionStep | undefined {
    if (change.table !== this.primary.tableName) {
      throw new TableKitError(
        "InvalidInput",
        `The index ${this.index.name} is bound to the primaries of ${this.primary.tableName}, not ${change.table}`,
      );
    }
    return this.index.stepFor(change, this.indexTable.tableName);
  }

  /**
   * The entries whose keys start with `where` (every PartitionKey field, then leading RowKey
   * fields), as stored: one query, no check against the primaries, so they may be stale.
   */
  entries(where: Where<F, IPK, IRK>, options: ListOptions = {}): Query<TableEntityResult> {
    return deferQuery(() => {
      const values = where as Record<string, unknown>;
      const startsWith = options.startsWith === undefined ? {} : { startsWith: options.startsWith };
      const filter = `${rowRangeFilter(this.index.partitionKey.encode(values), this.index.rowKey.match(values, startsWith))} and ${`${ENTRY_MARKER} eq ${odata`${this.index.name}`}`}`;
      return entityQuery(this.indexTable, filter, (e) => e, options);
    });
  }

  /**
   * The primaries whose index keys start with `where`, in index order: each entry found is
   * checked against its primary (one point read each, 8 at a time), and a hit whose primary is
   * gone or no longer has that key is dropped. What is returned is the primaries as read.
   */
  async lookup(where: Where<F, IPK, IRK>, options: ListOptions = {}): Promise<ModelRecord<F, T>[]> {
    const hits = await this.entries(where, options).toArray();
    const found: (ModelRecord<F, T> | undefined)[] = new Array(hits.length);
    await forEachConcurrently(hits, LOOKUP_CONCURRENCY, async (entry, i) => {
      const model = this.index.model.compiled;
      const key = recordFromEntity(model, entry, this.index.holds);
      const primary = await findEntity(
        this.primary,
        model.partitionKey.encode(key),
        model.rowKey.encode(key),
      );
      const values = this.index.primaryValues(primary);
      if (!values) return;
      const [pk, rk] = this.index.keyOf(values);
      if (pk === entry.partitionKey && rk === entry.rowKey)
        found[i] = recordFromEntity(model, primary!) as ModelRecord<F, T>;
    });
    return found.filter((r): r is ModelRecord<F, T> => r !== undefined);
  }

  /** The one primary with exactly these index key values, or undefined (first hit when several share them). */
  async find(
    where: Where<F, IPK, IRK>,
    options: OperationOptions = {},
  ): Promise<ModelRecord<F, T> | undefined> {
    return (await this.lookup(where, options))[0];
  }

  /**
   * Compares the index with its primaries and reports the drift: primaries without their entry,
   * entries no primary should have, entries holding other values. Bounded memory: the primaries
   * are read in pages and their expected entries sorted externally (runs of `runSize` in
   * temporary files), then merged with the entries read in key order — nothing is loaded whole.
   * With `repair`, each problem is fixed by the index's handler on the primary as it is then, so
   * a repair racing live writes never writes a stale entry.
   */
  async verify(options: IndexVerifyOptions = {}): Promise<IndexVerifyReport> {
    const model = this.index.model.compiled;
    const order = this.keyOrder === "utf8" ? compareUtf8 : compareUtf16;
    const compare = (a: MergeItem, b: MergeItem) => order(a.pk, b.pk) || order(a.rk, b.rk);
    const sorter = new ExternalSorter<MergeItem>(compare, options.runSize ?? 50_000);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    let primaries = 0;
    const typeFilter = model.typeProperty
      ? `${model.typeProperty} eq ${odata`${model.entityType!}`}`
      : undefined;
    for await (const entity of this.primary.listEntities({
      ...call,
      ...(typeFilter ? { queryOptions: { filter: typeFilter } } : {}),
    })) {
      if (!entity.rowKey!.startsWith(model.rowKey.prefix)) continue;
      const values = this.index.primaryValues(entity);
      if (!values) continue;
      primaries++;
      const entry = this.index.entryOf(values);
      sorter.add({
        pk: entry.partitionKey,
        rk: entry.rowKey,
        f: fingerprint(typedProperties(entry)),
        ppk: entity.partitionKey!,
        prk: entity.rowKey!,
      });
    }
    const actual = this.indexTable.listEntities({
      ...call,
      queryOptions: { filter: `${ENTRY_MARKER} eq ${odata`${this.index.name}`}` },
    });
    const problems: { item: MergeItem }[] = [];
    const counts = { missing: 0, stale: 0, outdated: 0 };
    const samples: string[] = [];
    let repaired = 0;
    const found = (kind: "missing" | "stale" | "outdated", item: MergeItem) => {
      counts[kind]++;
      problems.push({ item });
      if (samples.length < MAX_SAMPLES)
        samples.push(`${kind}: ${item.pk}/${item.rk} (primary ${item.ppk}/${item.prk})`);
    };
    let entries = 0;
    const expected = sorter.sorted();
    const nextActual = async (it: AsyncIterator<TableEntityResult>): Promise<MergeItem | undefined> => {
      const r = await it.next();
      if (r.done) return undefined;
      entries++;
      const key = recordFromEntity(model, r.value, this.index.holds);
      return {
        pk: r.value.partitionKey!,
        rk: r.value.rowKey!,
        f: fingerprint(typedProperties(r.value)),
        ppk: model.partitionKey.encode(key),
        prk: model.rowKey.encode(key),
      };
    };
    const actualIt = actual[Symbol.asyncIterator]();
    let a = await nextActual(actualIt);
    let e = (await expected.next()).value as MergeItem | undefined;
    while (a || e) {
      const c = !a ? -1 : !e ? 1 : compare(e, a);
      if (c < 0) {
        found("missing", e!);
        e = (await expected.next()).value as MergeItem | undefined;
      } else if (c > 0) {
        found("stale", a!);
        a = await nextActual(actualIt);
      } else {
        if (e!.f !== a!.f) found("outdated", e!);
        e = (await expected.next()).value as MergeItem | undefined;
        a = await nextActual(actualIt);
      }
      // Problems are kept to repair after the merge (repairs write the index being read); past
      // PROBLEM_BATCH they are repaired at once, so memory stays bounded however large the drift.
      if (problems.length >= PROBLEM_BATCH) {
        if (options.repair) repaired += await this.repair(problems);
        problems.length = 0;
      }
    }
    if (options.repair) repaired += await this.repair(problems);
    return { primaries, entries, ...counts, repaired, samples, spilledRuns: sorter.spilledRuns };
  }

  /** Runs the index's handler for the primary of each problem, naming the entry found. */
  private async repair(problems: readonly { item: MergeItem }[]): Promise<number> {
    let repaired = 0;
    for (const { item } of problems) {
      await this.index.sync(
        { remembered: [], remember: async () => {} },
        { pk: item.ppk, rk: item.prk, keys: [[item.pk, item.rk]] },
        { primary: this.primary, index: this.indexTable },
      );
      repaired++;
    }
    return repaired;
  }
}
