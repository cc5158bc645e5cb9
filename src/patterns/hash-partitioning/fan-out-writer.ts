import {
  actionPayloadBytes,
  type Limits,
  maxActionPayloadBytes,
  type PayloadAction,
  TableKitError,
} from "../../model/index.js";
import type { Table, TransactionAction } from "../../store/index.js";
import { forEachConcurrently } from "../shared/support/concurrency.js";
import { type RetryPolicy, retryWhileBusy } from "../shared/support/retry.js";
import type { LogicalEntity } from "./hash-partitioned.js";

/** What a fanned-out write did. */
export interface FanOutResult {
  /** Entities written. */
  readonly entities: number;
  /** Entity group transactions sent (one per partition chunk). */
  readonly transactions: number;
  /** ServerBusy answers that were retried after a backoff. */
  readonly busy: number;
}

interface FanOutSettings {
  readonly mode: "create" | "upsert";
  readonly concurrency: number;
  readonly policy: RetryPolicy;
  readonly abortSignal?: AbortSignal;
}

/**
 * Groups entities (already carrying their stored PartitionKey) by partition, cuts each group into
 * transactions within the backend's limits (actions, and request payload bytes as the core counts
 * them), checks every entity before the first write, and sends the transactions with bounded
 * concurrency, retrying ServerBusy.
 */
export async function writeFannedOut(
  table: Table,
  limits: Limits,
  entities: readonly LogicalEntity[],
  settings: FanOutSettings,
): Promise<FanOutResult> {
  const chunks: { partitionKey: string; actions: TransactionAction[] }[] = [];
  const open = new Map<string, { actions: TransactionAction[]; bytes: number }>();
  const maxBytes = maxActionPayloadBytes(limits);
  for (const entity of entities) {
    const normalized = table.checkEntity(entity);
    const action: PayloadAction =
      settings.mode === "create"
        ? { kind: "create", entity: normalized }
        : { kind: "upsert", entity: normalized, mode: "Replace" };
    const size = actionPayloadBytes(table.tableName, action);
    let chunk = open.get(entity.partitionKey);
    if (!chunk || chunk.actions.length >= limits.maxTransactionOperations || chunk.bytes + size > maxBytes) {
      chunk = { actions: [], bytes: 0 };
      open.set(entity.partitionKey, chunk);
      chunks.push({ partitionKey: entity.partitionKey, actions: chunk.actions });
    }
    chunk.actions.push(
      settings.mode === "create" ? ["create", normalized] : ["upsert", normalized, "Replace"],
    );
    chunk.bytes += size;
  }
  let busy = 0;
  const call = settings.abortSignal ? { abortSignal: settings.abortSignal } : {};
  await forEachConcurrently(chunks, settings.concurrency, async ({ partitionKey, actions }) => {
    try {
      await retryWhileBusy(
        () => table.submitTransaction(actions, call),
        settings.policy,
        settings.abortSignal,
        () => busy++,
      );
    } catch (err) {
      if (!(err instanceof TableKitError)) throw err;
      throw new TableKitError(err.code, `Partition ${partitionKey}: ${err.message}`, {
        cause: err,
        ...(err.index === undefined ? {} : { index: err.index }),
        details: { ...err.details, partitionKey },
      });
    }
  });
  return { entities: entities.length, transactions: chunks.length, busy };
}
