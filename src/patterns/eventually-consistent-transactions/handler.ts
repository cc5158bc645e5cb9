import type { Store } from "../../store/index.js";
import type { JsonValue } from "./steps.js";

/** What a handler step is given when a worker runs it. */
export interface HandlerContext {
  readonly store: Store;
  /** The transaction's id. */
  readonly transactionId: string;
  readonly abortSignal?: AbortSignal;
  /** What earlier deliveries of this step recorded with `remember` (empty on the first). */
  readonly remembered: readonly string[];
  /**
   * Records strings in the transaction's journal (one write) BEFORE the handler writes what they
   * name, so a redelivery after a crash knows everything an earlier delivery may have left behind.
   */
  remember(items: readonly string[]): Promise<void>;
}

/**
 * A step kind of your own, run by the worker for `step.call(kind, args)`. It must be idempotent
 * and should be order-independent: derive what to write from the current state (re-read after
 * writing, until it is stable), not from the state when the message was sent. The inter-partition
 * index, the index entities kept apart and cross-partition denormalization are handlers.
 */
export interface StepHandler<A extends JsonValue = JsonValue> {
  /** The name steps call it by; unique per transaction queue. */
  readonly kind: string;
  /** Checks a step's arguments when it is enqueued (throw InvalidInput); optional. */
  check?(args: JsonValue): void;
  run(context: HandlerContext, args: A): Promise<void>;
}
