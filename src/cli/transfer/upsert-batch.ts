import type { Table, TransactionAction, UpdateMode } from "../../store/index.js";

/** Upserts one partition's entities in one entity group transaction: all are written or none. */
export async function upsertBatch(
  table: Table,
  entities: readonly TransactionAction[1][],
  mode: UpdateMode,
): Promise<void> {
  await table.submitTransaction(entities.map((e): TransactionAction => ["upsert", e, mode]));
}
