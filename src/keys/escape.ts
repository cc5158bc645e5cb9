import type { KeyOrder } from "./codec.js";
import { invalidInput } from "./errors.js";

/*
 * The order-preserving, printable escaping behind compound and hierarchical keys: FoundationDB's
 * tuple idea (a terminator that sorts below every character of a component) in printable ASCII
 * that is legal in Azure keys (no / \ # ?, no control characters) and orders the same by UTF-16
 * code units and by UTF-8 bytes.
 *
 * Each component is written character by character, then terminated by '!' (0x21):
 *   - `-`, `0-9`, `A-Z`, `_`, `a-z` are written as themselves;
 *   - every other character is an escape: a marker chosen to sit in the gap of ASCII that the
 *     character falls in, then fixed-width lowercase hex of its code (unit or point):
 *       U+0000-U+002C  `$hh`   (between '!' and '-')
 *       U+002E-U+002F  `.hh`   (between '-' and '0')
 *       U+003A-U+0040  `:hh`   (between '9' and 'A')
 *       U+005B-U+005E  `^hh`   (between 'Z' and '_')
 *       U+0060         `` `60``  (between '_' and 'a')
 *       U+007B-U+FFFF  `{hhhh` (after 'z')
 *       U+10000 and up `~hhhhhh` (only in "utf8" order: code points; "utf16" escapes each surrogate with `{`)
 * Every code word is prefix-free and code words sort as the characters they stand for, and '!'
 * sorts below every code word, so string order of keys is component-wise order of the tuples,
 * with a shorter tuple (or a shorter component) first.
 */

/** Ends every component; the lowest character a compound key uses. */
export const TERMINATOR = "!";
const TERMINATOR_CODE = 0x21;

/** Characters written as themselves. */
const LITERAL_RUN = /^[-0-9A-Z_a-z]*$/;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** The code word of each ASCII character. */
const ASCII_CODE_WORDS: readonly string[] = Array.from({ length: 128 }, (_, u) => {
  const c = String.fromCharCode(u);
  if (/[-0-9A-Z_a-z]/.test(c)) return c;
  if (u < 0x2d) return `$${hex(u, 2)}`;
  if (u < 0x30) return `.${hex(u, 2)}`;
  if (u < 0x41) return `:${hex(u, 2)}`;
  if (u < 0x5f) return `^${hex(u, 2)}`;
  if (u === 0x60) return "`60";
  return `{${hex(u, 4)}`;
});

/** One escape marker: how many hex digits follow and which codes it may stand for. */
interface Marker {
  readonly digits: number;
  readonly min: number;
  readonly max: number;
}
const MARKERS: Readonly<Record<string, Marker>> = {
  $: { digits: 2, min: 0x00, max: 0x2c },
  ".": { digits: 2, min: 0x2e, max: 0x2f },
  ":": { digits: 2, min: 0x3a, max: 0x40 },
  "^": { digits: 2, min: 0x5b, max: 0x5e },
  "`": { digits: 2, min: 0x60, max: 0x60 },
  "{": { digits: 4, min: 0x7b, max: 0xffff },
  "~": { digits: 6, min: 0x10000, max: 0x10ffff },
};

/**
 * The escaped form of one component, without its terminator. In "utf8" order the component is
 * read as code points (an unpaired surrogate has no UTF-8 form: InvalidInput).
 */
export function escapeComponent(codec: string, component: string, order: KeyOrder): string {
  if (typeof component !== "string") {
    throw invalidInput(
      codec,
      `every component must be a string, got ${component === null ? "null" : typeof component}`,
    );
  }
  if (LITERAL_RUN.test(component)) return component;
  let out = "";
  for (let i = 0; i < component.length; i++) {
    const u = component.charCodeAt(i);
    if (u < 0x80) {
      out += ASCII_CODE_WORDS[u];
    } else if (order === "utf8" && u >= 0xd800 && u <= 0xdfff) {
      const cp = component.codePointAt(i)!;
      if (u > 0xdbff || cp <= 0xffff) {
        throw invalidInput(
          codec,
          `component has an unpaired surrogate at ${i}; "utf8" order needs well-formed text`,
        );
      }
      out += `~${hex(cp, 6)}`;
      i++;
    } else {
      out += `{${hex(u, 4)}`;
    }
  }
  return out;
}

/** The value of `digits` lowercase hex digits at `start`, or -1. */
function readHex(key: string, start: number, digits: number): number {
  if (start + digits > key.length) return -1;
  let value = 0;
  for (let i = start; i < start + digits; i++) {
    const c = key.charCodeAt(i);
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

const isLiteral = (c: number) =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x2d ||
  c === 0x5f;

/**
 * The components of a key written by `escapeComponent` + TERMINATOR per component. Strict: only
 * strings the encoder writes are accepted, so decode(key) re-encodes to exactly `key`.
 */
export function unescapeComponents(codec: string, key: string, order: KeyOrder): string[] {
  if (typeof key !== "string") throw invalidInput(codec, `expected a key string, got ${typeof key}`);
  const parts: string[] = [];
  let current = "";
  let open = false; // characters after the last terminator
  let i = 0;
  while (i < key.length) {
    const c = key.charCodeAt(i);
    if (c === TERMINATOR_CODE) {
      parts.push(current);
      current = "";
      open = false;
      i++;
      continue;
    }
    open = true;
    if (isLiteral(c)) {
      let j = i + 1;
      while (j < key.length && isLiteral(key.charCodeAt(j))) j++;
      current += key.slice(i, j);
      i = j;
      continue;
    }
    const marker = MARKERS[key[i]!];
    const value = marker ? readHex(key, i + 1, marker.digits) : -1;
    if (!marker || value < marker.min || value > marker.max || (key[i] === "~" && order !== "utf8")) {
      throw invalidInput(codec, `${JSON.stringify(key)} is not a key this codec writes (at ${i})`);
    }
    if (order === "utf8" && value >= 0xd800 && value <= 0xdfff) {
      throw invalidInput(codec, `${JSON.stringify(key)} escapes a lone surrogate (at ${i}) in "utf8" order`);
    }
    current += String.fromCodePoint(value);
    i += 1 + marker.digits;
  }
  if (open) throw invalidInput(codec, `${JSON.stringify(key)} does not end with the terminator '!'`);
  return parts;
}
