import {
  isTableKitError,
  type PropertyInput,
  TableKitError,
  toTypedValue,
  typedValuesEqual,
} from "../../model/index.js";
import type { OperationOptions, Store, Table, TransactionAction } from "../../store/index.js";
import type { Companion, CompanionPlan, CompanionWrite } from "../entity-models/companion.js";
import type { CompiledModel, Model } from "../entity-models/define-model.js";
import { mainEntity } from "../entity-models/index-writes.js";
import { isOfType, recordFromEntity } from "../entity-models/model-records.js";
import type { IndexDefinition } from "../entity-models/types.js";
import { step } from "../eventually-consistent-transactions/steps.js";
import type { TransactionQueue } from "../eventually-consistent-transactions/transaction-queue.js";
import { findEntity } from "../shared/derivations/derived.js";
import { keptEvidence } from "../shared/evidence/evidence.js";
import { toProperties } from "../shared/schema/schema.js";
import { checkPatternName } from "../shared/support/names.js";
import { backoffDelay, retriesExhausted, retryPolicy, sleep } from "../shared/support/retry.js";
import { CopyDerivations } from "./copy-derivations.js";

type Values = Readonly<Record<string, unknown>>;
/** The queue a durable follow-up goes through (`companionsVia`). */
interface Durable {
  readonly transactions: TransactionQueue;
  readonly kind: string;
  readonly holdSeconds?: number;
}

/** Attempts of a follow-up reconcile that keeps losing races (then ConcurrencyRetriesExhausted). */
const RECONCILE_ATTEMPTS = 10;
// biome-ignore lint/suspicious/noExplicitAny: any model may be a source or a target
type AnyModel = Model<any, any, any, Readonly<Record<string, IndexDefinition<any>>>, any>;
type FieldsOf<M> = M extends Model<infer F, infer _P, infer _R, infer _I, infer _T> ? F : never;

/** Everything `defineDenormalization` takes. */
export interface DenormalizationDefinition<S extends AnyModel, D extends AnyModel> {
  /** The copy's name: its transaction steps call the handler `copy:<name>`. */
  readonly name: string;
  /** The entity the data is copied from (the seed's manager, an employee). */
  readonly source: S;
  /** The entity that holds the copy (the seed's department). */
  readonly target: D;
  /**
   * Which source a target refers to: target field → source field, naming every key field of the
   * source and every key field of the target (`{ department: "department", managerId: "id" }`).
   */
  readonly link: { readonly [K in keyof FieldsOf<D> & string]?: keyof FieldsOf<S> & string };
  /** The copied fields: target field (optional, so it can be cleared) → source field. */
  readonly copy: { readonly [K in keyof FieldsOf<D> & string]?: keyof FieldsOf<S> & string };
}

/**
 * The denormalization pattern (seed 001): data of a related entity copied into the entity that is
 * read, so one point read answers the query (the department with its manager's name and email).
 * Inside one partition the copies move in the entity group transaction of the write that changes
 * them (`companions`); across partitions or tables, through the transaction queue (`on(store)`).
 */
export class Denormalization<S extends AnyModel, D extends AnyModel> {
  readonly name: string;
  readonly source: CompiledModel;
  readonly target: CompiledModel;
  private readonly link: readonly (readonly [string, string])[];
  private readonly copy: readonly (readonly [string, string])[];

