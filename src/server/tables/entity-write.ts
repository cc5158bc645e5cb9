import type { TableEntityResult } from "../../model/index.js";
import type { Table, TransactionAction, WriteResponse } from "../../store/index.js";
import type { Resource } from "../http/resource.js";
import { invalidInput, invalidUri, unsupportedVerb } from "../protocol/protocol-error.js";
import { entityFromJson, parseEntityJson } from "./entity-body.js";

/**
 * The one path from an entity write request to the port's action, for the entity routes and each
 * part of a `$batch` alike: POST to a table inserts; PUT replaces and PATCH/MERGE merge, as an
 * update under If-Match or an upsert without it; DELETE needs If-Match. The core validates the
 * action once; nothing here checks what it checks.
 */
export interface EntityWriteRequest {
  readonly method: string;
  readonly resource: Resource;
  readonly ifMatch: string | undefined;
  /** The request body (ignored for DELETE). */
  readonly body: string;
}

export interface PlannedWrite {
  readonly tableName: string;
  readonly action: TransactionAction;
}

/** The port's action for a write request; the service's protocol errors for a verb or URL that is none. */
export function planEntityWrite(request: EntityWriteRequest): PlannedWrite {
  const { method, resource, ifMatch } = request;
  if (resource.kind === "entities") {
    if (method !== "POST") throw unsupportedVerb(method);
    return {
      tableName: resource.tableName,
      action: ["create", entityFromJson(parseEntityJson(request.body))],
    };
  }
  if (resource.kind !== "entity") throw invalidUri("A write must address an entity or a table's entities.");
  const keys = { partitionKey: resource.partitionKey, rowKey: resource.rowKey };
  const { tableName } = resource;
  switch (method) {
    case "PUT":
    case "PATCH":
    case "MERGE": {
      const entity = entityFromJson(parseEntityJson(request.body), keys);
      const mode = method === "PUT" ? "Replace" : "Merge";
      const action: TransactionAction =
        ifMatch === undefined ? ["upsert", entity, mode] : ["update", entity, mode, { etag: ifMatch }];
      return { tableName, action };
    }
    case "DELETE":
      if (ifMatch === undefined) throw invalidInput("A delete needs an If-Match header (an ETag or *).");
      return { tableName, action: ["delete", keys, { etag: ifMatch }] };
    default:
      throw unsupportedVerb(method);
  }
}

/** `Prefer: return-no-content` (true), `return-content` (false), or neither (undefined). */
export function prefersNoContent(prefer: string | undefined): boolean | undefined {
  if (prefer === undefined) return undefined;
  if (/return-no-content/i.test(prefer)) return true;
  if (/return-content/i.test(prefer)) return false;
  return undefined;
}

/** What a single write answers: its ETag and Timestamp (none for a delete), the stored entity when asked. */
export type WriteOutcome = (WriteResponse & { entity?: TableEntityResult }) | undefined;

/**
 * Runs one planned action as the single-entity call it is (a `$batch` submits its actions together).
 * `returnContent` asks the core for the inserted entity as stored, for the service's 201 echo.
 */
export function applyEntityWrite(
  table: Table,
  action: TransactionAction,
  returnContent: boolean,
): Promise<WriteOutcome> {
  // The store's promise itself, not one wrapping it: an async function returning a promise adds
  // microtask turns to every write.
  switch (action[0]) {
    case "create":
      return returnContent
        ? table.createEntity(action[1], { returnContent: true })
        : table.createEntity(action[1]);
    case "upsert":
      return table.upsertEntity(action[1], action[2]);
    case "update":
      return table.updateEntity(action[1], action[2], action[3]);
    case "delete":
      return table.deleteEntity(action[1].partitionKey, action[1].rowKey, action[2]).then(() => undefined);
  }
}
