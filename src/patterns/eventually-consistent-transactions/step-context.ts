import { isTableKitError, TableKitError } from "../../model/index.js";
import type { OperationOptions, Store } from "../../store/index.js";
import type { StepRef } from "../shared/evidence/evidence.js";
import type { FinishedTransactions } from "../shared/evidence/evidence-upkeep.js";
import type { HandlerContext, StepHandler } from "./handler.js";
import type { JournalEntry } from "./journal.js";
import { type CheckedStep, describeStep } from "./steps.js";
import type { WriteBatcher } from "./write-batcher.js";

/*
 * What every kind of step runner is given and gives back, and how a step is refused: apart from
 * step-runner.ts, so that the table and blob runners it dispatches to need nothing of it.
 */

/** How a step ended: it wrote, or it found its effect already there (a redelivery). */
export type StepOutcome = "applied" | "already";

/**
 * A step's outcome; `created`: it created its target — the version's ETag, and the lineage it
 * started (an entity's is its create's Timestamp, read from the ETag only when needed).
 */
export interface StepResult {
  readonly outcome: StepOutcome;
  readonly created?: { readonly etag: string; readonly lineage?: string };
}

/** What the runner needs besides the step. */
export interface StepContext {
  readonly store: Store;
  readonly handlers: ReadonlyMap<string, StepHandler>;
  readonly call: OperationOptions;
  /** The handler context of a `call` step. */
  handlerContext(): HandlerContext;
  /** This step: its transaction's journal table and id, and its index. */
  readonly ref: StepRef;
  /**
   * True when no delivery can have run this step before: the message's first delivery, and its
   * journal had no row. Then a target that does not match the step is a plain conflict.
   */
  readonly firstAttempt: boolean;
  /** What the journal held for the transaction when the delivery began (kept current by `recordDeleting`). */
  readonly journal: Pick<JournalEntry, "deleted" | "deleting">;
  /** Reads the journal's record of deleted effects again (a later writer may have added one since). */
  deletedNow(): Promise<JournalEntry["deleted"]>;
  /** Records, before a delete without an ETag, the lineage of the version it deletes. */
  recordDeleting(lineage: string): Promise<void>;
  /** Group commit of table writes. */
  readonly writer: WriteBatcher;
  /** False only in the benchmark's comparison (TransactionQueueOptions.evidence). */
  readonly evidence: boolean;
  /** Transactions known completed (their marks may be dropped). */
  readonly finished: FinishedTransactions;
}

/**
 * A step whose target is not in the state it expects and does not hold its effect either:
 * retrying cannot help (it changed since the transaction was declared). The worker parks the
 * transaction at once. The code is the store's own (412, 409 or 404).
 */
export function isStepConflict(err: unknown): err is TableKitError {
  return isTableKitError(err) && err.details?.conflict === true;
}

/**
 * A step that may or may not have run: its target changed in a way only a write outside tablekit
 * explains (its evidence is gone). The worker parks the transaction with reason "unverifiable".
 */
export function isStepUnverifiable(err: unknown): err is TableKitError {
  return isTableKitError(err) && err.details?.unverifiable === true;
}

/** The error of a step that is a conflict, or (`unverifiable`) whose outcome cannot be told. */
export function stepRefused(
  s: CheckedStep,
  code: "UpdateConditionNotSatisfied" | "ResourceNotFound" | "ConditionNotMet" | "BlobAlreadyExists",
  why: string,
  options: { readonly unverifiable?: boolean; readonly cause?: unknown } = {},
): TableKitError {
  return new TableKitError(code, `${describeStep(s)}: ${why}`, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    details: options.unverifiable ? { unverifiable: true } : { conflict: true },
  });
}