  constructor(definition: DenormalizationDefinition<S, D>) {
    this.name = checkPatternName(definition?.name, "A denormalization");
    this.source = definition.source?.compiled;
    this.target = definition.target?.compiled;
    if (!this.source || !this.target) throw invalid("A denormalization needs a source and a target model");
    this.link = pairs(definition.link, "link");
    this.copy = pairs(definition.copy, "copy");
    for (const [t, s] of [...this.link, ...this.copy]) {
      if (!Object.hasOwn(this.target.fields, t)) throw invalid(`'${t}' is not a field of the target`);
      if (!Object.hasOwn(this.source.fields, s)) throw invalid(`'${s}' is not a field of the source`);
      if (this.target.fields[t]!.edm !== this.source.fields[s]!.edm)
        throw invalid(`Target field '${t}' and source field '${s}' have different types`);
    }
    const linked = (names: readonly string[], side: 0 | 1) =>
      names.every((n) => this.link.some((p) => p[side] === n));
    if (!linked([...this.source.partitionKey.names, ...this.source.rowKey.names], 1))
      throw invalid("The link must name every key field of the source");
    if (!linked([...this.target.partitionKey.names, ...this.target.rowKey.names], 0))
      throw invalid("The link must name every key field of the target");
    for (const [t] of this.copy) {
      if (!this.target.fields[t]!.isOptional)
        throw invalid(`Copied field '${t}' must be optional in the target`);
      if (this.link.some((p) => p[0] === t)) throw invalid(`'${t}' cannot be both linked and copied`);
    }
  }

  /** The key values of the source a target refers to (undefined: it refers to none). */
  sourceKeyOf(target: Values): Values | undefined {
    const out: Record<string, unknown> = {};
    for (const [t, s] of this.link) {
      if (target[t] === undefined || target[t] === null) return undefined;
      out[s] = target[t];
    }
    return out;
  }

  /** The key values of the target that may refer to a source. */
  targetKeyOf(source: Values): Values {
    const out: Record<string, unknown> = {};
    for (const [t, s] of this.link) out[t] = source[s];
    return out;
  }

  /** True when `target` refers to `source`. */
  refersTo(target: Values, source: Values): boolean {
    return this.link.every(([t, s]) => sameValue(this.target, t, target[t], source[s]));
  }

  /** `target` with the copy of `source` (undefined: copies removed). */
  withCopy(target: Values, source: Values | undefined): Record<string, unknown> {
    const out: Record<string, unknown> = { ...target };
    for (const [t, s] of this.copy) {
      if (source && source[s] !== undefined && source[s] !== null) out[t] = source[s];
      else delete out[t];
    }
    return out;
  }

  /** True when the copied fields of two target states are equal. */
  sameCopy(a: Values, b: Values): boolean {
    return this.copy.every(([t]) => sameValue(this.target, t, a[t], b[t]));
  }

  /** The stored entity of target values, replacing the version `read` (whose evidence it keeps). */
  targetEntity(values: Values, read: { readonly etag: string }) {
    return {
      ...mainEntity(this.target, values, toProperties(this.target.fields, values)),
      ...keptEvidence(read),
    };
  }

  /** The values of a stored entity of `model`, or undefined when absent or of another type. */
  valuesOf(model: CompiledModel, entity: Record<string, unknown> | undefined): Values | undefined {
    return entity && isOfType(model, entity) ? recordFromEntity(model, entity as never) : undefined;
  }

  /**
   * What keeps copies in step inside a partition, in each write's own transaction: pass
   * `companions.source` to `Source.on(target, { with })` and `companions.target` to the target's.
   */
  get companions(): { readonly source: Companion; readonly target: Companion } {
    return {
      source: { prepare: (write) => this.prepareSourceWrite(write) },
      target: { prepare: (write) => this.prepareTargetWrite(write) },
    };
  }

  /**
   * The same companions, with a follow-up that survives a crash: a write that finds its related
   * entity absent sends, before it commits, a transaction that brings the target's copy in line
   * (hidden for `holdSeconds`, default 30), and cancels it once its own follow-up has run. A
   * process killed between its commit and its follow-up leaves the transaction to the next
   * worker. `transactions` must carry this copy's handler (`on(store).handler`).
   */
  companionsVia(
    transactions: TransactionQueue,
    options: { readonly holdSeconds?: number } = {},
  ): { readonly source: Companion; readonly target: Companion } {
    const kind = `copy:${this.name}`;
    if (!transactions.handlers.has(kind)) {
      throw new TableKitError(
        "InvalidInput",
        `The transaction queue has no handler ${JSON.stringify(kind)}: pass ${this.name}'s on(store).handler to it`,
      );
    }
    const durable = { transactions, kind, ...options };
    return {
      source: { prepare: (write) => this.prepareSourceWrite(write, durable) },
      target: { prepare: (write) => this.prepareTargetWrite(write, durable) },
    };
  }

