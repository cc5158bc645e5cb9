/**
 * `tablekit demo`: builds a small, realistic data set through the patterns and shows what each
 * one does and the keys it wrote. Safe to run again: it deletes and rebuilds its own Demo* tables
 * and touches nothing else. The patterns load only when the demo runs (they are the CLI's heaviest import).
 */
import type { Command } from "commander";
import { withStoreOption } from "../options.js";

export function registerDemo(program: Command): void {
  withStoreOption(
    program
      .command("demo")
      .description("build a sample data set with the key-design patterns and show the keys each one writes")
      .addHelpText(
        "after",
        "\nRebuilds its own tables (DemoEmployees, DemoExpenses, DemoPosts, DemoAudits, DemoOrders) on each run.\n\nExamples:\n  tablekit demo\n  tablekit demo --store memory:",
      ),
  ).action(async (opts: { store?: string }) => {
    const { runDemo } = await import("../demo/run-demo.js");
    await runDemo(opts.store);
  });
}
