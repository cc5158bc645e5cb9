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

/** One record: its fields, the lines it spans, and the byte offsets where it starts and ends. */
export interface CsvRecord {
  readonly fields: CsvField[];
  readonly line: number;
  readonly endLine: number;
  readonly offset: number;
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

/** Thrown for malformed CSV, with the line its record starts on; the caller adds the code and line. */
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
 * it started on). Blank lines between records are skipped. An error names the line its record
 * starts on, as every other error of a record does: that is the line a resumed import starts at.
 */
export async function* readCsv(lines: AsyncIterable<InputLine>): AsyncGenerator<CsvRecord> {
  let fields: CsvField[] = [];
  let text = "";
  let quoted = false;
  let inQuotes = false;
  let startLine = 0;
  let startOffset = 0;
  let previousBreak = "";
  /** An error of the record being read: at its first line, saying where inside it when it spans several. */
  const syntaxError = (message: string, line: number) =>
    new CsvSyntaxError(line === startLine ? message : `${message} (found on line ${line})`, startLine);
  for await (const { line, text: input, lineBreak, offset, endOffset } of lines) {
    if (!inQuotes) {
      if (input === "") continue;
      startLine = line;
      startOffset = offset;
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
            throw syntaxError(`unexpected ${JSON.stringify(next)} after a closing quote`, line);
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
        throw syntaxError("a quote inside an unquoted field (quote the whole field and double it)", line);
      } else {
        text += c;
      }
    }
    if (!inQuotes) {
      fields.push({ text, quoted });
      yield { fields, line: startLine, endLine: line, offset: startOffset, endOffset };
    }
  }
  if (inQuotes) throw new CsvSyntaxError("a quoted field is not closed", startLine);
}
