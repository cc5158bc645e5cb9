import { randomUUID } from "node:crypto";
import { isTableKitError, TableKitError, validateKey } from "../../model/index.js";
import type { OperationOptions, Queue, Store } from "../../store/index.js";
import { FinishedTransactions } from "../shared/evidence/evidence-upkeep.js";
import type { StepHandler } from "./handler.js";
import { type JournalEntry, TransactionJournal } from "./journal.js";
import { checkSteps, decodeSteps, type Envelope, encodeEnvelope, encodeSteps } from "./message.js";
import { PoisonQueue } from "./poison-queue.js";
import type { CheckedStep, TransactionStep } from "./steps.js";
import { foundVersion } from "./table-steps.js";
import { TransactionWorker, type WorkerOptions } from "./worker.js";
import { WriteBatcher } from "./write-batcher.js";

export interface TransactionQueueOptions {
  /** The queue transactions wait in (default `tablekit-transactions`). */
  readonly queue?: string;
  /** Where poisoned transactions go (default `<queue>-poison`). */
  readonly poisonQueue?: string;
  /** The table of progress records (default `tablekitjournal`); several queues may share it. */
  readonly journalTable?: string;
  /** The container holding the steps of messages too large for the queue (default `tablekit-transactions`). */
  readonly payloadContainer?: string;
  /** Handler steps this queue's transactions may call (indexes, copies kept in step). */
  readonly handlers?: readonly StepHandler<never>[];
  /**
   * @internal For the benchmark only (bench/transactions.bench.ts measures what evidence costs):
   * false runs table steps by the rules before evidence — not exact after later writers.
   */
  readonly evidence?: boolean;
}

export interface EnqueueOptions extends OperationOptions {
  /** The transaction's id (a valid PartitionKey; default a random UUID). Reusing one makes a duplicate. */
  readonly id?: string;
  /** Seconds before the first delivery (default 0). */
  readonly visibilityTimeout?: number;
}

export interface EnqueuedTransaction {
  readonly id: string;
  readonly messageId: string;
  readonly popReceipt: string;
  /** True when the steps went to a payload blob (the message was larger than the queue takes). */
  readonly offloaded: boolean;
}

/** A transaction sent hidden before the write it follows: `release` it after the write, `cancel` if the write failed. */
export interface PendingTransaction {
  readonly id: string;
  /** Makes it deliverable now; if a worker already took it, sends it again (the write may have landed after). */
  release(options?: OperationOptions): Promise<void>;
  /** Deletes it (nothing happened); a copy a worker already took runs anyway, harmlessly (handlers are idempotent). */
  cancel(options?: OperationOptions): Promise<void>;
}

/** What `status` reports of a transaction. */
export interface TransactionStatus extends Pick<JournalEntry, "done" | "completed" | "lastError"> {}

/** Bytes of headroom kept below the queue's limit, so a poison record wrapping a message still fits. */
export const POISON_RESERVE_BYTES = 2048;
/** Default seconds a `begin` transaction stays hidden if its writer never releases it. */
export const DEFAULT_HOLD_SECONDS = 30;

/**
 * The eventually consistent transactions pattern (seed 001): a multi-step change across
 * partitions, tables and blobs, sent as ONE queue message and carried out by workers with
 * idempotent steps, a progress journal, a poison queue and replay.
 *
 * @example
 * const transactions = new TransactionQueue(store, { queue: "archive" });
 * await transactions.ensure();
 * await transactions.enqueue([step.upsert("Archive", employee), step.deleteIfPresent("Current", "Sales", "000456")]);
 * const worker = transactions.worker({ concurrency: 4 });
 * worker.start();
 */
export class TransactionQueue {
  readonly queue: Queue;
  readonly poison: PoisonQueue;
  readonly journal: TransactionJournal;
  readonly payloadContainer: string;
  /** @internal */
  readonly handlers: ReadonlyMap<string, StepHandler>;
  /** @internal See TransactionQueueOptions.evidence. */
  readonly evidence: boolean;
  /** @internal Group commit of the step writes of every worker of this queue. */
  readonly writer: WriteBatcher;
  /** @internal Transactions this process saw complete: their marks may be dropped without asking the journal. */
  readonly finished = new FinishedTransactions();

