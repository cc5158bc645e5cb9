/** The advisor's report for people: one block per finding, coloured on a terminal. */
import type { AdvisorFinding, AdvisorReport } from "../../advisor/index.js";
import { type Channel, stripAnsi } from "../output/terminal.js";

/** Writes a report: what was read, then each finding with its examples, pattern and page. */
export function writeAdvisorReport(out: Channel, report: AdvisorReport): void {
  const { style } = out;
  const read = report.read;
  const what =
    report.source === "model"
      ? `model ${report.subject} (static checks, no data)`
      : `table ${report.subject}: ${count(read!.entities, "entity", "entities")} in ${count(read!.partitions, "partition", "partitions")}${coverage(report)}`;
  out.line(style.bold(`advise ${what}`));
  for (const f of report.findings) writeFinding(out, f);
  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  out.line();
  out.line(
    report.findings.length === 0
      ? style.green("no findings: the keys follow the catalogue")
      : `${style.bold(String(report.findings.length))} finding${report.findings.length === 1 ? "" : "s"}: ${style.red(`${errors} error${errors === 1 ? "" : "s"}`)}, ${style.yellow(`${warnings} warning${warnings === 1 ? "" : "s"}`)}`,
  );
}

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function coverage(report: AdvisorReport): string {
  const read = report.read!;
  const parts: string[] = [];
  if (read.partialPartitions > 0) parts.push(`${read.partialPartitions} read in part`);
  if (!read.complete) parts.push("stopped at the entity limit: a sample");
  return parts.length === 0 ? " (all of it)" : ` (${parts.join("; ")})`;
}

function writeFinding(out: Channel, f: AdvisorFinding): void {
  const { style } = out;
  const label = f.severity === "error" ? style.red(style.bold("error")) : style.yellow(style.bold("warning"));
  out.line();
  out.line(`${label} ${style.bold(f.id)}  ${f.subject}: ${f.title}`);
  out.line(`  ${f.message}`);
  if (f.examples.length > 0) {
    out.line(`  ${style.dim("examples:")}`);
    for (const e of f.examples) out.line(`    ${e}`);
  }
  out.line(`  ${style.cyan("fix:")} ${f.pattern} ${style.dim(`(docs/${f.docs})`)}`);
  out.line(`  ${wrap(f.advice, 96, "  ")}`);
}

/** Wraps text to `width` columns, continuing lines with `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && stripAnsi(line).length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join(`\n${indent}`);
}
