/** Splits a byte stream into numbered lines, tracking the byte offsets where each starts and ends. */
import { isUtf8 } from "node:buffer";
import { TableKitError } from "../../model/index.js";

/** One line of input: its 1-based number, its text, the break that ended it, its byte offsets. */
export interface InputLine {
  readonly line: number;
  readonly text: string;
  /** `\n`, `\r\n`, or "" for a last line without a break (CSV keeps it inside quoted fields). */
  readonly lineBreak: string;
  /** Byte offset where the line starts. */
  readonly offset: number;
  /** Byte offset after the line and its break. */
  readonly endOffset: number;
}

const BYTE_ORDER_MARK = "\uFEFF";

/**
 * Lines of a stream of bytes, `\n` or `\r\n` terminated (a last line without a break counts).
 * Splitting on the byte 0x0A is safe in UTF-8: it never occurs inside a multi-byte character.
 * A byte-order mark at the start (Excel's "CSV UTF-8" writes one) is dropped; a line that is not
 * valid UTF-8 is an InvalidInput error naming it, never text with U+FFFD in it.
 */
export async function* readLines(
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<InputLine> {
  let pending: Buffer[] = [];
  let offset = 0;
  let line = 0;
  const next = (bytes: Buffer, lineBreak: string): InputLine => {
    line++;
    let text = decode(bytes, line);
    if (line === 1 && text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1);
    const start = offset;
    offset += bytes.length + lineBreak.length;
    return { line, ...split(text, lineBreak), offset: start, endOffset: offset };
  };
  for await (const chunk of source) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      pending.push(buf.subarray(start, nl));
      start = nl + 1;
      yield next(pending.length === 1 ? pending[0]! : Buffer.concat(pending), "\n");
      pending = [];
    }
    if (start < buf.length) pending.push(buf.subarray(start));
  }
  const rest = Buffer.concat(pending);
  if (rest.length > 0) yield next(rest, "");
}

function decode(bytes: Buffer, line: number): string {
  if (!isUtf8(bytes)) {
    throw new TableKitError("InvalidInput", `line ${line}: not valid UTF-8`, {
      details: { line, located: `line ${line}` },
    });
  }
  return bytes.toString("utf8");
}

function split(s: string, lineBreak: string): { text: string; lineBreak: string } {
  return lineBreak === "\n" && s.endsWith("\r")
    ? { text: s.slice(0, -1), lineBreak: "\r\n" }
    : { text: s, lineBreak };
}
