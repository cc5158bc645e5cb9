import { TableKitError } from "../../model/index.js";

/**
 * Blob index tags as the Blob service keeps them: at most 10 per blob, keys of 1–128 characters,
 * values of 0–256, both from letters, digits, space and `+ - . / : = _`, compared case-sensitively.
 */

/** A blob's tags: key → value (`@azure/storage-blob`'s `Tags`). */
export type BlobTags = Record<string, string>;

export const MAX_TAGS = 10;
export const MAX_TAG_KEY_LENGTH = 128;
export const MAX_TAG_VALUE_LENGTH = 256;
const TAG_TEXT = /^[A-Za-z0-9 +\-./:=_]*$/;

/** The first character a tag key or value may not hold, or undefined when it holds none. */
export function forbiddenTagCharacter(text: string): string | undefined {
  if (TAG_TEXT.test(text)) return undefined;
  return [...text].find((c) => !TAG_TEXT.test(c));
}

function invalidTag(why: string, details: Record<string, unknown>): TableKitError {
  return new TableKitError("InvalidTag", `The tags specified are invalid: ${why}`, { details });
}

/** Checks tags as Set Blob Tags and uploads take them; a copy with its keys in the order given. */
export function checkTags(tags: unknown): BlobTags {
  if (tags === undefined || tags === null) return {};
  if (typeof tags !== "object" || Array.isArray(tags)) {
    throw invalidTag("tags are an object of string keys and string values", { tags });
  }
  const entries = Object.entries(tags as Record<string, unknown>);
  if (entries.length > MAX_TAGS) {
    throw new TableKitError(
      "TagsTooLarge",
      `The tags specified exceed the maximum permissible limit: a blob has at most ${MAX_TAGS} tags, not ${entries.length}.`,
      { details: { count: entries.length, limit: MAX_TAGS } },
    );
  }
  const out: BlobTags = {};
  for (const [key, value] of entries) {
    if (key.length < 1 || key.length > MAX_TAG_KEY_LENGTH) {
      throw invalidTag(`a key has 1 to ${MAX_TAG_KEY_LENGTH} characters (${key.length} given)`, { key });
    }
    if (typeof value !== "string") throw invalidTag(`the value of ${key} is not a string`, { key });
    if (value.length > MAX_TAG_VALUE_LENGTH) {
      throw invalidTag(`a value has at most ${MAX_TAG_VALUE_LENGTH} characters (${value.length} given)`, {
        key,
      });
    }
    if (!TAG_TEXT.test(key) || !TAG_TEXT.test(value)) {
      throw invalidTag("keys and values hold letters, digits, space and + - . / : = _ only", { key });
    }
    out[key] = value;
  }
  return out;
}

/** Tags from a list of pairs (an XML TagSet, an `x-ms-tags` header): a key given twice is refused. */
export function tagsFromPairs(pairs: readonly (readonly [string, string])[]): BlobTags {
  const tags: BlobTags = {};
  for (const [key, value] of pairs) {
    if (Object.hasOwn(tags, key)) {
      throw invalidTag(`the key ${JSON.stringify(key)} is given twice`, { key });
    }
    tags[key] = value;
  }
  return checkTags(tags);
}