  /**
   * The follow-up of a write that found its related entity absent: reconcile `target` once the
   * write committed; with a queue, after a transaction sent first that does the same if the
   * process dies before it (cancelled once the follow-up ran, or when the write fails).
   */
  private async followUp(
    write: CompanionWrite,
    source: readonly [string, string],
    target: readonly [string, string],
    durable: Durable | undefined,
  ): Promise<Pick<CompanionPlan, "settle" | "abandon">> {
    const settle = () => this.reconcile(write.table, target[0], target[1], write.call);
    if (!durable) return { settle };
    const name = write.table.tableName;
    const pending = await durable.transactions.begin(
      [step.call(durable.kind, { source: name, target: name, pairs: [[...source, ...target]] })],
      { ...write.call, ...(durable.holdSeconds === undefined ? {} : { holdSeconds: durable.holdSeconds }) },
    );
    return {
      settle: async () => {
        await settle();
        await pending.cancel(write.call);
      },
      abandon: () => pending.cancel(write.call),
    };
  }

  /** A source write: the target that refers to it gets the new copy, conditional on the ETag read. */
  private async prepareSourceWrite(write: CompanionWrite, durable?: Durable): Promise<CompanionPlan> {
    const values = write.after ?? write.before;
    if (!values) return { actions: [] };
    const targetKey = this.targetKeyOf(values);
    const [pk, rk] = this.inPartition(this.target, targetKey, write);
    const entity = await findEntity(write.table, pk, rk);
    // A target created meanwhile may have read this source as absent: look again once committed.
    if (!entity && write.after)
      return {
        actions: [],
        ...(await this.followUp(write, [write.partitionKey, write.rowKey], [pk, rk], durable)),
      };
    const target = this.valuesOf(this.target, entity);
    if (!target || !this.refersTo(target, values)) return { actions: [] };
    const next = this.withCopy(target, write.after);
    if (this.sameCopy(target, next)) return { actions: [] };
    return { actions: [["update", this.targetEntity(next, entity!), "Replace", { etag: entity!.etag }]] };
  }

  /**
   * A target write: its copy is filled from the source it refers to, and the source is guarded
   * in the same transaction (an empty merge conditional on the ETag read), so a source changed
   * in between fails the transaction and the write is retried.
   */
  private async prepareTargetWrite(write: CompanionWrite, durable?: Durable): Promise<CompanionPlan> {
    if (!write.after) return { actions: [] };
    const sourceKey = this.sourceKeyOf(write.after);
    if (!sourceKey) return { actions: [], after: this.withCopy(write.after, undefined) };
    const [pk, rk] = this.inPartition(this.source, sourceKey, write);
    const entity = await findEntity(write.table, pk, rk);
    const source = this.valuesOf(this.source, entity);
    if (!entity) {
      // A source created meanwhile may have read this target as absent: look again once committed.
      const follow = await this.followUp(write, [pk, rk], [write.partitionKey, write.rowKey], durable);
      return { actions: [], after: this.withCopy(write.after, undefined), ...follow };
    }
    // The guard is a write of tablekit's like any other: the source keeps (or adopts) its evidence.
    const guard: TransactionAction = [
      "update",
      { partitionKey: pk, rowKey: rk, ...keptEvidence(entity) },
      "Merge",
      { etag: entity.etag },
    ];
    return { actions: [guard], after: this.withCopy(write.after, source) };
  }

