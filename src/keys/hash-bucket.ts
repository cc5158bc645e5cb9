import type { KeyCodec } from "./codec.js";
import { invalidInput, isDigits, requireString } from "./errors.js";
import { checkEmbeddable } from "./validate.js";

/**
 * 32-bit FNV-1a of the UTF-8 bytes of `text` (an unpaired surrogate counts as U+FFFD, as
 * TextEncoder writes it): the same number on every platform and in every process.
 *
 * @example fnv1a32("foobar") // 0xbf9cf968
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  const byte = (b: number) => {
    hash = Math.imul(hash ^ b, 0x01000193);
  };
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp < 0x80) {
      byte(cp);
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        cp = 0xfffd;
      }
    }
    if (cp < 0x800) {
      byte(0xc0 | (cp >> 6));
    } else if (cp < 0x10000) {
      byte(0xe0 | (cp >> 12));
      byte(0x80 | ((cp >> 6) & 0x3f));
    } else {
      byte(0xf0 | (cp >> 18));
      byte(0x80 | ((cp >> 12) & 0x3f));
      byte(0x80 | ((cp >> 6) & 0x3f));
    }
    byte(0x80 | (cp & 0x3f));
  }
  return hash >>> 0;
}

export interface HashBucketOptions {
  /** How many buckets (partitions) to spread over: 1-10000. */
  readonly buckets: number;
}

/** A bucketed key split into its parts. */
export interface BucketedKey {
  readonly bucket: number;
  readonly key: string;
}

/** A codec that prefixes keys with a stable hash bucket; see `hashBuckets`. */
export interface HashBucketCodec extends KeyCodec<string> {
  readonly buckets: number;
  /** Digits of a bucket number (those of `buckets - 1`). */
  readonly width: number;
  /** `<bucket of hashInput>_<key>`; `hashInput` defaults to the key itself. */
  encode(key: string, hashInput?: string): string;
  /** The bucket and the original key. */
  split(bucketed: string): BucketedKey;
  /** The bucket `hashInput` falls in: fnv1a32(hashInput) mod buckets. */
  bucketOf(hashInput: string): number;
  /** `"07_"`: what every key of bucket 7 starts with. */
  prefix(bucket: number): string;
  /** Every bucket's prefix, in order: the partitions (or prefix ranges) a query must fan out to. */
  prefixes(): string[];
  /** `key` under every bucket: the partition keys to read when the hash input is not known. */
  fanOut(key: string): string[];
}

const SEPARATOR = "_";

/**
 * Hash partitioning against hot partitions (seed 001's prepend/append anti-pattern): prefix a key
 * with a zero-padded bucket number from a stable hash, so writes that would all hit one partition
 * (the current hour, a growing id) spread over `buckets` partitions.
 * `hashBuckets({ buckets: 16 }).encode("2014-07-31T18")` is `"<00-15>_2014-07-31T18"`; reads fan
 * out over `prefixes()` or `fanOut(key)`. The key is written as is (no `/ \ # ?` or controls).
 */
export function hashBuckets(options: HashBucketOptions): HashBucketCodec {
  const name = "hashBuckets";
  const buckets = options?.buckets;
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > 10_000) {
    throw invalidInput(name, `buckets must be an integer from 1 to 10000, got ${String(buckets)}`);
  }
  const width = String(buckets - 1).length;
  const prefix = (bucket: number) => {
    if (!Number.isInteger(bucket) || bucket < 0 || bucket >= buckets) {
      throw invalidInput(name, `bucket must be an integer from 0 to ${buckets - 1}, got ${String(bucket)}`);
    }
    return String(bucket).padStart(width, "0") + SEPARATOR;
  };
  const bucketOf = (hashInput: string) => {
    if (typeof hashInput !== "string")
      throw invalidInput(name, `the hash input must be a string, got ${typeof hashInput}`);
    return fnv1a32(hashInput) % buckets;
  };
  const split = (bucketed: string): BucketedKey => {
    requireString(name, bucketed);
    const digits = bucketed.slice(0, width);
    const bucket = Number(digits);
    if (!isDigits(digits) || digits.length !== width || bucket >= buckets || bucketed[width] !== SEPARATOR) {
      throw invalidInput(
        name,
        `expected <${width}-digit bucket below ${buckets}>_<key>, got ${JSON.stringify(bucketed)}`,
      );
    }
    return { bucket, key: checkEmbeddable(name, "the key", bucketed.slice(width + 1)) };
  };
  const codec: HashBucketCodec = {
    name,
    buckets,
    width,
    encode: (key, hashInput = key) => prefix(bucketOf(hashInput)) + checkEmbeddable(name, "the key", key),
    decode: (bucketed) => split(bucketed).key,
    split,
    bucketOf,
    prefix,
    prefixes: () => Array.from({ length: buckets }, (_, b) => prefix(b)),
    fanOut: (key) => {
      checkEmbeddable(name, "the key", key);
      return Array.from({ length: buckets }, (_, b) => prefix(b) + key);
    },
    describe: () => {
      const input = "2014-07-31T18";
      return {
        name,
        parameters: { buckets, width, hash: "fnv1a32(utf8) mod buckets" },
        example: { input, output: codec.encode(input) },
      };
    },
  };
  return codec;
}
