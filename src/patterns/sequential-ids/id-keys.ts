import { type PaddedIntCodec, paddedInt } from "../../keys/index.js";

/** Options of `sequentialIdKey`. */
export interface IdKeyOptions {
  /** Newest first: the key of `id` is `max - id`, the article's `(int.MaxValue - id).ToString("0000000000")`. */
  readonly newestFirst?: boolean;
  /** The largest id (default 2147483647, `int.MaxValue`). */
  readonly max?: number;
  /** Digits (default 10, as `ToString("0000000000")`). */
  readonly width?: number;
}

/**
 * The padded key of a sequential id, as in seed 003: `id.ToString("0000000000")` by default
 * (`sequentialIdKey().encode(42)` is `"0000000042"`), or `(int.MaxValue - id)` padded the same way
 * with `newestFirst`, so a partition's newest entities come first. Decodes back to the id.
 */
export function sequentialIdKey(options: IdKeyOptions = {}): PaddedIntCodec<number> {
  const max = options.max ?? 2147483647;
  return paddedInt({
    max,
    width: options.width ?? Math.max(10, String(max).length),
    descending: options.newestFirst === true,
  });
}
