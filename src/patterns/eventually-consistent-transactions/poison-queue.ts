import { TableKitError } from "../../model/index.js";
import type { OperationOptions, Queue, ReceivedMessageItem } from "../../store/index.js";
import { errorText } from "./journal.js";
import { decodeEnvelope } from "./message.js";
import type { CheckedStep } from "./steps.js";
import type { TransactionQueue } from "./transaction-queue.js";
import { asciiJson } from "./typed-json.js";

/**
 * Why a transaction was parked: too many deliveries, a step conflict, a step whose outcome cannot
 * be told (a write outside tablekit erased its evidence), or a message that is not a transaction.
 */
export type PoisonReason = "dequeue-count" | "conflict" | "unverifiable" | "malformed";

const POISON_FORMAT = "tx-poison/1";

/** A parked transaction, as `list` shows it. */
export interface PoisonedTransaction {
  /** The transaction's id (undefined for a malformed message). */
  readonly id: string | undefined;
  readonly reason: PoisonReason;
  /** The failure that parked it (`code: message`), when there was one. */
  readonly error?: string;
  /** Deliveries the message had when it was parked. */
  readonly dequeueCount: number;
  /**
   * For a step refused ("conflict", "unverifiable") or failing: its index. Every step before it
   * was applied; it and those after were not, or (unverifiable) it may have been.
   */
  readonly step?: number;
  readonly poisonedAt: Date;
  /** The original message text. */
  readonly messageText: string;
}

interface PoisonRecord {
  readonly tablekit: typeof POISON_FORMAT;
  readonly reason: PoisonReason;
  readonly error?: string;
  readonly dequeueCount: number;
  readonly step?: number;
  readonly poisonedAt: string;
  /** The original message: its JSON when it parses, else its text (cut to fit). */
  readonly message: unknown;
}

/** Original text kept of a malformed message (it may be up to the queue's limit itself). */
const MAX_MALFORMED_TEXT = 16 * 1024;

/**
 * The poison queue of a transaction queue: transactions a worker gave up on, with the reason and
 * the last error, to list, inspect, replay (after a fix) or discard. Poisoned messages never expire.
 */
export class PoisonQueue {
  constructor(
    private readonly transactions: TransactionQueue,
    readonly queue: Queue,
  ) {}

