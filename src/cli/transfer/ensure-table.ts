import { isTableKitError } from "../../model/index.js";
import type { Table, TransactionAction, UpdateMode } from "../../store/index.js";

/** Creates the table unless it exists (import and copy fill new tables as readily as old ones). */
export async function ensureTable(table: Table): Promise<void> {
  try {
    await table.createTable();
  } catch (error) {
    if (!isTableKitError(error, "TableAlreadyExists")) throw error;
  }
}

/** Upserts one partition's entities in one entity group transaction: all are written or none. */
export async function upsertBatch(
  table: Table,
  entities: readonly TransactionAction[1][],
  mode: UpdateMode,
): Promise<void> {
  await table.submitTransaction(entities.map((e): TransactionAction => ["upsert", e, mode]));
}
