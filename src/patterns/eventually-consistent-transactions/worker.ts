import { sleep, TableKitError } from "../../model/index.js";
import type { ReceivedMessageItem } from "../../store/index.js";
import { Delivery, type DeliveryHost } from "./delivery.js";
import { MessageLease } from "./lease.js";
import { decodeEnvelope, type Envelope } from "./message.js";
import type { PoisonReason } from "./poison-queue.js";
import { isStepConflict, isStepUnverifiable } from "./step-context.js";
import type { TransactionQueue } from "./transaction-queue.js";

/** Where a delivery is, as the `onBoundary` hook sees it. */
export interface BoundaryInfo {
  readonly transactionId: string;
  readonly messageId: string;
  readonly dequeueCount: number;
  /**
   * `step`: about to run step `step`;
   * `applied`: step `step` ran (wrote, or found its effect already there);
   * `completed`: every step is done and the completion recorded, the message not yet deleted.
   */
  readonly point: "step" | "applied" | "completed";
  readonly step: number;
  readonly steps: number;
}

export interface WorkerOptions {
  /**
   * Transactions carried out at once (1..256, default 32). The table writes their steps make in
   * the same moment go out as one entity group transaction per partition.
   */
  readonly concurrency?: number;
  /** Seconds a received message stays hidden; renewed every half of it while the worker holds it (default 30). */
  readonly visibilityTimeout?: number;
  /** Deliveries a transaction gets; one received more often goes to the poison queue (default 5). */
  readonly maxDequeueCount?: number;
  /** Seconds before a failed delivery is tried again: a number, or one per dequeue count (default 2^(n-1), at most 60). */
  readonly retryDelay?: number | ((dequeueCount: number) => number);
  /** Milliseconds to wait when the queue is empty (default 100, doubling to 2,000 while it stays empty). */
  readonly pollIntervalMs?: number;
  /**
   * Called at every step boundary of every delivery, and awaited: the deterministic seam for
   * fault injection (a test kills the process at chosen boundaries). Not for production logic.
   */
  readonly onBoundary?: (info: BoundaryInfo) => void | Promise<void>;
  /** Failures of the worker's own loop (a receive that failed); it keeps going after a pause. */
  readonly onError?: (err: unknown) => void;
}

/** What a worker has done since it was made. */
export interface WorkerStats {
  /** Messages received. */
  received: number;
  /** Transactions carried out to the end and deleted by this worker (duplicates included). */
  processed: number;
  /** Deliveries that found the transaction already completed or discarded (a redelivery or a duplicate). */
  duplicates: number;
  /** Deliveries that failed and were put back for another try. */
  retried: number;
  /** Transactions moved to the poison queue. */
  poisoned: number;
  /** Deliveries given back unfinished by `stop({ abandon: true })`, or whose lease another worker took. */
  abandoned: number;
  /** Visibility renewals. */
  extended: number;
  /** Steps that wrote, and steps that found their effect already there. */
  stepsApplied: number;
  stepsAlready: number;
  /** Failures of the receive loop. */
  errors: number;
}

/** Transactions a worker carries out at once unless told otherwise: a receive's worth, whose steps share transactions. */
export const DEFAULT_CONCURRENCY = 32;