  /** @internal Parks a message (the worker deletes the original after). */
  async park(record: {
    messageText: string;
    reason: PoisonReason;
    error: unknown;
    dequeueCount: number;
    step?: number;
  }): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(record.messageText);
    } catch {
      message = record.messageText.slice(0, MAX_MALFORMED_TEXT);
    }
    const poison: PoisonRecord = {
      tablekit: POISON_FORMAT,
      reason: record.reason,
      ...(record.error === undefined ? {} : { error: errorText(record.error) }),
      dequeueCount: record.dequeueCount,
      ...(record.step === undefined ? {} : { step: record.step }),
      poisonedAt: new Date().toISOString(),
      message,
    };
    let text = asciiJson(poison);
    const limit = this.transactions.store.queueCapabilities!.limits.maxMessageBytes;
    // Only a foreign message can be this large (tablekit's keep POISON_RESERVE_BYTES of headroom).
    if (text.length > limit) text = asciiJson({ ...poison, message: "(too large to keep)" });
    await this.queue.sendMessage(text, { messageTimeToLive: -1 });
  }

  /**
   * Every parked transaction (up to `max`, default 1,000). The poison queue is read by receiving
   * each message and making it visible again at once, so a concurrent `replay` may miss what a
   * `list` holds at that moment.
   */
  async list(options: OperationOptions & { readonly max?: number } = {}): Promise<PoisonedTransaction[]> {
    const out: PoisonedTransaction[] = [];
    await this.sweep(options, options.max ?? 1000, (item) => {
      out.push(item);
      return "keep";
    });
    return out;
  }

  /** The steps of a parked transaction (reading its payload blob if it has one). */
  async steps(item: PoisonedTransaction, options: OperationOptions = {}): Promise<readonly CheckedStep[]> {
    const tq = this.transactions;
    return tq.load(decodeEnvelope(item.messageText, tq.store, tq.handlers), options);
  }

  /**
   * Sends parked transactions back to the queue (all, or those whose id is in `ids`) and removes
   * them from the poison queue. A replayed transaction keeps its id, so its journal still records
   * the steps done: the worker continues after them. With `assumeApplied`, the step that parked it
   * ("conflict", "unverifiable") is recorded as done first: for a step you have found applied, or
   * applied or made moot by hand. A transaction whose journal records it discarded is removed, not
   * sent (a discard a crash interrupted). Returns how many were replayed.
   */
  async replay(
    options: OperationOptions & { readonly ids?: readonly string[]; readonly assumeApplied?: boolean } = {},
  ): Promise<number> {
    const wanted = options.ids ? new Set(options.ids) : undefined;
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    let replayed = 0;
    await this.sweep(options, Number.POSITIVE_INFINITY, async (item) => {
      if (wanted && (item.id === undefined || !wanted.has(item.id))) return "keep";
      // A discard interrupted between its journal record and this message's removal: finish it.
      if (item.id !== undefined && (await this.transactions.journal.read(item.id, call)).discarded)
        return "remove";
      const refused = item.reason === "conflict" || item.reason === "unverifiable";
      if (options.assumeApplied && refused && item.id !== undefined && item.step !== undefined)
        await this.transactions.journal.progress(item.id, item.step + 1, call);
      await this.transactions.queue.sendMessage(withoutFresh(item.messageText), call);
      replayed++;
      return "remove";
    });
    return replayed;
  }

  /**
   * Deletes parked transactions (all, or those whose id is in `ids`) for good, recording in their
   * journal rows that they will not run (the evidence their steps left may then go). Returns how many.
   */
  async discard(options: OperationOptions & { readonly ids?: readonly string[] } = {}): Promise<number> {
    const wanted = options.ids ? new Set(options.ids) : undefined;
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    return this.sweep(options, Number.POSITIVE_INFINITY, async (item) => {
      if (wanted && (item.id === undefined || !wanted.has(item.id))) return "keep";
      // It will not run again: the marks its steps left may go, as a completed transaction's.
      if (item.id !== undefined) await this.transactions.journal.discard(item.id, call);
      return "remove";
    });
  }

  /**
   * Receives every poison message once (each stays hidden until the sweep ends), lets `visit`
   * decide, deletes the removed ones and makes the kept ones visible again. Returns the removed count.
   */
  private async sweep(
    options: OperationOptions,
    max: number,
    visit: (item: PoisonedTransaction) => "keep" | "remove" | Promise<"keep" | "remove">,
  ): Promise<number> {
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    const held: ReceivedMessageItem[] = [];
    let removed = 0;
    let seen = 0;
    try {
      while (seen < max) {
        const { receivedMessageItems } = await this.queue.receiveMessages({
          ...call,
          numberOfMessages: Math.min(32, max - seen),
          visibilityTimeout: 300,
        });
        if (receivedMessageItems.length === 0) break;
        for (const m of receivedMessageItems) {
          seen++;
          if ((await visit(decodePoison(m))) === "remove") {
            await this.queue.deleteMessage(m.messageId, m.popReceipt, call);
            removed++;
          } else held.push(m);
        }
      }
    } finally {
      for (const m of held)
        await this.queue.updateMessage(m.messageId, m.popReceipt, undefined, 0).catch(() => {});
    }
    return removed;
  }
}

function decodePoison(m: ReceivedMessageItem): PoisonedTransaction {
  let record: PoisonRecord;
  try {
    record = JSON.parse(m.messageText) as PoisonRecord;
  } catch (err) {
    throw new TableKitError("InvalidInput", "The poison queue holds a message that is not a poison record", {
      cause: err,
    });
  }
  const message = record.message;
  const id =
    typeof message === "object" && message !== null && typeof (message as { id?: unknown }).id === "string"
      ? (message as { id: string }).id
      : undefined;
  return {
    id,
    reason: record.reason,
    ...(record.error === undefined ? {} : { error: record.error }),
    dequeueCount: record.dequeueCount,
    ...(typeof record.step === "number" ? { step: record.step } : {}),
    poisonedAt: new Date(record.poisonedAt),
    messageText: typeof message === "string" ? message : asciiJson(message),
  };
}

/** A message sent again: its journal row may exist now, so its first delivery must read it (Envelope.fresh). */
function withoutFresh(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text; // not JSON: it parks again as malformed
  }
  if (typeof json !== "object" || json === null || !("fresh" in json)) return text;
  const { fresh: _fresh, ...rest } = json as Record<string, unknown>;
  return asciiJson(rest);
}
