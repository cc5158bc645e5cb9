import { isTableKitError } from "../../model/index.js";
import type { OperationOptions } from "../../store/index.js";
import { etagTicks } from "../shared/evidence/evidence.js";
import type { HandlerContext } from "./handler.js";
import { type JournalEntry, NO_ROW } from "./journal.js";
import type { MessageLease } from "./lease.js";
import type { Envelope } from "./message.js";
import { type StepResult, stepRefused } from "./step-context.js";
import { runStep } from "./step-runner.js";
import type { CheckedStep } from "./steps.js";
import type { TransactionQueue } from "./transaction-queue.js";
import type { BoundaryInfo, WorkerStats } from "./worker.js";

/** What a delivery needs of its worker. */
export interface DeliveryHost {
  readonly stats: WorkerStats;
  boundary(info: BoundaryInfo): void | Promise<void>;
  /** At a boundary: true (and the message handed back) when the worker stops with abandon, or the lease is lost. */
  giveBack(lease: MessageLease): Promise<boolean>;
}

/** A step's create, kept to undo it if it turns out to have created the entity a second time. */
interface Created {
  readonly index: number;
  readonly step: CheckedStep;
  readonly result: Required<StepResult>["created"];
}

/**
 * One delivery of a transaction: runs the steps its journal does not record as done (each step
 * decides from its target's evidence whether it ran before), records completion with a
 * compare-and-swap on the journal row, then deletes the message. `reached` is the index of the
 * first step not known done, for the record a failed delivery leaves.
 */
export class Delivery {
  reached = 0;
  private etag: string | undefined;

  constructor(
    private readonly tq: TransactionQueue,
    private readonly host: DeliveryHost,
    readonly lease: MessageLease,
    readonly envelope: Envelope,
  ) {}

  private at(point: BoundaryInfo["point"], step: number, steps: number) {
    const m = this.lease.message;
    return this.host.boundary({
      transactionId: this.envelope.id,
      messageId: m.messageId,
      dequeueCount: m.dequeueCount,
      point,
      step,
      steps,
    });
  }

  /** Carries the transaction out; false when it stopped at a boundary (message handed back or lost). */
  async run(): Promise<boolean> {
    const { tq, host, envelope } = this;
    const call: OperationOptions = {};
    // A fresh message's first delivery: no delivery, replay or later writer can have made a row yet.
    const first = envelope.fresh === true && this.lease.message.dequeueCount === 1;
    const entry = first ? NO_ROW : await tq.journal.read(envelope.id, call);
    this.etag = entry.etag;
    this.reached = entry.done;
    let total = entry.done;
    if (entry.completed || entry.discarded) {
      // Discarded: it must not run again (its marks may be gone); a copy that survived a discard
      // interrupted by a crash, or a duplicate send, ends here like a completed one's.
      host.stats.duplicates++;
    } else {
      const steps = await tq.load(envelope, call);
      total = steps.length;
      const created: Created[] = [];
      const journal = { deleted: entry.deleted, deleting: { ...entry.deleting } };
      const remembered: Record<string, readonly string[]> = { ...entry.remembered };
      const firstAttempt = this.lease.message.dequeueCount === 1 && entry.etag === undefined;
      for (let k = entry.done; k < steps.length; k++) {
        await this.at("step", k, steps.length);
        if (await host.giveBack(this.lease)) return false;
        const result = await runStep(steps[k]!, {
          store: tq.store,
          handlers: tq.handlers,
          call,
          handlerContext: (): HandlerContext => ({
            store: tq.store,
            transactionId: envelope.id,
            remembered: remembered[k] ?? [],
            remember: async (items) => {
              remembered[k] = [...new Set([...(remembered[k] ?? []), ...items])];
              this.etag = await tq.journal.remember(envelope.id, remembered, call);
            },
          }),
          ref: { journal: tq.journal.table.tableName, id: envelope.id, step: k },
          firstAttempt,
          journal,
          deletedNow: async () => {
            journal.deleted = (await tq.journal.read(envelope.id, call)).deleted;
            return journal.deleted;
          },
          recordDeleting: async (lineage) => {
            journal.deleting[String(k)] = lineage;
            this.etag =
              (await tq.journal.addEvidence(envelope.id, "deleting", k, lineage, call)) ?? this.etag;
          },
          writer: tq.writer,
          evidence: tq.evidence,
          finished: tq.finished,
        });
        if (result.outcome === "applied") host.stats.stepsApplied++;
        else host.stats.stepsAlready++;
        if (result.created) created.push({ index: k, step: steps[k]!, result: result.created });
        await this.at("applied", k, steps.length);
        if (await host.giveBack(this.lease)) return false;
        this.reached = k + 1;
      }
      await this.complete(steps.length, created, call);
    }
    await this.at("completed", total, total);
    if (!(await this.lease.delete())) {
      host.stats.abandoned++;
      return false;
    }
    host.stats.processed++;
    tq.finished.add(tq.journal.table.tableName, envelope.id);
    await tq.dropPayload(envelope, call);
    return true;
  }

  /**
   * Records completion unless the journal row changed since it was read: then a later writer may
   * have recorded that a step's earlier effect was deleted while this delivery created it again,
   * which this undoes before trying again.
   */
  private async complete(steps: number, created: readonly Created[], call: OperationOptions): Promise<void> {
    const { tq, envelope } = this;
    for (;;) {
      if (await tq.journal.complete(envelope.id, steps, this.etag, call)) return;
      const now: JournalEntry = await tq.journal.read(envelope.id, call);
      if (now.completed) return; // another delivery of it completed first
      for (const c of created) {
        const earlier = now.deleted[String(c.index)];
        const lineage = c.result.lineage ?? etagTicks(c.result.etag);
        if (earlier !== undefined && earlier !== lineage) await this.undo(c);
      }
      this.etag = now.etag;
    }
  }

  /** Deletes what a step created a second time (only the version it created). */
  private async undo(c: Created): Promise<void> {
    const s = c.step;
    try {
      if (s.kind === "putBlob") {
        await this.tq.store
          .container(s.container)
          .getBlobClient(s.name)
          .delete({ conditions: { ifMatch: c.result.etag } });
      } else if (s.kind === "insertIfAbsent" || s.kind === "upsert") {
        await this.tq.store
          .table(s.table)
          .deleteEntity(s.entity.partitionKey, s.entity.rowKey, { etag: c.result.etag });
      }
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound", "BlobNotFound")) return;
      if (isTableKitError(err, "UpdateConditionNotSatisfied", "ConditionNotMet"))
        throw stepRefused(
          s,
          "UpdateConditionNotSatisfied",
          "a redelivery created its target again after a later write deleted it, and it changed since",
          { unverifiable: true, cause: err },
        );
      throw err;
    }
  }
}