function checkInt(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TableKitError("InvalidInput", `${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Carries out the transactions of a `TransactionQueue`: receives with a visibility timeout,
 * runs the steps the journal does not record as done, records progress, deletes the message.
 * At-least-once: a crash anywhere leaves the message to come back; idempotent steps and the
 * journal make every redelivery converge to the same state.
 */
export class TransactionWorker implements DeliveryHost {
  readonly stats: WorkerStats = {
    received: 0,
    processed: 0,
    duplicates: 0,
    retried: 0,
    poisoned: 0,
    abandoned: 0,
    extended: 0,
    stepsApplied: 0,
    stepsAlready: 0,
    errors: 0,
  };
  private readonly concurrency: number;
  private readonly visibility: number;
  private readonly maxDequeueCount: number;
  private readonly pollMs: number;
  private readonly inFlightSet = new Set<Promise<void>>();
  private readonly leases = new Set<MessageLease>();
  private loop: Promise<void> | undefined;
  private stopping = false;
  private looping = false;
  private halted = false;
  private abandoning = false;
  private wake = new AbortController();
  /** Settles when `stop()` wakes the receive loop. */
  private woken = Promise.resolve();

  constructor(
    private readonly transactions: TransactionQueue,
    private readonly options: WorkerOptions = {},
  ) {
    this.concurrency = checkInt("concurrency", options.concurrency ?? DEFAULT_CONCURRENCY, 1, 256);
    this.visibility = checkInt("visibilityTimeout", options.visibilityTimeout ?? 30, 1, 7 * 24 * 3600);
    this.maxDequeueCount = checkInt("maxDequeueCount", options.maxDequeueCount ?? 5, 1, 10_000);
    this.pollMs = checkInt("pollIntervalMs", options.pollIntervalMs ?? 100, 1, 60_000);
  }

  /** Deliveries being worked on now. */
  get inFlight(): number {
    return this.inFlightSet.size;
  }

  /** True while the receive loop runs: from `start()` until a `stop()` has ended it (no receive is outstanding after). */
  get receiving(): boolean {
    return this.looping;
  }

  /** Starts receiving (no-op when running). */
  start(): void {
    if (this.loop) return;
    this.wake = new AbortController();
    const signal = this.wake.signal;
    this.woken = new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    this.stopping = false;
    this.halted = false;
    this.abandoning = false;
    this.loop = this.run();
  }

  /**
   * Stops receiving, then waits for the deliveries in flight: each finishes, or with
   * `abandon: true` stops at its next step boundary and makes its message visible again at once.
   */
  async stop(options: { readonly abandon?: boolean } = {}): Promise<WorkerStats> {
    this.stopping = true;
    if (options.abandon) this.abandoning = true;
    this.wake.abort();
    await this.loop;
    while (this.inFlightSet.size > 0) await Promise.allSettled([...this.inFlightSet]);
    this.loop = undefined;
    return this.stats;
  }

  /**
   * Stops at once, as a crash would, without waiting: no more receives or renewals; deliveries in
   * flight stop at their next step boundary without deleting or releasing their messages, which
   * come back when their visibility timeout ends. For shutdown under a hard deadline, and tests.
   */
  halt(): void {
    this.halted = true;
    this.stopping = true;
    this.wake.abort();
    for (const lease of this.leases) lease.abandon();
  }

  /**
   * Runs until the queue is empty — no message left, visible or hidden, and nothing in flight —
   * then stops. `timeoutMs` (default 60 s) bounds the wait: OperationTimedOut after it.
   */
  async drain(options: { readonly timeoutMs?: number } = {}): Promise<WorkerStats> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    this.start();
    try {
      for (;;) {
        if (
          this.inFlight === 0 &&
          (await this.transactions.queue.getProperties()).approximateMessagesCount === 0
        ) {
          return await this.stop();
        }
        if (Date.now() > deadline) {
          throw new TableKitError("OperationTimedOut", "The transaction queue did not drain in time", {
            details: { timeoutMs: options.timeoutMs ?? 60_000 },
          });
        }
        await sleep(Math.min(this.pollMs * 2, 200));
      }
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopping) return;
    try {
      await sleep(ms, this.wake.signal);
    } catch {
      // woken by stop()
    }
  }

  private async run(): Promise<void> {
    const queue = this.transactions.queue;
    const perReceive = this.transactions.store.queueCapabilities?.limits.maxMessagesPerReceive ?? 32;
    this.looping = true;
    try {
      await this.receiveLoop(queue, perReceive, this.pollMs);
    } finally {
      this.looping = false;
    }
  }

  private async receiveLoop(
    queue: TransactionQueue["queue"],
    perReceive: number,
    idle: number,
  ): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.inFlightSet.size;
      if (free <= 0) {
        await Promise.race([...this.inFlightSet, this.woken]);
        continue;
      }
      let messages: ReceivedMessageItem[];
      try {
        ({ receivedMessageItems: messages } = await queue.receiveMessages({
          numberOfMessages: Math.min(free, perReceive),
          visibilityTimeout: this.visibility,
        }));
      } catch (err) {
        this.stats.errors++;
        this.options.onError?.(err);
        await this.pause(Math.min(idle * 4, 5000));
        continue;
      }
      if (messages.length === 0) {
        await this.pause(idle);
        idle = Math.min(idle * 2, 2000);
        continue;
      }
      idle = this.pollMs;
      for (const m of messages) {
        this.stats.received++;
        const delivery: Promise<void> = this.deliver(m).finally(() => this.inFlightSet.delete(delivery));
        this.inFlightSet.add(delivery);
      }
    }
  }

  private retryDelay(dequeueCount: number): number {
    const r = this.options.retryDelay;
    const seconds = typeof r === "function" ? r(dequeueCount) : (r ?? Math.min(60, 2 ** (dequeueCount - 1)));
    return Math.max(0, Math.min(Math.floor(seconds), 7 * 24 * 3600));
  }

  private async deliver(m: ReceivedMessageItem): Promise<void> {
    const tq = this.transactions;
    const lease = new MessageLease(tq.queue, m, this.visibility);
    this.leases.add(lease);
    if (this.halted) lease.abandon(); // received as the worker halted: as if never seen
    let delivery: Delivery | undefined;
    try {
      if (m.dequeueCount > this.maxDequeueCount) {
        await this.poison(lease, "dequeue-count", undefined);
        return;
      }
      let envelope: Envelope;
      try {
        envelope = decodeEnvelope(m.messageText, tq.store, tq.handlers);
      } catch (err) {
        await this.poison(lease, "malformed", err);
        return;
      }
      delivery = new Delivery(tq, this, lease, envelope);
      await delivery.run();
    } catch (err) {
      if (delivery && (isStepConflict(err) || isStepUnverifiable(err))) {
        await this.poison(lease, isStepConflict(err) ? "conflict" : "unverifiable", err, delivery);
        return;
      }
      if (lease.lost) {
        this.stats.abandoned++;
        return;
      }
      if (delivery) await this.recordFailure(delivery, err);
      this.stats.retried++;
      await lease.release(this.retryDelay(m.dequeueCount)).catch(() => {});
    } finally {
      this.stats.extended += lease.extensions;
      lease.stop();
      this.leases.delete(lease);
    }
  }

  /** The journal record of a failed delivery: its error, and the steps it knows done. */
  private async recordFailure(delivery: Delivery, err: unknown): Promise<void> {
    const journal = this.transactions.journal;
    const id = delivery.envelope.id;
    await journal.failed(id, err, {}).catch(() => {});
    if (delivery.reached > 0) await journal.progress(id, delivery.reached, {}).catch(() => {});
  }

  /** @internal A boundary of a delivery (the `onBoundary` hook). */
  boundary(info: BoundaryInfo): void | Promise<void> {
    return this.options.onBoundary?.(info);
  }

  /** @internal At a boundary: true (and the message handed back) when stopping with abandon, or the lease is lost. */
  async giveBack(lease: MessageLease): Promise<boolean> {
    if (lease.lost) {
      this.stats.abandoned++;
      return true;
    }
    if (!this.abandoning) return false;
    await lease.release(0);
    this.stats.abandoned++;
    return true;
  }

  private async poison(
    lease: MessageLease,
    reason: PoisonReason,
    err: unknown,
    delivery?: Delivery,
  ): Promise<void> {
    const m = lease.message;
    const journal = this.transactions.journal;
    if (delivery) {
      // The journal first: a parked transaction keeps a row, so the marks it made are kept for its replay.
      await this.recordFailure(delivery, err);
    }
    await this.transactions.poison.park({
      messageText: m.messageText,
      reason,
      error: err,
      dequeueCount: m.dequeueCount,
      ...(delivery ? { step: delivery.reached } : {}),
    });
    if (!delivery && reason === "dequeue-count") {
      const id = idOf(m.messageText);
      if (id !== undefined) await journal.keep(id, {}).catch(() => {});
    }
    if (await lease.delete()) this.stats.poisoned++;
    else this.stats.abandoned++;
  }
}

/** The id of a transaction message, when its text names one. */
function idOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
