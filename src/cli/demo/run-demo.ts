import type { Store } from "../../store/index.js";
import { resolveStoreUrl, usingStore } from "../options.js";
import { terminal } from "../output/terminal.js";
import { ARCHIVE_TABLE, archiveDemo, JOURNAL_TABLE } from "./archive.js";
import { auditsDemo } from "./audits.js";
import { blobLogDemo } from "./blob-log.js";
import { employeesDemo } from "./employees.js";
import { expensesDemo } from "./expenses.js";
import { ordersDemo } from "./orders.js";
import { postsDemo } from "./posts.js";

/** The tables the demo owns (and resets on every run). */
export const DEMO_TABLES = [
  "DemoEmployees",
  "DemoExpenses",
  "DemoPosts",
  "DemoAudits",
  "DemoOrders",
  ARCHIVE_TABLE,
  JOURNAL_TABLE,
] as const;

export async function runDemo(storeOption: string | undefined): Promise<void> {
  const opts = { store: storeOption };
  const out = terminal().out;
  const url = resolveStoreUrl(opts.store);
  await usingStore(url, async (store) => {
    await resetDemoTables(store);
    out.line(out.style.bold(`tablekit demo — writing sample data to ${store.url}`));
    await employeesDemo(store, out);
    await archiveDemo(store, out);
    await expensesDemo(store, out);
    await postsDemo(store, out);
    await auditsDemo(store, out);
    await ordersDemo(store, out);
    await blobLogDemo(store, out);
    if (!store.capabilities.persistent) {
      out.line(
        out.style.dim(`${store.url} keeps nothing once the demo ends: use a file: store to look around.`),
      );
      return;
    }
    out.line(out.style.bold("Look around:"));
    const at = opts.store === undefined ? "" : ` --store ${url}`;
    for (const hint of [
      `tablekit tables${at}`,
      `tablekit query DemoEmployees --partition Sales${at}`,
      `tablekit query DemoArchive${at}`,
      `tablekit query DemoExpenses --top 2 --select amount,description${at}`,
      `tablekit get DemoAudits Equipment_1 v0_Audit${at}`,
      "tablekit keys inverted-ticks 2010-05-28 2010-05-27 2009-04-21",
      `tablekit export DemoOrders --out orders.ndjson${at}`,
    ]) {
      out.line(`  ${out.style.dim("$")} ${hint}`);
    }
  });
}

async function resetDemoTables(store: Store): Promise<void> {
  // A missing table is no error (as in the SDK).
  for (const name of DEMO_TABLES) await store.deleteTable(name);
}
