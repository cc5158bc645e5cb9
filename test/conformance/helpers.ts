import { expect } from "vitest";
import { DateTime, type Table, type TransactionAction } from "../../src/index.js";
import type { ConformanceTarget } from "./factory.js";

export { expectCode } from "../support/expect-code.js";
export { itWhen } from "../support/it-when.js";

/** What a suite receives: the target, available once the backend is open (inside tests only). */
export type TargetRef = () => ConformanceTarget;

/** An entity as a read returns it. */
export type ReadEntity = Record<string, unknown> & { etag: string; timestamp?: string };

/** `W/"datetime'2026-11-22T02%3A49%3A12.9327936Z'"`: the Table service's ETag, colons encoded. */
export const ETAG_PATTERN = /^W\/"datetime'(\d{4}-\d{2}-\d{2}T\d{2}%3A\d{2}%3A\d{2}\.\d{7}Z)'"$/;
/** A Timestamp as reads return it: ISO 8601 in UTC with exactly seven fractional digits. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;

/** Runs `fn` and returns what it throws (fails the test when it does not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await fn();
  } catch (err) {
    return err as Record<string, unknown>;
  }
  throw new Error("expected the call to fail, and it succeeded");
}

/** Every item of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Every entity of a table (optionally filtered), through the flat iterator. */
export function listAll(table: Table, filter?: string, select?: string[]): Promise<ReadEntity[]> {
  const queryOptions = { ...(filter === undefined ? {} : { filter }), ...(select ? { select } : {}) };
  return collect(table.listEntities({ queryOptions }) as AsyncIterable<ReadEntity>);
}

/** `pk/rk` of every entity of the table (or of a filter), in the order returned. */
export async function keysOf(table: Table, filter?: string): Promise<string[]> {
  return (await listAll(table, filter)).map((e) => `${e.partitionKey}/${e.rowKey}`);
}

/** Row keys matching `filter`, in the order returned. */
export async function rowKeysOf(table: Table, filter: string): Promise<string[]> {
  return (await listAll(table, filter)).map((e) => e.rowKey as string);
}

/** Asserts the table holds no entity at all (nothing was written). */
export async function expectEmpty(table: Table): Promise<void> {
  expect(await listAll(table)).toEqual([]);
}

/** The custom properties of a read entity (keys and metadata removed). */
export function customProperties(entity: ReadEntity): Record<string, unknown> {
  const { partitionKey: _p, rowKey: _r, etag: _e, timestamp: _t, ...rest } = entity;
  return rest;
}

/**
 * Asserts `actual` is exactly `expected` as a read returns it: same JS type and class, numbers by
 * `Object.is` (NaN, -0), DateTime by ticks, bytes by content, annotated values deeply.
 */
export function expectSameValue(actual: unknown, expected: unknown, label = "value"): void {
  if (expected instanceof DateTime) {
    expect(actual, label).toBeInstanceOf(DateTime);
    expect((actual as DateTime).toISOString(), label).toBe(expected.toISOString());
  } else if (expected instanceof Uint8Array) {
    expect(actual, label).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(actual as Uint8Array).equals(Buffer.from(expected)), `${label} bytes`).toBe(true);
    expect((actual as Uint8Array).byteLength, `${label} length`).toBe(expected.byteLength);
  } else if (typeof expected === "object" && expected !== null) {
    expect(actual, label).toStrictEqual(expected);
  } else {
    expect(typeof actual, `${label} type`).toBe(typeof expected);
    expect(Object.is(actual, expected), `${label}: ${String(actual)} is not ${String(expected)}`).toBe(true);
  }
}

/** `n` pseudo-random bytes, deterministic per seed. */
export function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** Shuffles a copy of `items` (deterministic). */
export function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Writes entities in transactions of at most `limits.maxTransactionOperations`, one partition each. */
export async function insertMany(
  table: Table,
  entities: readonly Record<string, unknown>[],
  batch = 100,
): Promise<void> {
  const byPartition = new Map<string, SdkEntity[]>();
  for (const e of entities) {
    const pk = e.partitionKey as string;
    if (!byPartition.has(pk)) byPartition.set(pk, []);
    byPartition.get(pk)!.push(e as SdkEntity);
  }
  for (const group of byPartition.values()) {
    for (let i = 0; i < group.length; i += batch) {
      await submit(
        table,
        group.slice(i, i + batch).map((e): SdkAction => ["create", e]),
      );
    }
  }
}

type SdkEntity = { partitionKey: string; rowKey: string } & Record<string, unknown>;

/**
 * A transaction action typed exactly as `@azure/data-tables`' `TransactionAction` (entities are
 * `Record<string, unknown>` with keys). tablekit's own `TransactionAction` types entities as
 * `TableEntity<object>`, which rejects object literals with properties at compile time (reported
 * to the lead); `submit` passes the SDK-shaped tuples through unchanged.
 */
export type SdkAction =
  | readonly ["create" | "delete", SdkEntity]
  | readonly ["delete", SdkEntity, { etag?: string }]
  | readonly ["update" | "upsert", SdkEntity]
  | readonly ["update" | "upsert", SdkEntity, "Merge" | "Replace"]
  | readonly ["update" | "upsert", SdkEntity, "Merge" | "Replace", { etag?: string } | undefined];

/** `table.submitTransaction(actions, options)` with the SDK's action type. */
export function submit(
  table: Table,
  actions: readonly SdkAction[],
  options?: { abortSignal?: AbortSignal },
): ReturnType<Table["submitTransaction"]> {
  return table.submitTransaction(actions as readonly TransactionAction[], options);
}
