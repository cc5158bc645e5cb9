/** Shared fast-check arbitraries and comparators for the key codec properties. */
import fc from "fast-check";

/** Every property of the keys suite runs this many times (the seed is printed on failure). */
export const RUNS = { numRuns: 10_000 } as const;

export const sign = (n: number | bigint): -1 | 0 | 1 => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** Characters at the edges of the escaping scheme, the surrogate ranges and the forbidden set. */
const EDGE_CHARACTERS = [
  "\u0000",
  "\u001f",
  " ",
  "!",
  '"',
  "#",
  "$",
  "%",
  "'",
  ",",
  "-",
  ".",
  "/",
  "0",
  "9",
  ":",
  "?",
  "@",
  "A",
  "Z",
  "[",
  "\\",
  "]",
  "^",
  "_",
  "`",
  "a",
  "f",
  "z",
  "{",
  "|",
  "~",
  "\u007f",
  "\u0080",
  "\u009f",
  "é",
  "\u07ff",
  "\u0800",
  "\ud7ff",
  "\ue000",
  "\uf8ff",
  "\ufffe",
  "\uffff",
];
const SURROGATE_PAIRS = ["\ud800\udc00", "\ud83d\ude00", "\ud83d\udfff", "\udbff\udfff", "\ud800\udfff"];
const LONE_SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"];

/** One well-formed character, biased to the interesting ones. */
export const wellFormedChar = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...EDGE_CHARACTERS) },
  { weight: 2, arbitrary: fc.constantFrom(...SURROGATE_PAIRS) },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .map((c) => String.fromCodePoint(c)),
  },
  { weight: 3, arbitrary: fc.constantFrom("a", "b", "w", "s") },
);

/** One UTF-16 code unit or pair, lone surrogates included: any JavaScript string is made of these. */
export const anyUnit = fc.oneof(
  { weight: 6, arbitrary: wellFormedChar },
  { weight: 1, arbitrary: fc.constantFrom(...LONE_SURROGATES) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) },
);

export const anyString = fc.string({ unit: anyUnit, maxLength: 6 });
export const wellFormedString = fc.string({ unit: wellFormedChar, maxLength: 6 });

/** A non-empty tuple of strings. */
export const tupleOf = (component: fc.Arbitrary<string>) =>
  fc.array(component, { minLength: 1, maxLength: 4 });

/** `s` without its last character (a whole surrogate pair when it ends with one). */
function dropLastCharacter(s: string): string {
  const pair = s.length >= 2 && /[\ud800-\udbff][\udc00-\udfff]$/.test(s);
  return s.slice(0, pair ? -2 : -1);
}

/** A tuple and a near neighbour of it (longer, shorter, one component extended or changed). */
function neighbour(
  a: string[],
  component: fc.Arbitrary<string>,
  unit: fc.Arbitrary<string>,
): fc.Arbitrary<string[]> {
  const last = a.length - 1;
  return fc.oneof(
    component.map((s) => [...a, s]),
    fc.constant(a.length > 1 ? a.slice(0, -1) : a),
    fc.tuple(fc.nat({ max: last }), component).map(([i, s]) => a.map((c, j) => (j === i ? c + s : c))),
    fc
      .tuple(fc.nat({ max: last }), unit)
      .map(([i, u]) => a.map((c, j) => (j === i ? dropLastCharacter(c) + u : c))),
    fc.nat({ max: last }).map((i) => [...a.slice(0, i), dropLastCharacter(a[i]!), ...a.slice(i + 1)]),
  );
}

/** Pairs of tuples: independent ones and near neighbours, so shared prefixes are common. */
export function tuplePairs(component: fc.Arbitrary<string>, unit: fc.Arbitrary<string>) {
  const tuple = tupleOf(component);
  return fc.oneof(
    fc.tuple(tuple, tuple),
    tuple.chain((a) => fc.tuple(fc.constant(a), neighbour(a, component, unit))),
  );
}

/** Component-wise order of tuples, a shorter tuple first. */
export function compareTuples(
  a: readonly string[],
  b: readonly string[],
  compare: (x: string, y: string) => number,
): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compare(a[i]!, b[i]!);
    if (c !== 0) return sign(c);
  }
  return sign(a.length - b.length);
}

/** Whether `key` lies in the half-open interval under `compare`. */
export function inInterval(
  key: string,
  range: { lower: string; upper?: string },
  compare: (x: string, y: string) => number,
): boolean {
  return compare(range.lower, key) <= 0 && (range.upper === undefined || compare(key, range.upper) < 0);
}

/** Azure's forbidden key characters; compound outputs must never contain them. */
export const AZURE_FORBIDDEN = /[/\\#?\u0000-\u001f\u007f-\u009f]/;

/** The TableKitError code `f` throws, or "no error". */
export function errorCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return "no error";
}

/** String order of two keys, as -1 / 0 / 1. */
export const cmp = (a: string, b: string): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);