  /**
   * Brings one target's copy in line with its source as both are now, in one transaction
   * conditional on both ETags read (retried when either changed). Closes the race of a source and
   * a target created at once, each reading the other as absent: the later one's follow-up sees both.
   */
  async reconcile(
    table: Table,
    partitionKey: string,
    rowKey: string,
    call: OperationOptions = {},
  ): Promise<void> {
    const policy = retryPolicy({ abortSignal: call.abortSignal }, RECONCILE_ATTEMPTS);
    for (let attempt = 1; ; attempt++) {
      const entity = await findEntity(table, partitionKey, rowKey);
      const target = this.valuesOf(this.target, entity);
      const sourceKey = target && this.sourceKeyOf(target);
      if (!target || !sourceKey) return;
      const [pk, rk] = [this.source.partitionKey.encode(sourceKey), this.source.rowKey.encode(sourceKey)];
      if (pk !== partitionKey) return; // copies across partitions go through the queue
      const sourceEntity = await findEntity(table, pk, rk);
      const next = this.withCopy(target, this.valuesOf(this.source, sourceEntity));
      if (this.sameCopy(target, next)) return;
      const actions: TransactionAction[] = [
        ["update", this.targetEntity(next, entity!), "Replace", { etag: entity!.etag }],
      ];
      if (sourceEntity)
        actions.push([
          "update",
          { partitionKey: pk, rowKey: rk, ...keptEvidence(sourceEntity) },
          "Merge",
          { etag: sourceEntity.etag },
        ]);
      try {
        await table.submitTransaction(actions, call);
        return;
      } catch (err) {
        if (!isTableKitError(err, "UpdateConditionNotSatisfied", "ResourceNotFound")) throw err;
        if (attempt >= policy.maxAttempts)
          throw retriesExhausted(`Reconciling ${partitionKey}/${rowKey}`, attempt, err);
        await sleep(backoffDelay(policy, attempt), call.abortSignal);
      }
    }
  }

  private inPartition(model: CompiledModel, key: Values, write: CompanionWrite): [string, string] {
    const pk = model.partitionKey.encode(key);
    if (pk !== write.partitionKey) {
      throw new TableKitError(
        "InvalidInput",
        `Denormalization ${this.name}: the related entity is in partition ${JSON.stringify(pk)}, not ${JSON.stringify(write.partitionKey)}; keep copies across partitions through the transaction queue`,
        { details: { partitionKey: pk } },
      );
    }
    return [pk, model.rowKey.encode(key)];
  }

  /** Copies kept in step across partitions or tables through a transaction queue, on `store`'s tables (or those given). */
  on(store: Store, tables: { readonly source?: Table; readonly target?: Table } = {}): CopyDerivations {
    return new CopyDerivations(
      this as never,
      tables.source ?? store.table(this.source.table),
      tables.target ?? store.table(this.target.table),
    );
  }
}

function pairs(map: unknown, what: string): (readonly [string, string])[] {
  if (typeof map !== "object" || map === null)
    throw invalid(`${what} must map target fields to source fields`);
  const out = Object.entries(map as Record<string, unknown>).filter(([, s]) => s !== undefined);
  if (out.length === 0) throw invalid(`${what} names no field`);
  for (const [, s] of out)
    if (typeof s !== "string") throw invalid(`${what} must map target fields to source field names`);
  return out as [string, string][];
}

function sameValue(model: CompiledModel, name: string, a: unknown, b: unknown): boolean {
  if ((a ?? undefined) === undefined || (b ?? undefined) === undefined)
    return (a ?? undefined) === (b ?? undefined);
  const f = model.fields[name]!;
  const typed = (v: unknown) => toTypedValue(name, f.write(name, v) as PropertyInput);
  const [x, y] = [typed(a), typed(b)];
  return x !== undefined && y !== undefined && typedValuesEqual(x, y);
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

/**
 * Declares a denormalized copy: fields of a source entity copied into a target that refers to it.
 *
 * @example
 * const ManagerCopy = defineDenormalization({
 *   name: "manager", source: Employee, target: Department,
 *   link: { department: "department", managerId: "id" },
 *   copy: { managerName: "firstName", managerEmail: "email" },
 * });
 */
export function defineDenormalization<S extends AnyModel, D extends AnyModel>(
  definition: DenormalizationDefinition<S, D>,
): Denormalization<S, D> {
  return new Denormalization(definition);
}
