/** Reading entities a user hands to `put`: one JSON object, a JSON array, or NDJSON. */
import { createReadStream } from "node:fs";
import { fileError } from "../../model/file-error.js";
import { TableKitError } from "../../model/index.js";
import { atLine, type EntityRow, located } from "./entity-row.js";
import { readLines } from "./lines.js";
import { decodeTypedJson } from "./typed-json.js";

/** A stream of the file's bytes, or of stdin for `-`; a file that cannot be read is FileNotAccessible. */
export function openInput(path: string): AsyncIterable<Buffer> {
  return path === "-" ? process.stdin : readFile(path);
}

async function* readFile(path: string): AsyncGenerator<Buffer> {
  try {
    yield* createReadStream(path);
  } catch (err) {
    throw fileError(err, "read", path);
  }
}

/** An entity read from input, with where it was (`line 3`, `item 0`) for messages. */
export interface InputEntity {
  readonly row: EntityRow;
  readonly where: string;
}

/**
 * Every entity of a JSON document (an object or an array of objects) or of NDJSON (one object a
 * line, blank lines skipped). Errors name the array item or the line.
 */
export async function readEntities(source: AsyncIterable<Buffer>): Promise<InputEntity[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  // Through readLines: a byte-order mark dropped, invalid UTF-8 refused with its line number.
  const lines: string[] = [];
  for await (const { text, lineBreak } of readLines([Buffer.concat(chunks)])) lines.push(text + lineBreak);
  const text = lines.join("");
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    return readNdjsonText(text);
  }
  if (Array.isArray(whole)) {
    return whole.map((item, i) => {
      try {
        return { row: decodeTypedJson(item), where: `item ${i}` };
      } catch (err) {
        throw located(err, `item ${i}`, { index: i });
      }
    });
  }
  try {
    return [{ row: decodeTypedJson(whole), where: "the entity" }];
  } catch (err) {
    throw atLine(err, 1);
  }
}

async function readNdjsonText(text: string): Promise<InputEntity[]> {
  const rows: InputEntity[] = [];
  for await (const { line, text: lineText } of readLines([text])) {
    if (lineText.trim() === "") continue;
    rows.push({ row: parseNdjsonLine(lineText, line), where: `line ${line}` });
  }
  return rows;
}

/** One NDJSON line as a row; errors carry the line number. */
export function parseNdjsonLine(text: string, line: number): EntityRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new TableKitError("InvalidInput", `line ${line}: not valid JSON (${(cause as Error).message})`, {
      cause,
      details: { line, located: `line ${line}` },
    });
  }
  try {
    return decodeTypedJson(value);
  } catch (err) {
    throw atLine(err, line);
  }
}