  constructor(
    readonly store: Store,
    options: TransactionQueueOptions = {},
  ) {
    const name = options.queue ?? "tablekit-transactions";
    this.queue = store.queue(name);
    this.poison = new PoisonQueue(this, store.queue(options.poisonQueue ?? `${name}-poison`));
    this.journal = new TransactionJournal(store.table(options.journalTable ?? "tablekitjournal"));
    this.payloadContainer = options.payloadContainer ?? "tablekit-transactions";
    const handlers = new Map<string, StepHandler>();
    for (const h of options.handlers ?? []) {
      if (typeof h?.kind !== "string" || typeof h.run !== "function") {
        throw new TableKitError("InvalidInput", "A handler needs a kind and a run function");
      }
      if (handlers.has(h.kind))
        throw new TableKitError("InvalidInput", `Two handlers are named ${JSON.stringify(h.kind)}`);
      handlers.set(h.kind, h as unknown as StepHandler);
    }
    this.handlers = handlers;
    this.writer = new WriteBatcher(store);
    this.evidence = options.evidence !== false;
  }

  /** Creates the queue, the poison queue, the journal table and (with a blob port) the payload container. */
  async ensure(options?: OperationOptions): Promise<void> {
    await this.queue.create(options);
    await this.poison.queue.create(options);
    await this.journal.table.createTable(options);
    if (this.store.blobCapabilities)
      await this.store.container(this.payloadContainer).createIfNotExists(options);
  }

  /** Validates `steps` and sends them as one message (bad input: a typed error, nothing sent). */
  async enqueue(
    steps: readonly TransactionStep[],
    options: EnqueueOptions = {},
  ): Promise<EnqueuedTransaction> {
    const checked = checkSteps(steps, this.store, this.handlers);
    const fresh = options.id === undefined;
    const id = fresh ? randomUUID() : validateKey("PartitionKey", options.id, this.store.capabilities.limits);
    return this.send(id, await this.observed(checked, options), { ...options, fresh });
  }

  /**
   * Sends `steps` hidden for `holdSeconds`, to be released after the write they follow: the
   * "intent first" order, so a writer that crashes between its write and the release still has
   * its transaction delivered (after the hold), and one that releases too late has it sent again.
   */
  async begin(
    steps: readonly TransactionStep[],
    options: OperationOptions & { readonly holdSeconds?: number } = {},
  ): Promise<PendingTransaction> {
    const checked = checkSteps(steps, this.store, this.handlers);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    const observed = await this.observed(checked, call);
    const sent = await this.send(randomUUID(), observed, {
      ...call,
      visibilityTimeout: options.holdSeconds ?? DEFAULT_HOLD_SECONDS,
      fresh: true,
    });
    return {
      id: sent.id,
      release: async (more) => {
        try {
          await this.queue.updateMessage(sent.messageId, sent.popReceipt, undefined, 0, more);
        } catch (err) {
          if (!isTableKitError(err, "MessageNotFound", "PopReceiptMismatch")) throw err;
          // Delivered before the write landed: run it again (under a new id, as a new transaction).
          await this.send(randomUUID(), observed, { ...more, fresh: true });
        }
      },
      cancel: async (more) => {
        await this.queue.deleteMessage(sent.messageId, sent.popReceipt, more).catch((err) => {
          if (!isTableKitError(err, "MessageNotFound", "PopReceiptMismatch")) throw err;
        });
      },
    };
  }

  /** A worker of this queue (not started: call `start()`, or `drain()`). */
  worker(options: WorkerOptions = {}): TransactionWorker {
    return new TransactionWorker(this, options);
  }

  /** How far a transaction got (from its journal row; all zero when no delivery recorded anything). */
  async status(id: string, options: OperationOptions = {}): Promise<TransactionStatus> {
    const { done, completed, lastError } = await this.journal.read(id, options);
    return { done, completed, ...(lastError === undefined ? {} : { lastError }) };
  }

