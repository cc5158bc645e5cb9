import type { NormalizedEntity } from "../../../model/index.js";
import type { BackendAction } from "../../tables/table-backend.js";
import { entityJson } from "./table-entity-codec.js";

/**
 * The Table service's REST requests (api-version 2019-02-02), built without sending them: what
 * each raw method of this backend asks the service. `connection.ts` sends them.
 */

/** One request, relative to the account URL. */
export interface AzureRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path and query after the account URL, already encoded: `/Orders()?$top=5`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

const JSON_FORMAT = "$format=application%2Fjson%3Bodata%3Dminimalmetadata";
const READ = { Accept: "application/json;odata=minimalmetadata" };
const WRITE = { Accept: "application/json;odata=minimalmetadata", "Content-Type": "application/json" };

/** Where the table a merge goes to: Cosmos DB's Table API takes a merge as `POST` + `X-HTTP-Method: MERGE`. */
export interface RequestTarget {
  readonly table: string;
  readonly cosmos: boolean;
}

export function createTableRequest(name: string): AzureRequest {
  return {
    method: "POST",
    path: `/Tables?${JSON_FORMAT}`,
    headers: { ...WRITE, Prefer: "return-no-content" },
    body: JSON.stringify({ TableName: name }),
  };
}

export function deleteTableRequest(name: string): AzureRequest {
  return { method: "DELETE", path: `/Tables('${encodeURIComponent(name)}')`, headers: READ };
}

export function listTablesRequest(page: {
  filter?: string;
  top: number;
  nextTableName?: string;
}): AzureRequest {
  const query = [
    JSON_FORMAT,
    `$top=${page.top}`,
    ...(page.filter === undefined ? [] : [`$filter=${encodeURIComponent(page.filter)}`]),
    ...(page.nextTableName === undefined ? [] : [`NextTableName=${encodeURIComponent(page.nextTableName)}`]),
  ];
  return { method: "GET", path: `/Tables?${query.join("&")}`, headers: READ };
}

export function getEntityRequest(table: string, partitionKey: string, rowKey: string): AzureRequest {
  return { method: "GET", path: `${entityPath(table, partitionKey, rowKey)}?${JSON_FORMAT}`, headers: READ };
}

export function queryEntitiesRequest(
  table: string,
  page: {
    filter?: string;
    select?: readonly string[];
    top: number;
    next?: { readonly partitionKey: string; readonly rowKey?: string };
  },
): AzureRequest {
  const query = [
    JSON_FORMAT,
    `$top=${page.top}`,
    ...(page.filter === undefined ? [] : [`$filter=${encodeURIComponent(page.filter)}`]),
    ...(page.select === undefined ? [] : [`$select=${encodeURIComponent(page.select.join(","))}`]),
    ...(page.next === undefined ? [] : [`NextPartitionKey=${encodeURIComponent(page.next.partitionKey)}`]),
    ...(page.next?.rowKey === undefined ? [] : [`NextRowKey=${encodeURIComponent(page.next.rowKey)}`]),
  ];
  return { method: "GET", path: `/${table}()?${query.join("&")}`, headers: READ };
}

/** The request of one write action. */
export function writeRequest(target: RequestTarget, action: BackendAction): AzureRequest {
  switch (action.kind) {
    case "create":
      return {
        method: "POST",
        path: `/${target.table}`,
        headers: { ...WRITE, Prefer: "return-no-content" },
        body: entityJson(action.entity),
      };
    case "upsert":
      return entityWrite(target, action.entity, action.mode, undefined);
    case "update":
      return entityWrite(target, action.entity, action.mode, action.etag);
    case "delete":
      return {
        method: "DELETE",
        path: entityPath(target.table, action.partitionKey, action.rowKey),
        headers: { ...READ, "If-Match": action.etag },
      };
  }
}

/** Replace is PUT, Merge is PATCH (MERGE on Cosmos DB); without If-Match either one inserts (an upsert). */
function entityWrite(
  target: RequestTarget,
  entity: NormalizedEntity,
  mode: "Merge" | "Replace",
  etag: string | undefined,
): AzureRequest {
  const headers: Record<string, string> = { ...WRITE, ...(etag === undefined ? {} : { "If-Match": etag }) };
  const path = entityPath(target.table, entity.partitionKey, entity.rowKey);
  const body = entityJson(entity);
  if (mode === "Replace") return { method: "PUT", path, headers, body };
  if (target.cosmos) return { method: "POST", path, headers: { ...headers, "X-HTTP-Method": "MERGE" }, body };
  return { method: "PATCH", path, headers, body };
}

/** An entity group transaction: the multipart body built by `batchBody` with this boundary. */
export function batchRequest(boundary: string, body: string): AzureRequest {
  return {
    method: "POST",
    path: "/$batch",
    headers: {
      Accept: "application/json",
      "Content-Type": `multipart/mixed; boundary=${boundary}`,
      DataServiceVersion: "3.0;",
      MaxDataServiceVersion: "3.0;NetFx",
    },
    body,
  };
}

/** The path of one entity: `/Orders(PartitionKey='p',RowKey='r')`, quotes doubled, then percent-encoded. */
export function entityPath(table: string, partitionKey: string, rowKey: string): string {
  const quote = (key: string) => encodeURIComponent(key.replaceAll("'", "''"));
  return `/${table}(PartitionKey='${quote(partitionKey)}',RowKey='${quote(rowKey)}')`;
}
