import { TableKitError } from "../../model/index.js";
import type { BackendAction } from "../backend.js";
import { entityJson } from "./entity-json.js";

/**
 * The multipart body of an entity group transaction (`POST /$batch`): one changeset holding one
 * HTTP sub-request per action, in action order, so the index the service reports on failure is
 * the action's index. Built here rather than by the SDK because the SDK drops the ETag of a
 * delete (it always sends `If-Match: *`) and may order sub-requests by completion.
 */

const CRLF = "\r\n";

export interface BatchTarget {
  /** The table's URL without query string: `https://acct.table.core.windows.net/Orders`. */
  readonly tableUrl: string;
  /** Cosmos DB's Table API takes merges as `POST` with `X-HTTP-Method: MERGE`, not `PATCH`. */
  readonly cosmos: boolean;
}

/** The URL of one entity: quotes doubled, then percent-encoded (as the SDK sends it). */
export function entityUrl(tableUrl: string, partitionKey: string, rowKey: string): string {
  const quote = (key: string) => encodeURIComponent(key.replaceAll("'", "''"));
  return `${tableUrl}(PartitionKey='${quote(partitionKey)}',RowKey='${quote(rowKey)}')`;
}

/** The whole body, for the batch boundary the SDK chose (read from its `Content-Type`). */
export function batchBody(
  batchBoundary: string,
  actions: readonly BackendAction[],
  target: BatchTarget,
): string {
  const changeset = `changeset_${batchBoundary.replace(/^batch_/, "")}`;
  const parts = actions.map((action) => `--${changeset}${CRLF}${subRequest(action, target)}`);
  return [
    `--${batchBoundary}`,
    `Content-Type: multipart/mixed; boundary=${changeset}`,
    "",
    ...parts,
    `--${changeset}--`,
    `--${batchBoundary}--`,
    "",
  ].join(CRLF);
}

/** The boundary of a `multipart/mixed; boundary=…` Content-Type. */
export function boundaryOf(contentType: string | undefined): string {
  const match = contentType ? /boundary=([^;\s]+)/.exec(contentType) : null;
  if (!match) throw new TableKitError("BackendError", "The SDK's batch request has no multipart boundary");
  return match[1]!;
}

function subRequest(action: BackendAction, target: BatchTarget): string {
  const keys = action.kind === "delete" ? action : action.entity;
  const url = entityUrl(target.tableUrl, keys.partitionKey, keys.rowKey);
  switch (action.kind) {
    case "create":
      return http("POST", target.tableUrl, { Prefer: "return-no-content" }, entityJson(action.entity));
    case "upsert":
      return action.mode === "Replace"
        ? http("PUT", url, {}, entityJson(action.entity))
        : merge(url, {}, entityJson(action.entity), target);
    case "update":
      return action.mode === "Replace"
        ? http("PUT", url, { "If-Match": action.etag }, entityJson(action.entity))
        : merge(url, { "If-Match": action.etag }, entityJson(action.entity), target);
    case "delete":
      return http("DELETE", url, { "If-Match": action.etag });
  }
}

function merge(url: string, headers: Record<string, string>, body: string, target: BatchTarget): string {
  return target.cosmos
    ? http("POST", url, { ...headers, "X-HTTP-Method": "MERGE" }, body)
    : http("PATCH", url, headers, body);
}

function http(method: string, url: string, headers: Record<string, string>, body?: string): string {
  const lines = [
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `${method} ${url} HTTP/1.1`,
    "Accept: application/json;odata=minimalmetadata",
    "DataServiceVersion: 3.0",
    ...(body === undefined ? [] : ["Content-Type: application/json"]),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    body ?? "",
  ];
  return lines.join(CRLF);
}
