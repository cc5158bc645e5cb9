import type { KeyCodec, KeyInterval, KeyOrder } from "./codec.js";
import { componentPrefixRange, compoundKey } from "./compound.js";
import { invalidInput } from "./errors.js";
import { TERMINATOR } from "./escape.js";
import { prefixSuccessor } from "./prefix-range.js";

export interface HierarchicalKeyOptions<L extends string> {
  /** The level names, outermost first (seed 004: country, region, state, county, city, neighborhood). */
  readonly levels: readonly L[];
  /** Component order, as for `compoundKey` (default "utf16"). */
  readonly order?: KeyOrder;
}

/** A codec for paths of a fixed hierarchy; see `hierarchicalKey`. */
export interface HierarchicalKeyCodec<L extends string> extends KeyCodec<readonly string[], string[]> {
  readonly levels: readonly L[];
  readonly order: KeyOrder;
  /** The path of an object keyed by level names; the levels given must be the first ones, without gaps. */
  pathOf(parts: Partial<Record<L, string>>): string[];
  /** A decoded key as an object keyed by level names. */
  toObject(key: string): Partial<Record<L, string>>;
  /**
   * The path and everything under it, at any level (`["us", "wa"]` never matches `["us", "wash…"]`).
   * `includeSelf: false` leaves out the path's own key. The empty path is the whole hierarchy.
   */
  subtreeRange(path: readonly string[], options?: { readonly includeSelf?: boolean }): KeyInterval;
  /** Children of `parent` (and their subtrees) whose next segment starts with `partial`. */
  startsWithRange(parent: readonly string[], partial: string): KeyInterval;
  /**
   * From `from` (and its subtree) through `to` and its subtree, in key order; with
   * `includeTo: false`, up to but not including `to` and its subtree. Throws InvalidInput if
   * `from` sorts after `to`.
   */
  betweenRange(
    from: readonly string[],
    to: readonly string[],
    options?: { readonly includeTo?: boolean },
  ): KeyInterval;
}

/**
 * Hierarchical sort keys (seed 004's `[country]#[region]#[state]#[county]#[city]#[neighborhood]`)
 * that are valid on every backend. `#` is forbidden in Azure keys, so each segment is escaped as a
 * compound-key component and ends with `!` instead: `["us", "wa", "king", "seattle"]` is
 * `"us!wa!king!seattle!"`. `!` is the lowest character the keys use, so a parent sorts before its
 * children, and because every segment is terminated, the range of `us!wa!` cannot reach `us!wash…!`.
 */
export function hierarchicalKey<L extends string>(
  options: HierarchicalKeyOptions<L>,
): HierarchicalKeyCodec<L> {
  const name = "hierarchicalKey";
  const levels: readonly L[] = options?.levels;
  if (!Array.isArray(levels as unknown) || levels.length === 0 || new Set(levels).size !== levels.length) {
    throw invalidInput(name, "levels must be a non-empty array of distinct level names");
  }
  const order = options.order ?? "utf16";
  const tuple = compoundKey({ order, names: levels });
  const checkDepth = (path: readonly string[], allowRoot: boolean): void => {
    if (!Array.isArray(path)) throw invalidInput(name, "a path is an array of strings");
    if (path.length > levels.length || (!allowRoot && path.length === 0)) {
      throw invalidInput(
        name,
        `a path has ${allowRoot ? 0 : 1} to ${levels.length} segments, got ${path.length}`,
        {
          depth: path.length,
        },
      );
    }
  };
  const keyOf = (path: readonly string[]) => (path.length === 0 ? "" : tuple.encode(path));
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

  const codec: HierarchicalKeyCodec<L> = {
    name,
    levels,
    order,
    encode(path) {
      checkDepth(path, false);
      return tuple.encode(path);
    },
    decode(key) {
      const path = tuple.decode(key);
      checkDepth(path, false);
      return path;
    },
    pathOf(parts) {
      if (typeof parts !== "object" || parts === null) throw invalidInput(name, "pathOf expects an object");
      const path: string[] = [];
      for (const level of levels) {
        const segment = parts[level];
        if (segment === undefined) break;
        path.push(segment);
      }
      const extra = Object.keys(parts).filter((k) => parts[k as L] !== undefined && !levels.includes(k as L));
      if (extra.length > 0 || Object.values(parts).filter((v) => v !== undefined).length !== path.length) {
        throw invalidInput(name, `pathOf: give the first levels of [${levels.join(", ")}] without gaps`, {
          extra,
        });
      }
      return path;
    },
    toObject(key) {
      const path = codec.decode(key);
      return Object.fromEntries(path.map((segment, i) => [levels[i], segment])) as Partial<Record<L, string>>;
    },
    subtreeRange(path, rangeOptions = {}) {
      checkDepth(path, true);
      const range = componentPrefixRange(name, path, {}, keyOf, order);
      // Every descendant key continues the path's key with at least one more terminated segment (>= '!').
      return rangeOptions.includeSelf === false ? { ...range, lower: range.lower + TERMINATOR } : range;
    },
    startsWithRange(parent, partial) {
      checkDepth(parent, true);
      if (parent.length >= levels.length)
        throw invalidInput(name, "startsWithRange: the parent is already a leaf");
      return componentPrefixRange(name, [...parent, partial], { partialLast: true }, keyOf, order);
    },
    betweenRange(from, to, rangeOptions = {}) {
      checkDepth(from, true);
      checkDepth(to, true);
      const lower = keyOf(from);
      const toKey = keyOf(to);
      if (compare(lower, toKey) > 0) throw invalidInput(name, "betweenRange: `from` sorts after `to`");
      if (rangeOptions.includeTo === false) return { lower, upper: toKey };
      const upper = to.length === 0 ? undefined : prefixSuccessor(toKey);
      return upper === undefined ? { lower } : { lower, upper };
    },
    describe: () => {
      const input = ["us", "wa", "king", "seattle"].slice(0, levels.length);
      return {
        name,
        parameters: { levels, order, terminator: TERMINATOR },
        example: { input, output: codec.encode(input) },
      };
    },
  };
  return codec;
}
