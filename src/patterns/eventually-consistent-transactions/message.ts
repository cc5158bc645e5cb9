import {
  checkEntityLimits,
  isTableKitError,
  type NormalizedEntity,
  type TableEntity,
  TableKitError,
  type TypedValue,
  validateKey,
} from "../../model/index.js";
import { type Store, validateBlobName, validateContainerName } from "../../store/index.js";
import { EVIDENCE_PROPERTY, MAX_ENTITY_EVIDENCE_CHARS } from "../shared/evidence/evidence.js";
import type { StepHandler } from "./handler.js";
import { type CheckedStep, invalidStep, type JsonValue, stepTarget, type TransactionStep } from "./steps.js";
import { asciiJson, entityFromJson, entityToJson, writableEntity } from "./typed-json.js";

/** The format tag of a transaction message (docs/patterns/eventually-consistent-transactions.md). */
export const MESSAGE_FORMAT = "tx/1";
/** Most steps one transaction may hold. */
export const MAX_STEPS = 1000;

/** Where the steps of a message too large for the queue wait: a blob the message points to. */
export interface PayloadPointer {
  readonly container: string;
  readonly name: string;
}

/** A transaction message: its id, and its steps inline or in a payload blob. */
export interface Envelope {
  readonly id: string;
  /**
   * The id was drawn for this message alone (`enqueue` without an id, `begin`): on its first
   * delivery no journal row can exist yet, so the worker reads none. A replay drops it.
   */
  readonly fresh?: boolean;
  readonly steps?: readonly CheckedStep[];
  readonly payload?: PayloadPointer;
}

/**
 * Validates a transaction's steps against the store (names, keys, entities, limits, handlers),
 * before anything is sent: bad input is InvalidInput (or the limit's code) and nothing is written.
 */
export function checkSteps(
  steps: readonly TransactionStep[],
  store: Store,
  handlers: ReadonlyMap<string, StepHandler>,
): CheckedStep[] {
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new TableKitError("InvalidInput", "A transaction needs at least one step");
  }
  if (steps.length > MAX_STEPS) {
    throw new TableKitError(
      "InvalidInput",
      `A transaction holds at most ${MAX_STEPS} steps, got ${steps.length}`,
    );
  }
  const targets = new Set<string>();
  return steps.map((s, i) => {
    let checked: CheckedStep;
    try {
      checked = checkStep(s, store, handlers);
    } catch (err) {
      if (isTableKitError(err) && err.code !== "InvalidInput") throw err;
      throw invalidStep(i, err instanceof Error ? err.message : String(err), err);
    }
    const target = stepTarget(checked);
    if (target !== undefined) {
      if (targets.has(target)) throw invalidStep(i, "writes what an earlier step of the transaction writes");
      targets.add(target);
    }
    return checked;
  });
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

function checkMode(mode: unknown): "Merge" | "Replace" {
  if (mode !== "Merge" && mode !== "Replace")
    throw invalid(`mode must be "Merge" or "Replace", got ${String(mode)}`);
  return mode;
}

function checkEtag(etag: unknown): string {
  if (typeof etag !== "string" || etag === "" || etag === "*") {
    throw invalid("etag must be an entity's or blob's ETag (not empty, not *)");
  }
  return etag;
}

/** A step's evidence at its longest, to check an entity has room for it. */
const EVIDENCE_ROOM: TypedValue = { type: "String", value: "x".repeat(MAX_ENTITY_EVIDENCE_CHARS) };

/**
 * A step's table name and entity, checked against the store's rules as its write will be: with its
 * evidence property at its longest (so the write never crosses a limit the step did not). An
 * evidence property the entity carries (read and passed on) is dropped: the worker writes its own.
 */
function checkedWrite(
  store: Store,
  tableName: string,
  entity: TableEntity<object>,
): { table: string; entity: NormalizedEntity } {
  const table = store.validateTableName(tableName);
  if (typeof entity !== "object" || entity === null) throw invalid("a step's entity is an object");
  const { [EVIDENCE_PROPERTY]: _carried, ...own } = entity as Record<string, unknown>;
  const checked = store.table(table).checkEntity(own as TableEntity<object>);
  const properties = new Map(checked.properties).set(EVIDENCE_PROPERTY, EVIDENCE_ROOM);
  checkEntityLimits(
    { ...checked, properties },
    store.capabilities.limits,
    "entity with room for its evidence",
  );
  return { table, entity: checked };
}

