import { isTableKitError, TableKitError } from "../../model/index.js";
import type { Table } from "../../store/index.js";
import type { HandlerContext, StepHandler } from "../eventually-consistent-transactions/handler.js";
import { step, type TransactionStep } from "../eventually-consistent-transactions/steps.js";
import {
  type Derivation,
  findEntity,
  type PrimaryChange,
  syncUntilStable,
} from "../shared/derivations/derived.js";
import { retryLostRaces, retryPolicy } from "../shared/support/retry.js";
import type { Denormalization } from "./denormalized-copy.js";

type Values = Readonly<Record<string, unknown>>;

/** A step's arguments: the tables, and which target to bring in step with which source. */
interface CopyStepArgs {
  readonly source: string;
  readonly target: string;
  /** `[source PK, source RK, target PK, target RK]`. */
  readonly pairs: readonly (readonly [string, string, string, string])[];
}

/** Conditional writes of one target that keep losing races before the handler gives up (the worker retries it). */
const TARGET_ATTEMPTS = 20;

/**
 * Denormalized copies kept in step across partitions or tables through the transaction queue:
 * `fromSource` for the source's SyncedRepository, `fromTarget` for the target's; both send steps
 * of one handler, which re-reads the source and the target and writes the copy the target should
 * hold now (order-independent, idempotent), conditional on the target's ETag.
 */
export class CopyDerivations {
  readonly handler: StepHandler<never>;
  /** The derivation of source writes: the target that refers to the source gets the new copy. */
  readonly fromSource: Derivation;
  /** The derivation of target writes: the copy is filled from the source it refers to now. */
  readonly fromTarget: Derivation;

  constructor(
    private readonly copy: Denormalization<never, never>,
    readonly sourceTable: Table,
    readonly targetTable: Table,
  ) {
    this.handler = {
      kind: `copy:${copy.name}`,
      check: (args) => checkArgs(args),
      run: (ctx, args) => this.sync(ctx, args as unknown as CopyStepArgs),
    };
    this.fromSource = { handler: this.handler, stepFor: (change) => this.sourceStep(change) };
    this.fromTarget = { handler: this.handler, stepFor: (change) => this.targetStep(change) };
  }

  private stepOf(pairs: CopyStepArgs["pairs"]): TransactionStep | undefined {
    if (pairs.length === 0) return undefined;
    const args: CopyStepArgs = {
      source: this.sourceTable.tableName,
      target: this.targetTable.tableName,
      pairs,
    };
    return step.call(this.handler.kind, args as never);
  }

  private sourceStep(change: PrimaryChange): TransactionStep | undefined {
    const { target } = this.copy;
    const values = change.after ?? change.before!;
    if (
      change.before &&
      change.after &&
      this.copy.sameCopy(this.copy.withCopy({}, change.before), this.copy.withCopy({}, change.after))
    )
      return undefined; // no copied field changed
    const key = this.copy.targetKeyOf(values);
    return this.stepOf([
      [change.partitionKey, change.rowKey, target.partitionKey.encode(key), target.rowKey.encode(key)],
    ]);
  }

  private targetStep(change: PrimaryChange): TransactionStep | undefined {
    const { source } = this.copy;
    // After a write the target's copy may be missing or stale: fill it from the source it refers to
    // now (or, if it refers to none any more, from the one it referred to, which clears it).
    const refers =
      (change.after && this.copy.sourceKeyOf(change.after)) ??
      (change.before && this.copy.sourceKeyOf(change.before));
    if (!change.after || !refers) return undefined;
    return this.stepOf([
      [source.partitionKey.encode(refers), source.rowKey.encode(refers), change.partitionKey, change.rowKey],
    ]);
  }

  /** The handler: for each pair, reads the source and writes the target's copy of it, until the source is stable. */
  async sync(ctx: Pick<HandlerContext, "store" | "abortSignal">, args: CopyStepArgs): Promise<void> {
    const sources = ctx.store.table(args.source);
    const targets = ctx.store.table(args.target);
    for (const [spk, srk, tpk, trk] of args.pairs) {
      await syncUntilStable(
        async () => {
          const entity = await findEntity(sources, spk, srk);
          return { version: entity?.etag, state: this.copy.valuesOf(this.copy.source, entity) };
        },
        (source) => this.writeTarget(targets, [spk, srk], [tpk, trk], source, ctx.abortSignal),
        `Copy ${this.copy.name} of ${spk}/${srk} into ${tpk}/${trk}`,
      );
    }
  }

  /** Writes the copy `source` gives into the target if it refers to that source (else leaves it). */
  private writeTarget(
    targets: Table,
    [spk, srk]: readonly [string, string],
    [tpk, trk]: readonly [string, string],
    source: Values | undefined,
    abortSignal: AbortSignal | undefined,
  ): Promise<void> {
    const { copy } = this;
    return retryLostRaces(
      `Copy ${copy.name} into ${tpk}/${trk}`,
      retryPolicy({ maxAttempts: TARGET_ATTEMPTS }),
      abortSignal,
      async () => {
        const entity = await findEntity(targets, tpk, trk);
        const target = copy.valuesOf(copy.target, entity);
        if (!target) return; // no target (yet): its own write sends a step that fills it
        const refers = copy.sourceKeyOf(target);
        const ofThisSource =
          refers &&
          copy.source.partitionKey.encode(refers) === spk &&
          copy.source.rowKey.encode(refers) === srk;
        if (refers && !ofThisSource) return; // it refers to another source: that source's step fills it
        const next = copy.withCopy(target, ofThisSource ? source : undefined);
        if (copy.sameCopy(target, next)) return;
        try {
          await targets.updateEntity(copy.targetEntity(next, entity!), "Replace", { etag: entity!.etag });
        } catch (err) {
          if (isTableKitError(err, "ResourceNotFound")) return; // deleted meanwhile: nothing to hold a copy
          throw err;
        }
      },
    );
  }
}

function checkArgs(args: unknown): void {
  const a = args as Partial<CopyStepArgs>;
  const pair = (p: unknown) => Array.isArray(p) && p.length === 4 && p.every((s) => typeof s === "string");
  if (
    typeof a?.source !== "string" ||
    typeof a.target !== "string" ||
    !Array.isArray(a.pairs) ||
    !a.pairs.every(pair)
  ) {
    throw new TableKitError(
      "InvalidInput",
      "A copy step takes { source, target, pairs: [[spk, srk, tpk, trk], …] }",
    );
  }
}
