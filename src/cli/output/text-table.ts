/** Plain-text tables for people: aligned columns, long cells cut with an ellipsis. */
import { type Channel, stripAnsi } from "./terminal.js";

export interface TextTableOptions {
  /** Cut cells longer than this many characters. Default 60. */
  readonly maxCellWidth?: number;
}

/** Makes a value printable on one line: control characters shown as escapes. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
    c === "\n"
      ? "\\n"
      : c === "\t"
        ? "\\t"
        : c === "\r"
          ? "\\r"
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

function width(text: string): number {
  return [...stripAnsi(text)].length;
}

/** Writes `rows` under `headers` as an aligned table. */
export function writeTextTable(
  out: Channel,
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: TextTableOptions = {},
): void {
  const max = options.maxCellWidth ?? 60;
  const cells = rows.map((r) => headers.map((_, i) => cut(printable(r[i] ?? ""), max)));
  const widths = headers.map((h, i) => Math.max(width(h), ...cells.map((r) => width(r[i]!))));
  const pad = (s: string, i: number) => s + " ".repeat(widths[i]! - width(s));
  const line = (r: readonly string[]) => r.map(pad).join("  ").trimEnd();
  out.line(out.style.bold(line(headers)));
  out.line(out.style.dim(widths.map((w) => "─".repeat(w)).join("  ")));
  for (const r of cells) out.line(line(r));
}