  /**
   * Removes what finished transactions leave behind once no copy of their message can come
   * back: journal rows of transactions completed (or discarded) before `olderThan` (default: 7 days ago, the
   * queue's default message lifetime) and payload blobs older than it whose transaction
   * completed or never started. Returns how many rows and blobs it removed.
   */
  async prune(
    options: OperationOptions & { readonly olderThan?: Date } = {},
  ): Promise<{ journal: number; payloads: number }> {
    const before = options.olderThan ?? new Date(Date.now() - 7 * 24 * 3600 * 1000);
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    let payloads = 0;
    if (this.store.blobCapabilities) {
      const container = this.store.container(this.payloadContainer);
      for await (const blob of container.listBlobsFlat({ ...call, prefix: `${this.queue.name}/` })) {
        if (blob.properties.lastModified >= before) continue;
        const id = blob.name.slice(this.queue.name.length + 1).replace(/\.json$/, "");
        const entry = await this.journal.read(id, call);
        const unfinished = !entry.completed && !entry.discarded && entry.etag !== undefined;
        if (unfinished) continue; // a parked transaction keeps its row and may still be replayed
        if ((await container.getBlobClient(blob.name).deleteIfExists(call)).succeeded) payloads++;
      }
    }
    let journal = 0;
    const ids: string[] = [];
    for await (const row of this.journal.completedBefore(before, call)) ids.push(row.partitionKey!);
    for (const id of ids) {
      await this.journal.delete(id, call);
      journal++;
    }
    return { journal, payloads };
  }

  /**
   * The steps with what each ETag-guarded delete's version holds (CheckedStep.found), read once
   * before the message is sent: the evidence a redelivery needs to tell whether the delete ran.
   */
  private async observed(steps: readonly CheckedStep[], options: OperationOptions): Promise<CheckedStep[]> {
    if (!this.evidence) return [...steps];
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    return Promise.all(
      steps.map(async (s) =>
        s.kind === "deleteIfPresent" && s.etag !== undefined
          ? { ...s, found: await foundVersion(this.store, s, call) }
          : s,
      ),
    );
  }

  /** @internal The message of a transaction: inline, or a pointer to a payload blob when too large. */
  async send(
    id: string,
    steps: readonly CheckedStep[],
    options: EnqueueOptions & { readonly fresh?: boolean },
  ): Promise<EnqueuedTransaction> {
    const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
    // Only where a send cannot leave a second copy: a copy's first delivery would skip the journal
    // row the first copy's run wrote (Delivery.run).
    const fresh = options.fresh === true && this.store.queueCapabilities?.sendsOnce === true;
    const sendOptions = {
      ...call,
      ...(options.visibilityTimeout === undefined ? {} : { visibilityTimeout: options.visibilityTimeout }),
    };
    let text = encodeEnvelope({ id, fresh, steps });
    const limit = this.inlineLimit();
    let offloaded = false;
    if (text.length > limit) {
      if (!this.store.blobCapabilities) {
        throw new TableKitError(
          "RequestBodyTooLarge",
          `The transaction's message is ${text.length} bytes; the queue takes ${limit} and the store has no blob port to hold larger ones`,
          { details: { size: text.length, limit } },
        );
      }
      const payload = { container: this.payloadContainer, name: `${this.queue.name}/${id}.json` };
      const body = encodeSteps(steps);
      await this.store
        .container(payload.container)
        .getBlockBlobClient(payload.name)
        .upload(body, body.length, { ...call, blobHTTPHeaders: { blobContentType: "application/json" } });
      text = encodeEnvelope({ id, fresh, payload });
      offloaded = true;
    }
    const sent = await this.queue.sendMessage(text, sendOptions);
    return { id, messageId: sent.messageId, popReceipt: sent.popReceipt, offloaded };
  }

  /** Largest inline message: the queue's limit less the poison record's headroom. */
  inlineLimit(): number {
    const limits = this.store.queueCapabilities?.limits;
    if (!limits) throw new TableKitError("NotSupported", `The store ${this.store.url} has no queue port`);
    return limits.maxMessageBytes - POISON_RESERVE_BYTES;
  }

  /** @internal The steps of a message (reading its payload blob when it has one). */
  async load(envelope: Envelope, call: OperationOptions): Promise<readonly CheckedStep[]> {
    if (envelope.steps) return envelope.steps;
    const { container, name } = envelope.payload!;
    const bytes = await this.store
      .container(container)
      .getBlobClient(name)
      .downloadToBuffer(undefined, undefined, call);
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString("utf8"));
    } catch (err) {
      throw new TableKitError("InvalidInput", "Malformed transaction payload: not JSON", { cause: err });
    }
    return decodeSteps(json, this.store, this.handlers);
  }

  /** @internal Deletes a transaction's payload blob, if it has one. */
  async dropPayload(envelope: Envelope, call: OperationOptions): Promise<void> {
    if (!envelope.payload) return;
    await this.store
      .container(envelope.payload.container)
      .getBlobClient(envelope.payload.name)
      .deleteIfExists(call);
  }
}
