/**
 * Keys are stored as UTF-8 text, which SQLite's BINARY collation compares by code point. The
 * service orders keys by UTF-16 code units, which differs only between U+E000..U+FFFF and astral
 * characters (code-unit order: U+0000..U+D7FF < astral < U+E000..U+FFFF). `toStoredKey` remaps code
 * points so that code-point order of the stored text IS code-unit order of the key:
 *   U+0000..U+D7FF   -> unchanged
 *   U+10000..U+10FFFF -> minus 0x2000   (U+E000..U+10DFFF)
 *   U+E000..U+FFFF   -> plus 0x100000  (U+10E000..U+10FFFF)
 * Every output is a valid scalar value, the map is a bijection, and keys without characters at or
 * above U+D800 (nearly all keys, and every key a tablekit codec emits) are stored unchanged.
 */

/** True when `s` has a unit at or above U+D800 (a loop: a regular expression's call costs more on short keys). */
function needsRemap(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0xd800) return true;
  return false;
}

/** The stored (code-point-ordered) form of a well-formed key. */
export function toStoredKey(key: string): string {
  return needsRemap(key) ? remap(key, toStoredCodePoint) : key;
}

/** The key a stored form came from. */
export function fromStoredKey(stored: string): string {
  return needsRemap(stored) ? remap(stored, fromStoredCodePoint) : stored;
}

function toStoredCodePoint(c: number): number {
  if (c < 0xd800) return c;
  if (c >= 0x10000) return c - 0x2000;
  if (c >= 0xe000) return c + 0x100000;
  return c; // a lone surrogate: the core rejects these before they reach a backend
}

function fromStoredCodePoint(c: number): number {
  if (c < 0xd800) return c;
  if (c >= 0x10e000) return c - 0x100000;
  if (c >= 0xe000) return c + 0x2000;
  return c;
}

function remap(s: string, map: (c: number) => number): string {
  let out = "";
  for (const ch of s) out += String.fromCodePoint(map(ch.codePointAt(0)!));
  return out;
}

/** True when code-point order and code-unit order agree for every comparison against `s`. */
export function ordersAgreeAgainst(s: string): boolean {
  // If `s` has no unit at or above U+D800, the first difference with any string involves a unit
  // of `s` below U+D800, which both orders place below every surrogate and U+E000+ character.
  return !needsRemap(s);
}

/** A string's UTF-16 code units as hex (4 digits each): passes lone surrogates through SQLite intact. */
export function utf16Hex(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(4, "0");
  return out;
}

/** Inverse of `utf16Hex`. */
export function fromUtf16Hex(hex: string): string {
  let out = "";
  for (let i = 0; i < hex.length; i += 4)
    out += String.fromCharCode(Number.parseInt(hex.slice(i, i + 4), 16));
  return out;
}
