import { TableKitError } from "../../../model/index.js";

/**
 * Continuations name the next key to read, as JSON (the core wraps them into opaque tokens). They
 * hold no state of this process, so they survive closing the store and restarting the program.
 */

/** The continuation of an entity query that resumes at (and including) this key. */
export function encodeKeyContinuation(partitionKey: string, rowKey: string): string {
  return JSON.stringify([partitionKey, rowKey]);
}

export function decodeKeyContinuation(text: string): { partitionKey: string; rowKey: string } {
  const value = parse(text);
  if (!Array.isArray(value) || value.length !== 2) throw malformed();
  const [partitionKey, rowKey] = value as unknown[];
  if (typeof partitionKey !== "string" || typeof rowKey !== "string") throw malformed();
  return { partitionKey, rowKey };
}

/** The continuation of a table listing that resumes at this (lower-cased) table name. */
export function encodeTableContinuation(lowerCaseName: string): string {
  return JSON.stringify({ table: lowerCaseName });
}

export function decodeTableContinuation(text: string): string {
  const value = parse(text) as { table?: unknown } | null;
  if (typeof value !== "object" || value === null || typeof value.table !== "string") throw malformed();
  return value.table;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw malformed(err);
  }
}

function malformed(cause?: unknown): TableKitError {
  return new TableKitError("InvalidContinuationToken", "The continuation token is malformed", { cause });
}
