/**
 * tablekit/keys: order-preserving key codecs for partition-key / row-key tables. Every codec is a
 * symmetric `encode`/`decode` pair that can `describe()` itself; docs/keys/ has one page per family.
 */

export { AZURE_LIMITS, DYNAMODB_LIMITS, type Limits } from "../model/limits.js";
export type { CodecDescription, KeyCodec, KeyInterval, KeyOrder } from "./codec.js";
export {
  type CompoundKeyCodec,
  type CompoundKeyOptions,
  compoundKey,
  type PrefixRangeOptions,
} from "./compound.js";
export { type Float64Options, float64 } from "./float64.js";
export {
  type BucketedKey,
  fnv1a32,
  type HashBucketCodec,
  type HashBucketOptions,
  hashBuckets,
} from "./hash-bucket.js";
export { type HierarchicalKeyCodec, type HierarchicalKeyOptions, hierarchicalKey } from "./hierarchy.js";
export { type KeyProperty, odataString, type RangeFilterOptions, rangeFilter } from "./odata.js";
export { type PaddedIntCodec, type PaddedIntOptions, paddedBigInt, paddedInt } from "./padded-int.js";
export { keysBetween, prefixRange, prefixSuccessor, type RangeOptions } from "./prefix-range.js";
export { int64, signedInt } from "./signed-int.js";
export { chronologicalTicks, invertedTicks, type TicksCodec } from "./ticks.js";
export type { TimeInput } from "./time-input.js";
export {
  MAX_UNIQUE_COUNTER,
  type UniqueTicksCodec,
  type UniqueTicksOptions,
  type UniqueTimeKey,
  type UniqueTimeKeyInput,
  uniqueTicks,
} from "./unique-ticks.js";
export { validateKeyEverywhere, validateKeyFor } from "./validate.js";
export {
  type VersionedKey,
  type VersionKeyCodec,
  type VersionKeyOptions,
  versionKey,
} from "./version-key.js";
