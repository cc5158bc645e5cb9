/** Seed 003: sequential order numbers under optimistic concurrency, without gaps or duplicates. */
import { GaplessSequence, sequentialIdKey } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { heading, readResult, storedKeys } from "./show.js";

const CUSTOMERS = ["Contoso", "Fabrikam", "Northwind", "Tailspin", "Woodgrove"];

export async function ordersDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Sequential ids: order numbers",
    "seed 003",
    'A counter entity in the partition holds the last order number. Each order is inserted together\nwith a conditional update of the counter (If-Match on the ETag it read) in one transaction, so\nwriters racing for a number retry instead of sharing it: no duplicates, no gaps. Keys are padded\nlike the article\'s ToString("0000000000").',
  );
  await store.createTable("DemoOrders");
  const table = store.table("DemoOrders");
  const sequence = new GaplessSequence(table, { counterRowKey: "~counter", valueType: "Int32" });
  const ids = sequentialIdKey();
  // Five customers order at the same moment: the sequence hands out 1..5, each exactly once.
  const placed = await Promise.all(
    CUSTOMERS.map((customer) =>
      sequence.insert("2026", (id) => ({
        partitionKey: "2026",
        rowKey: ids.encode(id),
        customer,
        orderNumber: id,
      })),
    ),
  );
  await storedKeys(out, table, (_, rk) =>
    rk === "~counter" ? `counter (Value = ${placed.length})` : `order ${ids.decode(rk)}`,
  );
  const retries = placed.reduce((n, p) => n + p.attempts - 1, 0);
  const rows: string[][] = [];
  const filter = "PartitionKey eq '2026' and RowKey lt '~'";
  for await (const order of table.listEntities({ queryOptions: { filter } })) {
    rows.push([String(order.orderNumber), String(order.customer)]);
  }
  readResult(
    out,
    `five orders placed at once got numbers 1 to ${placed.length}, each once (${retries} lost races were retried)`,
    ["Order", "Customer"],
    rows,
  );
}
