/** How the demo prints: a heading per pattern, what it does, the keys it wrote, what it read. */
import type { Table } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { writeTextTable } from "../output/text-table.js";

/** A pattern's heading and a sentence or two on what it does. */
export function heading(out: Channel, title: string, seed: string, explanation: string): void {
  out.line();
  out.line(`${out.style.bold(out.style.cyan(`▍${title}`))} ${out.style.dim(`(${seed})`)}`);
  for (const line of explanation.split("\n")) out.line(`  ${line}`);
  out.line();
}

/** A read and what it returned, as a small table. */
export function readResult(
  out: Channel,
  what: string,
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): void {
  out.line(`  ${out.style.green("→")} ${what}`);
  indent(out, (o) => writeTextTable(o, headers, rows));
  out.line();
}

/** Every stored row of a table, in key order, with a note on what each row is. */
export async function storedKeys(
  out: Channel,
  table: Table,
  note: (partitionKey: string, rowKey: string) => string,
): Promise<void> {
  const rows: string[][] = [];
  for await (const e of table.listEntities({ queryOptions: { select: ["PartitionKey", "RowKey"] } })) {
    rows.push([e.partitionKey ?? "", e.rowKey ?? "", note(e.partitionKey ?? "", e.rowKey ?? "")]);
  }
  out.line(`  ${out.style.dim(`keys written to ${table.tableName}, in the order the table keeps them:`)}`);
  indent(out, (o) => writeTextTable(o, ["PartitionKey", "RowKey", "What"], rows));
  out.line();
}

/** Runs `write` with every line indented by two spaces. */
function indent(out: Channel, write: (out: Channel) => void): void {
  write({ ...out, line: (text = "") => out.line(`  ${text}`), write: (text) => out.write(text) });
}
