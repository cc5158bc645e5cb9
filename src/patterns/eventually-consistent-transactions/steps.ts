import { type NormalizedEntity, type TableEntity, TableKitError } from "../../model/index.js";
import type { UpdateMode } from "../../store/index.js";

type Entity = TableEntity<Record<string, unknown>>;

/** A JSON value: what a handler step's arguments may be. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [k: string]: JsonValue };

/** The step kinds, over the entity shape (as given, or normalized once checked). */
type StepOf<E> =
  | { readonly kind: "insertIfAbsent"; readonly table: string; readonly entity: E }
  | {
      readonly kind: "upsert";
      readonly table: string;
      readonly entity: E;
      readonly mode: UpdateMode;
    }
  | {
      readonly kind: "updateIfMatch";
      readonly table: string;
      readonly entity: E;
      readonly etag: string;
      readonly mode: UpdateMode;
    }
  | {
      readonly kind: "deleteIfPresent";
      readonly table: string;
      readonly partitionKey: string;
      readonly rowKey: string;
      readonly etag?: string;
    }
  | {
      readonly kind: "putBlob";
      readonly container: string;
      readonly name: string;
      readonly data: Uint8Array;
      readonly contentType?: string;
      readonly ifMatch?: string;
      readonly ifNoneMatch?: "*";
    }
  | { readonly kind: "deleteBlobIfPresent"; readonly container: string; readonly name: string }
  | { readonly kind: "call"; readonly handler: string; readonly args: JsonValue };

/**
 * One step of an eventually consistent transaction. Every kind is idempotent by construction, so
 * running a step again after a crash (a redelivery) leaves the state it left the first time
 * (docs/patterns/eventually-consistent-transactions.md has each kind's rule).
 */
export type TransactionStep = StepOf<Entity>;

/** A step's blob precondition: create only (`ifNoneMatch: "*"`) or replace only that version (`ifMatch`). */
export type BlobPrecondition = { readonly ifNoneMatch: "*" } | { readonly ifMatch: string };

/**
 * The step kinds, as constructors.
 *
 * @example
 * await transactions.enqueue([
 *   step.insertIfAbsent("Archive", employee),
 *   step.deleteIfPresent("Current", "Sales", "000456", { etag: employee.etag }),
 * ]);
 */
export const step = Object.freeze({
  /** Inserts the entity; an entity already at its key counts as done (the step never overwrites). */
  insertIfAbsent(table: string, entity: Entity): TransactionStep {
    return { kind: "insertIfAbsent", table, entity };
  },
  /** Insert-or-replace (or insert-or-merge): the same content however often it runs. */
  upsert(table: string, entity: Entity, mode: UpdateMode = "Replace"): TransactionStep {
    return { kind: "upsert", table, entity, mode };
  },
  /**
   * Replaces (or merges) the entity only if it still has `etag`; a redelivery that finds the
   * entity already holding this step's content counts as done ("expected before OR already after").
   */
  updateIfMatch(table: string, entity: Entity, etag: string, mode: UpdateMode = "Replace"): TransactionStep {
    return { kind: "updateIfMatch", table, entity, etag, mode };
  },
  /** Deletes the entity (only that version with `etag`); an absent entity counts as done. */
  deleteIfPresent(
    table: string,
    partitionKey: string,
    rowKey: string,
    options: { readonly etag?: string } = {},
  ): TransactionStep {
    return {
      kind: "deleteIfPresent",
      table,
      partitionKey,
      rowKey,
      ...(options.etag === undefined ? {} : { etag: options.etag }),
    };
  },
  /**
   * Uploads a block blob, optionally only if absent or only over one version; a blob already
   * holding these bytes counts as done.
   */
  putBlob(
    container: string,
    name: string,
    data: Uint8Array | string,
    options: { readonly contentType?: string; readonly condition?: BlobPrecondition } = {},
  ): TransactionStep {
    return {
      kind: "putBlob",
      container,
      name,
      data: typeof data === "string" ? new TextEncoder().encode(data) : data,
      ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
      ...(options.condition ?? {}),
    };
  },
  /** Deletes a blob; an absent blob counts as done. */
  deleteBlobIfPresent(container: string, name: string): TransactionStep {
    return { kind: "deleteBlobIfPresent", container, name };
  },
  /** Runs a registered handler (an index or a copy to keep in step); the handler must be idempotent. */
  call(handler: string, args: JsonValue): TransactionStep {
    return { kind: "call", handler, args };
  },
});

/**
 * A step after validation: entities normalized, ready to run and to encode. An ETag-guarded delete
 * also carries what `enqueue` found of the version it names (`found`): that version's evidence
 * text ("" for none), or false when no such version existed any more — so a redelivery knows which
 * life of the key the step was to end (docs/patterns/eventually-consistent-transactions.md#evidence).
 */
export type CheckedStep =
  | Exclude<StepOf<NormalizedEntity>, { kind: "deleteIfPresent" }>
  | (Extract<StepOf<NormalizedEntity>, { kind: "deleteIfPresent" }> & { readonly found?: string | false });

/**
 * What a step writes, as one string: two steps of a transaction may not share one, so running any
 * step again never undoes another step of the same transaction. Handler steps have none.
 */
export function stepTarget(s: CheckedStep): string | undefined {
  switch (s.kind) {
    case "insertIfAbsent":
    case "upsert":
    case "updateIfMatch":
      return JSON.stringify(["t", s.table.toLowerCase(), s.entity.partitionKey, s.entity.rowKey]);
    case "deleteIfPresent":
      return JSON.stringify(["t", s.table.toLowerCase(), s.partitionKey, s.rowKey]);
    case "putBlob":
    case "deleteBlobIfPresent":
      return JSON.stringify(["b", s.container, s.name]);
    case "call":
      return undefined;
  }
}

/** A short description of a step, for errors and poison records. */
export function describeStep(s: CheckedStep): string {
  switch (s.kind) {
    case "insertIfAbsent":
    case "upsert":
    case "updateIfMatch":
      return `${s.kind} ${s.table}(${s.entity.partitionKey}, ${s.entity.rowKey})`;
    case "deleteIfPresent":
      return `${s.kind} ${s.table}(${s.partitionKey}, ${s.rowKey})`;
    case "putBlob":
    case "deleteBlobIfPresent":
      return `${s.kind} ${s.container}/${s.name}`;
    case "call":
      return `call ${s.handler}`;
  }
}

export function invalidStep(index: number, message: string, cause?: unknown): TableKitError {
  return new TableKitError("InvalidInput", `Step ${index}: ${message}`, {
    details: { step: index },
    ...(cause === undefined ? {} : { cause }),
  });
}
