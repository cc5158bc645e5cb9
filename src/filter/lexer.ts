import { excerpt, filterError } from "./errors.js";
import { type LiteralPrefix, literalPrefix } from "./literals.js";

/**
 * Splits `$filter` text into tokens. Keywords (`and or not eq ne gt ge lt le true false null`)
 * are case-sensitive, as the service's are; literal prefixes (`datetime'…'`, `guid'…'`,
 * `binary'…'`, `X'…'`) are not, as in WCF Data Services' lexer the service inherits.
 */

export type Token =
  | { readonly kind: "open" | "close" | "end"; readonly start: number; readonly end: number }
  | { readonly kind: "word"; readonly start: number; readonly end: number; readonly text: string }
  | { readonly kind: "number"; readonly start: number; readonly end: number; readonly text: string }
  | { readonly kind: "string"; readonly start: number; readonly end: number; readonly value: string }
  | {
      readonly kind: "prefixed";
      readonly start: number;
      readonly end: number;
      readonly type: LiteralPrefix;
      readonly content: string;
    };

const WORD = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*/uy;
const NUMBER = /-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?[lLdDmMfF]?/y;
const NUMBER_FOLLOWER = /[\p{L}\p{Nd}_.]/u;
const SPACE = /\s/;

/**
 * Reads tokens one at a time, so that the first problem in the text is the one reported: a bad
 * character after a syntax error is never reached.
 */
export class Lexer {
  private i = 0;

  constructor(private readonly text: string) {}

  /** The next token; an `end` token at the end of the text (and ever after). */
  next(): Token {
    const text = this.text;
    while (this.i < text.length && SPACE.test(text[this.i]!)) this.i++;
    const i = this.i;
    if (i >= text.length) return { kind: "end", start: text.length, end: text.length };
    const c = text[i]!;
    let token: Token;
    if (c === "(" || c === ")") {
      token = { kind: c === "(" ? "open" : "close", start: i, end: i + 1 };
    } else if (c === "'") {
      const { value, end } = readQuoted(text, i);
      token = { kind: "string", start: i, end, value };
    } else if ((c >= "0" && c <= "9") || (c === "-" && /[0-9]/.test(text[i + 1] ?? ""))) {
      token = readNumberToken(text, i);
    } else if (text.startsWith("-INF", i) && !NUMBER_FOLLOWER.test(text[i + 4] ?? "")) {
      token = { kind: "number", start: i, end: i + 4, text: "-INF" };
    } else {
      token = readWord(text, i);
    }
    this.i = token.end;
    return token;
  }
}

function readWord(text: string, start: number): Token {
  WORD.lastIndex = start;
  const m = WORD.exec(text);
  if (!m) throw filterError(`Unexpected character '${text[start]}'${suggestion(text, start)}`, text, start);
  const word = m[0];
  const end = start + word.length;
  const type = text[end] === "'" ? literalPrefix(word) : undefined;
  if (type) {
    const quoted = readQuoted(text, end);
    return { kind: "prefixed", start, end: quoted.end, type, content: quoted.value };
  }
  if (word === "NaN" || word === "INF") return { kind: "number", start, end, text: word };
  return { kind: "word", start, end, text: word };
}

function readNumberToken(text: string, start: number): Token {
  NUMBER.lastIndex = start;
  const m = NUMBER.exec(text)!;
  const end = start + m[0].length;
  // `1.` or `2x` or `3.5.1`: a malformed number, not a number followed by something else.
  if (NUMBER_FOLLOWER.test(text[end] ?? "")) {
    let stop = end;
    while (stop < text.length && NUMBER_FOLLOWER.test(text[stop]!)) stop++;
    throw filterError(`Invalid number ${excerpt(text.slice(start, stop))}`, text, start);
  }
  return { kind: "number", start, end, text: m[0] };
}

/** A quoted run starting at the quote at `start`; a doubled quote stands for one quote. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = "";
  let from = start + 1;
  for (;;) {
    const q = text.indexOf("'", from);
    if (q < 0) throw filterError("Unterminated string literal", text, start);
    value += text.slice(from, q);
    if (text[q + 1] === "'") {
      value += "'";
      from = q + 2;
    } else {
      return { value, end: q + 1 };
    }
  }
}

/** The operators other query languages write as symbols, and their $filter words. */
const SYMBOLS: readonly (readonly [string, string])[] = [
  [">=", "ge"],
  ["<=", "le"],
  ["<>", "ne"],
  ["!=", "ne"],
  ["==", "eq"],
  [">", "gt"],
  ["<", "lt"],
  ["=", "eq"],
  ["&&", "and"],
  ["||", "or"],
  ["!", "not"],
];

/** What the user probably meant by a character $filter does not have: `gt` for `>`, `'…'` for `"…"`. */
function suggestion(text: string, at: number): string {
  const symbol = SYMBOLS.find(([s]) => text.startsWith(s, at));
  if (symbol) return ` (write '${symbol[1]}' for ${symbol[0]})`;
  if (text[at] === '"') {
    const close = text.indexOf('"', at + 1);
    const inner = close > at ? text.slice(at + 1, close) : "…";
    return ` (strings are in single quotes: '${inner.replaceAll("'", "''")}')`;
  }
  return "";
}
