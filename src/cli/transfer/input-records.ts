/**
 * The records of an import file, NDJSON or typed CSV, each with the lines it spans and the byte
 * offsets where it starts and ends (for resuming and for the progress bar). Parsing is deferred to
 * `parse()`, so a resumed import skips committed lines without parsing them.
 */
import { TableKitError } from "../../model/index.js";
import { CsvSyntaxError, readCsv } from "../formats/csv.js";
import { type CsvLayout, parseCsvHeader, parseCsvRow } from "../formats/csv-entity.js";
import { atLine, type EntityRow } from "../formats/entity-row.js";
import { readLines } from "../formats/lines.js";
import { parseNdjsonLine } from "../formats/read-input.js";

export const INPUT_FORMATS = ["ndjson", "csv"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export interface InputRecord {
  /** First and last line of the record (they differ only for CSV fields holding line breaks). */
  readonly line: number;
  readonly endLine: number;
  readonly offset: number;
  readonly endOffset: number;
  /** The entity, or a TableKitError naming the line. */
  parse(): EntityRow;
}

/** The format a file name suggests: `.csv` is CSV, anything else NDJSON. */
export function formatOfPath(path: string): InputFormat {
  return path.toLowerCase().endsWith(".csv") ? "csv" : "ndjson";
}

/** Every record of `source` in the given format. */
export async function* inputRecords(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  format: InputFormat,
): AsyncGenerator<InputRecord> {
  const lines = readLines(source);
  if (format === "ndjson") {
    for await (const { line, text, offset, endOffset } of lines) {
      if (text.trim() === "") continue;
      yield { line, endLine: line, offset, endOffset, parse: () => parseNdjsonLine(text, line) };
    }
    return;
  }
  let layout: CsvLayout | undefined;
  try {
    for await (const record of readCsv(lines)) {
      if (!layout) {
        try {
          layout = parseCsvHeader(record);
        } catch (err) {
          throw atLine(err, record.line);
        }
        continue;
      }
      const header = layout;
      yield {
        line: record.line,
        endLine: record.endLine,
        offset: record.offset,
        endOffset: record.endOffset,
        parse: () => {
          try {
            return parseCsvRow(record, header);
          } catch (err) {
            throw atLine(err, record.line);
          }
        },
      };
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) {
      throw new TableKitError("InvalidInput", `line ${err.line}: ${err.message}`, {
        details: { line: err.line, located: `line ${err.line}` },
      });
    }
    throw err;
  }
}