function checkStep(
  s: TransactionStep,
  store: Store,
  handlers: ReadonlyMap<string, StepHandler>,
): CheckedStep {
  if (typeof s !== "object" || s === null) throw invalid("a step is an object made by step.*()");
  const limits = store.capabilities.limits;
  switch (s.kind) {
    case "insertIfAbsent":
      return {
        kind: s.kind,
        ...checkedWrite(store, s.table, s.entity),
      };
    case "upsert":
      return {
        kind: s.kind,
        ...checkedWrite(store, s.table, s.entity),
        mode: checkMode(s.mode),
      };
    case "updateIfMatch":
      return {
        kind: s.kind,
        ...checkedWrite(store, s.table, s.entity),
        etag: checkEtag(s.etag),
        mode: checkMode(s.mode),
      };
    case "deleteIfPresent":
      return {
        kind: s.kind,
        table: store.validateTableName(s.table),
        partitionKey: validateKey("PartitionKey", s.partitionKey, limits),
        rowKey: validateKey("RowKey", s.rowKey, limits),
        ...(s.etag === undefined ? {} : { etag: checkEtag(s.etag) }),
      };
    case "putBlob":
    case "deleteBlobIfPresent": {
      const caps = store.blobCapabilities;
      if (!caps)
        throw new TableKitError(
          "NotSupported",
          `The store ${store.url} has no blob port for a ${s.kind} step`,
        );
      const container = validateContainerName(s.container, caps);
      const name = validateBlobName(s.name, caps);
      if (s.kind === "deleteBlobIfPresent") return { kind: s.kind, container, name };
      if (!(s.data instanceof Uint8Array)) throw invalid("putBlob's data must be bytes or a string");
      if (s.ifMatch !== undefined && s.ifNoneMatch !== undefined)
        throw invalid("give ifMatch or ifNoneMatch, not both");
      if (s.ifNoneMatch !== undefined && s.ifNoneMatch !== "*") throw invalid('ifNoneMatch takes only "*"');
      if (s.contentType !== undefined && typeof s.contentType !== "string")
        throw invalid("contentType must be a string");
      return {
        kind: s.kind,
        container,
        name,
        data: new Uint8Array(s.data),
        ...(s.contentType === undefined ? {} : { contentType: s.contentType }),
        ...(s.ifMatch === undefined ? {} : { ifMatch: checkEtag(s.ifMatch) }),
        ...(s.ifNoneMatch === undefined ? {} : { ifNoneMatch: "*" as const }),
      };
    }
    case "call": {
      const handler = handlers.get(s.handler);
      if (!handler)
        throw invalid(`no handler ${JSON.stringify(s.handler)} is registered with this transaction queue`);
      const args = JSON.parse(JSON.stringify(s.args ?? null)) as JsonValue;
      handler.check?.(args);
      return { kind: s.kind, handler: s.handler, args };
    }
    default:
      throw invalid(`unknown step kind ${JSON.stringify((s as { kind?: unknown }).kind)}`);
  }
}

function stepJson(s: CheckedStep): Record<string, unknown> {
  switch (s.kind) {
    case "insertIfAbsent":
    case "upsert":
    case "updateIfMatch":
      return { ...s, entity: entityToJson(s.entity) };
    case "putBlob":
      return { ...s, data: Buffer.from(s.data).toString("base64") };
    default:
      return { ...s };
  }
}

/** The message text of a transaction (printable ASCII JSON). */
export function encodeEnvelope(envelope: Envelope): string {
  return asciiJson({
    tablekit: MESSAGE_FORMAT,
    id: envelope.id,
    ...(envelope.fresh ? { fresh: true } : {}),
    ...(envelope.steps ? { steps: envelope.steps.map(stepJson) } : {}),
    ...(envelope.payload ? { payload: envelope.payload } : {}),
  });
}

/** The steps alone, as a payload blob holds them. */
export function encodeSteps(steps: readonly CheckedStep[]): string {
  return asciiJson(steps.map(stepJson));
}

function malformed(message: string, cause?: unknown): TableKitError {
  return new TableKitError(
    "InvalidInput",
    `Malformed transaction message: ${message}`,
    cause ? { cause } : {},
  );
}

/** Reads a message text back; InvalidInput (a malformed message, which a worker poisons at once). */
export function decodeEnvelope(
  text: string,
  store: Store,
  handlers: ReadonlyMap<string, StepHandler>,
): Envelope {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw malformed("not JSON", err);
  }
  if (typeof json !== "object" || json === null || json.tablekit !== MESSAGE_FORMAT) {
    throw malformed(`not a ${MESSAGE_FORMAT} message`);
  }
  const id = validateKey("PartitionKey", json.id, store.capabilities.limits);
  const fresh = json.fresh === true ? { fresh: true } : {};
  if (json.payload !== undefined) {
    const p = json.payload as Partial<PayloadPointer>;
    if (typeof p?.container !== "string" || typeof p.name !== "string")
      throw malformed("bad payload pointer");
    return { id, ...fresh, payload: { container: p.container, name: p.name } };
  }
  return { id, ...fresh, steps: decodeSteps(json.steps, store, handlers) };
}

/** Reads the steps of a message or payload blob, checking them as `enqueue` did. */
export function decodeSteps(
  json: unknown,
  store: Store,
  handlers: ReadonlyMap<string, StepHandler>,
): CheckedStep[] {
  if (!Array.isArray(json)) throw malformed("steps is not a list");
  const steps = json.map((raw: Record<string, unknown>): TransactionStep => {
    if (typeof raw !== "object" || raw === null) throw malformed("a step is not an object");
    if ("entity" in raw)
      return { ...raw, entity: writableEntity(entityFromJson(raw.entity)) } as TransactionStep;
    if (raw.kind === "putBlob") {
      if (typeof raw.data !== "string") throw malformed("putBlob without data");
      return { ...raw, data: new Uint8Array(Buffer.from(raw.data, "base64")) } as TransactionStep;
    }
    return raw as unknown as TransactionStep;
  });
  return checkSteps(steps, store, handlers).map((s, i) => {
    const found = (json[i] as { found?: unknown }).found;
    if (found === undefined || s.kind !== "deleteIfPresent" || s.etag === undefined) return s;
    if (typeof found !== "string" && found !== false)
      throw malformed("a delete's found is not text or false");
    // checkSteps made this object: give it `found` in place (a copy per delete step is garbage).
    (s as { found?: string | false }).found = found;
    return s;
  });
}
