/**
 * The CLI's view of an entity: keys, typed properties in order, and the store's metadata when
 * it was read from a store. Every format (typed JSON, CSV, tables) reads and writes this.
 */
import {
  type PropertyInput,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  type TypedValue,
  typedProperties,
} from "../../model/index.js";
import { EVIDENCE_PROPERTY } from "../../patterns/shared/evidence/evidence.js";

export interface EntityRow {
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly properties: ReadonlyMap<string, TypedValue>;
  /** ISO 8601 with seven fractional digits, when read from a store. */
  readonly timestamp?: string;
  readonly etag?: string;
}

/** The row for an entity a store returned (its read form keeps every type, by design of the model). */
export function rowFromResult(result: TableEntityResult): EntityRow {
  const { partitionKey, rowKey, etag, timestamp } = result;
  return {
    partitionKey: partitionKey ?? "",
    rowKey: rowKey ?? "",
    properties: typedProperties(result as Record<string, unknown>),
    ...(timestamp === undefined ? {} : { timestamp }),
    etag,
  };
}

/**
 * Internal properties tablekit writes beside the user's data: `tablekit_tx`, the evidence of the
 * eventually consistent transactions. Shown rows leave them out unless asked (`--internal`).
 */
export const INTERNAL_PROPERTIES: ReadonlySet<string> = new Set([EVIDENCE_PROPERTY]);

/** The row without tablekit's internal properties: what `query`, `get` and the explorer show by default. */
export function withoutInternal(row: EntityRow): EntityRow {
  if (![...INTERNAL_PROPERTIES].some((name) => row.properties.has(name))) return row;
  const properties = new Map([...row.properties].filter(([name]) => !INTERNAL_PROPERTIES.has(name)));
  return { ...row, properties };
}

/** The entity to write for a row: each property as its `{ type, value }` annotated form. */
export function entityFromRow(row: EntityRow): TableEntity<Record<string, PropertyInput>> {
  const entity: Record<string, PropertyInput> = {};
  for (const [name, tv] of row.properties) {
    // `__proto__` is a valid property name; define it rather than set the prototype.
    Object.defineProperty(entity, name, { value: tv, enumerable: true, writable: true, configurable: true });
  }
  return Object.assign(entity, { partitionKey: row.partitionKey, rowKey: row.rowKey });
}

/** Prefixes an error with the line it came from, keeping its code (`line 17: …`). */
export function atLine(err: unknown, line: number): unknown {
  return located(err, `line ${line}`, { line });
}

/** Prefixes an error with where its input came from (`item 3: …`), keeping its code. */
export function located(err: unknown, where: string, details: Record<string, unknown>): unknown {
  if (!(err instanceof TableKitError) || err.details?.located) return err;
  return new TableKitError(err.code, `${where}: ${err.message}`, {
    cause: err,
    details: { ...err.details, ...details, located: where },
    ...(err.index === undefined ? {} : { index: err.index }),
  });
}
