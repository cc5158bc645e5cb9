/** Splits a byte stream into numbered lines, tracking how many bytes each line ends at. */

/** One line of input: its 1-based number, its text, the break that ended it, the byte offset after it. */
export interface InputLine {
  readonly line: number;
  readonly text: string;
  /** `\n`, `\r\n`, or "" for a last line without a break (CSV keeps it inside quoted fields). */
  readonly lineBreak: string;
  readonly endOffset: number;
}

/**
 * Lines of a stream of bytes, `\n` or `\r\n` terminated (a last line without a break counts).
 * Splitting on the byte 0x0A is safe in UTF-8: it never occurs inside a multi-byte character.
 */
export async function* readLines(
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<InputLine> {
  let pending: Buffer[] = [];
  let offset = 0;
  let line = 0;
  for await (const chunk of source) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      pending.push(buf.subarray(start, nl));
      offset += nl - start + 1;
      start = nl + 1;
      line++;
      yield { line, ...split(Buffer.concat(pending).toString("utf8"), "\n"), endOffset: offset };
      pending = [];
    }
    if (start < buf.length) pending.push(buf.subarray(start));
  }
  const rest = Buffer.concat(pending);
  if (rest.length > 0) {
    line++;
    yield { line, ...split(rest.toString("utf8"), ""), endOffset: offset + rest.length };
  }
}

function split(s: string, lineBreak: string): { text: string; lineBreak: string } {
  return lineBreak === "\n" && s.endsWith("\r")
    ? { text: s.slice(0, -1), lineBreak: "\r\n" }
    : { text: s, lineBreak };
}
