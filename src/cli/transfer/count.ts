/** Counting a table's entities (for progress totals and copy's final check). */
import type { Table } from "../../store/index.js";

/** How many entities match `filter` (every entity without one), reading keys only. */
export async function countEntities(table: Table, filter?: string): Promise<number> {
  let count = 0;
  const queryOptions = { select: ["RowKey"], ...(filter === undefined ? {} : { filter }) };
  for await (const page of table.listEntities({ queryOptions }).byPage()) count += page.length;
  return count;
}
