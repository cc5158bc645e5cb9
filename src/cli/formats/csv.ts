/**
 * RFC 4180 CSV, with one addition borrowed from PostgreSQL's COPY: an unquoted empty field is
 * "no value" and a quoted empty field (`""`) is the empty string, so absent properties and empty
 * strings stay distinct.
 */
import type { InputLine } from "./lines.js";

/** One field of a record, and whether it was quoted. */
export interface CsvField {
  readonly text: string;
  readonly quoted: boolean;
}

/** One record: its fields, the lines it spans, and the byte offset after its last line. */
export interface CsvRecord {
  readonly fields: CsvField[];
  readonly line: number;
  readonly endLine: number;
  readonly endOffset: number;
}

/** A field as CSV text: quoted when it must be, and always when it is the empty string. */
export function csvField(text: string | undefined): string {
  if (text === undefined) return "";
  if (text === "" || /[",\r\n]/.test(text) || text.trim() !== text) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** One CSV line (no line break). */
export function csvLine(fields: readonly (string | undefined)[]): string {
  return fields.map(csvField).join(",");
}

/** Thrown for malformed CSV; the caller adds the code and line. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * Records of CSV text given as lines; a quoted field may span lines (the record keeps the line
 * it started on). Blank lines between records are skipped.
 */
export async function* readCsv(lines: AsyncIterable<InputLine>): AsyncGenerator<CsvRecord> {
  let fields: CsvField[] = [];
  let text = "";
  let quoted = false;
  let inQuotes = false;
  let startLine = 0;
  let previousBreak = "";
  for await (const { line, text: input, lineBreak, endOffset } of lines) {
    if (!inQuotes) {
      if (input === "") continue;
      startLine = line;
      fields = [];
      text = "";
      quoted = false;
    } else {
      text += previousBreak;
    }
    previousBreak = lineBreak;
    for (let i = 0; i < input.length; i++) {
      const c = input[i];
      if (inQuotes) {
        if (c !== '"') text += c;
        else if (input[i + 1] === '"') {
          text += '"';
          i++;
        } else {
          inQuotes = false;
          const next = input[i + 1];
          if (next !== undefined && next !== ",") {
            throw new CsvSyntaxError(`unexpected ${JSON.stringify(next)} after a closing quote`, line);
          }
        }
      } else if (c === ",") {
        fields.push({ text, quoted });
        text = "";
        quoted = false;
      } else if (c === '"' && text === "" && !quoted) {
        inQuotes = true;
        quoted = true;
      } else if (c === '"') {
        throw new CsvSyntaxError(
          "a quote inside an unquoted field (quote the whole field and double it)",
          line,
        );
      } else {
        text += c;
      }
    }
    if (!inQuotes) {
      fields.push({ text, quoted });
      yield { fields, line: startLine, endLine: line, endOffset };
    }
  }
  if (inQuotes) throw new CsvSyntaxError("a quoted field is not closed", startLine);
}
