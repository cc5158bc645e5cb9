import { isTableKitError } from "../../model/index.js";
import type { OperationOptions, Table } from "../../store/index.js";

/** Creates the table unless it exists already (TableAlreadyExists is success here). */
export async function ensureTable(table: Table, options?: OperationOptions): Promise<void> {
  try {
    await table.createTable(options);
  } catch (err) {
    if (!isTableKitError(err, "TableAlreadyExists")) throw err;
  }
}
