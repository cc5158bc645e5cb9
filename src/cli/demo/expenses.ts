/** Seeds 000 and 002, "log tail": expense claims read newest first with one short query. */
import { DateTime } from "../../model/index.js";
import { defineLog, field } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import { doubleText } from "../formats/value-text.js";
import type { Channel } from "../output/terminal.js";
import { heading, readResult, storedKeys } from "./show.js";

export const ExpenseClaims = defineLog({
  table: "DemoExpenses",
  fields: { employee: field.string(), amount: field.double(), description: field.string() },
  partitionKey: (k) => k.field("employee"),
  // A fixed node id keeps the demo's keys the same from run to run.
  node: "demo",
});

const CLAIMS = [
  { at: "2026-03-02T09:15:00Z", amount: 42.5, description: "taxi to client" },
  { at: "2026-03-05T12:30:00Z", amount: 18, description: "lunch" },
  { at: "2026-03-09T08:00:00Z", amount: 320, description: "train tickets" },
  { at: "2026-03-09T08:00:00Z", amount: 95.2, description: "hotel deposit (same instant)" },
  { at: "2026-03-12T17:45:00Z", amount: 12.75, description: "parking" },
];

export async function expensesDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Log tail: expense claims, newest first",
    "seeds 000, 002",
    "Each claim's RowKey is DateTime.MaxValue.Ticks - ticks (19 digits) plus a uniqueness suffix, so\nthe newest claim sorts first and two claims made in the same instant never collide. The three\nnewest claims are the first three rows of the partition: one query, however long the log grows.",
  );
  await store.createTable("DemoExpenses");
  const claims = ExpenseClaims.on(store);
  for (const c of CLAIMS) {
    await claims.append(
      { employee: "000223", amount: c.amount, description: c.description },
      { at: DateTime.parse(c.at) },
    );
  }
  await storedKeys(out, claims.table, (_, rk) => `claim of ${ExpenseClaims.instantOf(rk).toISOString()}`);
  const newest = await claims.newest({ employee: "000223" }, 3);
  readResult(
    out,
    "newest 3 claims of employee 000223 (the first 3 rows: no sort, no scan)",
    ["When", "Amount", "Description"],
    newest.map((e) => [e.at.toISOString(), doubleText(e.amount), e.description]),
  );
}
