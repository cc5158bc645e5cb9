/** `tablekit advise [TABLE]`: the key-design advisor over a table, or over models without data. */
import { type Command, InvalidArgumentError } from "commander";
import { type AdvisorReport, adviseModel, adviseTable } from "../../advisor/index.js";
import { writeAdvisorReport } from "../advise/advisor-report.js";
import { type AnyModel, loadModels } from "../advise/load-models.js";
import { jsonOption, outputOption, positiveInt, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";
import { EXIT_FAILED } from "../report.js";
import { progressWanted, startProgress } from "../transfer/progress.js";

interface AdviseOptions {
  store?: string;
  models?: string;
  maxEntities?: number;
  maxPerPartition?: number;
  hot?: number;
  output: string;
  progress?: boolean;
}

export function registerAdvise(program: Command): void {
  withStoreOption(
    program
      .command("advise")
      .description("report what in a table's keys (or a model's) goes against the key-design catalogue")
      .argument("[table]", "table to read (omit with --models: check the models without data)")
      .option("-m, --models <module>", "an ES module whose exported defineModel() models the table holds")
      .option(
        "--max-entities <n>",
        "read at most n entities: a sample of a large table (default 200000)",
        positiveInt(),
      )
      .option(
        "--max-per-partition <n>",
        "read at most n entities of each partition (default 20000)",
        positiveInt(),
      )
      .option(
        "--hot <writes>",
        "writes per second to one partition that make it hot (default 1000)",
        positiveInt(),
      )
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption())
      .option("--no-progress", "no progress bar")
      .addHelpText(
        "after",
        "\nExits with 1 when there is a finding, so CI can run it. docs/advisor.md lists every finding.\n\nExamples:\n  tablekit advise Orders\n  tablekit advise Employees --models ./dist/models.js --json\n  tablekit advise --models ./dist/models.js",
      ),
  ).action(async (tableName: string | undefined, opts: AdviseOptions) => {
    const models = opts.models ? await loadModels(opts.models) : [];
    if (tableName === undefined && models.length === 0) {
      throw new InvalidArgumentError("name a table, or give --models to check models without data");
    }
    const reports =
      tableName === undefined
        ? models.map((m) => adviseModel(m))
        : [
            await usingStore(opts.store, (store) => adviseWithProgress(store, tableName, models, opts), {
              readOnly: true,
            }),
          ];
    const out = terminal().out;
    if (opts.output === "json")
      out.line(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2));
    else for (const r of reports) writeAdvisorReport(out, r);
    if (reports.some((r) => r.findings.length > 0)) process.exitCode = EXIT_FAILED;
  });
}

async function adviseWithProgress(
  store: Parameters<typeof adviseTable>[0],
  tableName: string,
  models: readonly AnyModel[],
  opts: AdviseOptions,
): Promise<AdvisorReport> {
  const progress = startProgress({
    enabled: progressWanted(opts.progress),
    label: `advise ${tableName}`,
    unit: "entities",
  });
  try {
    return await adviseTable(store, tableName, {
      models,
      ...(opts.maxEntities ? { maxEntities: opts.maxEntities } : {}),
      ...(opts.maxPerPartition ? { maxPerPartition: opts.maxPerPartition } : {}),
      ...(opts.hot ? { hotWritesPerSecond: opts.hot } : {}),
      onProgress: (p) => progress.update(p.entities),
    });
  } finally {
    progress.stop();
  }
}
