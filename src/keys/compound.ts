import type { KeyCodec, KeyInterval, KeyOrder } from "./codec.js";
import { invalidInput } from "./errors.js";
import { escapeComponent, TERMINATOR, unescapeComponents } from "./escape.js";
import { prefixSuccessor } from "./prefix-range.js";

export interface CompoundKeyOptions {
  /**
   * Which order of the component strings the keys follow: "utf16" (the default) compares
   * components by UTF-16 code units like JavaScript's `<` and Azure, and accepts any string;
   * "utf8" compares them by code points like DynamoDB, and needs well-formed strings. The keys
   * themselves are printable ASCII, so either way they sort the same on every backend.
   */
  readonly order?: KeyOrder;
  /** Names of the components, for `describe()` (documentation only). */
  readonly names?: readonly string[];
}

export interface PrefixRangeOptions {
  /** The last element of the prefix is only the start of a component (a starts-with query on it). */
  readonly partialLast?: boolean;
}

/** A codec for tuples of strings; see `compoundKey`. */
export interface CompoundKeyCodec extends KeyCodec<readonly string[], string[]> {
  readonly order: KeyOrder;
  /**
   * Every key whose first components equal `prefix` (with `partialLast`, whose last of those
   * components only starts with the last element). The empty prefix is every key.
   */
  prefixRange(prefix: readonly string[], options?: PrefixRangeOptions): KeyInterval;
}

/**
 * Tuples of strings (at least one component; any strings, empty ones included) as one key whose
 * string order is the tuples' component-wise order: `["a"] < ["a", "b"] < ["a b"]`,
 * `[""] < ["", ""]`. `compoundKey().encode(["empid", "000123"])` is `"empid!000123!"`: letters,
 * digits, `-` and `_` are written as themselves, other characters as printable escapes, and every
 * component ends with `!` (docs/keys/compound.md has the table). Output is non-empty printable
 * ASCII with none of `/ \ # ?`: a valid Azure and DynamoDB key (check its length with
 * `validateKeyFor`).
 */
export function compoundKey(options: CompoundKeyOptions = {}): CompoundKeyCodec {
  const name = "compoundKey";
  const order = options.order ?? "utf16";
  if (order !== "utf16" && order !== "utf8") throw invalidInput(name, `order must be "utf16" or "utf8"`);
  const escapeAll = (components: readonly string[]): string => {
    let out = "";
    for (const c of components) out += escapeComponent(name, c, order) + TERMINATOR;
    return out;
  };
  const codec: CompoundKeyCodec = {
    name,
    order,
    encode(components: readonly string[]): string {
      if (!Array.isArray(components) || components.length === 0) {
        throw invalidInput(
          name,
          "expected a non-empty array of strings (an empty key is not a key on DynamoDB)",
        );
      }
      return escapeAll(components);
    },
    decode: (key: string): string[] => {
      const parts = unescapeComponents(name, key, order);
      if (parts.length === 0) throw invalidInput(name, "the empty string is not a compound key");
      return parts;
    },
    prefixRange: (prefix, rangeOptions = {}) =>
      componentPrefixRange(name, prefix, rangeOptions, escapeAll, order),
    describe: () => {
      const input = ["empid", "000123", "O'Brien"];
      return {
        name,
        parameters: { order, terminator: TERMINATOR, ...(options.names ? { names: options.names } : {}) },
        example: { input, output: codec.encode(input) },
      };
    },
  };
  return codec;
}

/** Shared by compound and hierarchical keys: the range of a component prefix. */
export function componentPrefixRange(
  name: string,
  prefix: readonly string[],
  options: PrefixRangeOptions,
  escapeAll: (components: readonly string[]) => string,
  order: KeyOrder,
): KeyInterval {
  if (!Array.isArray(prefix)) throw invalidInput(name, "prefixRange expects an array of strings");
  let lower: string;
  if (options.partialLast && prefix.length > 0) {
    const partial = prefix[prefix.length - 1]!;
    const head = escapeAll(prefix.slice(0, -1));
    // An empty partial still demands one more component: the least continuation is an empty one, '!'.
    lower = partial === "" ? head + TERMINATOR : head + escapeComponent(name, partial, order);
    if (partial === "") return { lower, ...upperOf(head) };
  } else {
    lower = escapeAll(prefix);
  }
  return { lower, ...upperOf(lower) };
}

/** Keys are ASCII, so the successor is the same in both orders. */
function upperOf(prefix: string): { upper?: string } {
  const upper = prefixSuccessor(prefix);
  return upper === undefined ? {} : { upper };
}
