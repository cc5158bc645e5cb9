import { randomBytes } from "node:crypto";
import type { WriteResponse } from "../store/tables/table.js";
import type { TransactionAction } from "../store/tables/table-transaction.js";
import { SERVICE_VERSION } from "./rest-error.js";

/** The headers of a write's response, as the SDK returns them (`TableInsertEntityHeaders` and kin). */
export interface TableWriteHeaders {
  clientRequestId?: string;
  requestId?: string;
  version?: string;
  date?: Date;
  etag?: string;
  preferenceApplied?: string;
  contentType?: string;
  body?: undefined;
}

export type TableInsertEntityHeaders = TableWriteHeaders;
export type TableMergeEntityHeaders = Omit<TableWriteHeaders, "preferenceApplied" | "contentType">;
export type TableUpdateEntityHeaders = TableMergeEntityHeaders;
export type TableDeleteEntityHeaders = Omit<TableMergeEntityHeaders, "etag">;

/**
 * Request ids shaped as UUIDs (version 4 form): a random per-process prefix and a counter, so each
 * is unique in the process without asking the system's random source twice per write.
 */
const ID_PREFIX = randomBytes(10).toString("hex");
const ID_HEAD = `${ID_PREFIX.slice(0, 8)}-${ID_PREFIX.slice(8, 12)}-4${ID_PREFIX.slice(12, 15)}-a${ID_PREFIX.slice(15, 18)}-`;
/** The counter's last two hex digits from a table, the ten before them formatted once per 256 ids. */
const LOW_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
let idLow = 0;
let idHigh = 0;
let idHighHead = `${ID_HEAD}${"0".repeat(10)}`;
export function requestId(): string {
  if (++idLow === 256) {
    idLow = 0;
    idHigh = (idHigh + 1) % 0x10000000000;
    idHighHead = ID_HEAD + idHigh.toString(16).padStart(10, "0");
  }
  return idHighHead + LOW_HEX[idLow];
}

/** The response `Date` header: the second the service answered in. */
export function responseDate(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

export function insertResponse(result: WriteResponse): TableInsertEntityHeaders {
  return {
    clientRequestId: requestId(),
    requestId: requestId(),
    version: SERVICE_VERSION,
    date: responseDate(),
    etag: result.etag,
    preferenceApplied: "return-no-content",
    contentType: "application/json;odata=minimalmetadata",
    body: undefined,
  };
}

export function updateResponse(result: WriteResponse): TableMergeEntityHeaders {
  return {
    clientRequestId: requestId(),
    requestId: requestId(),
    version: SERVICE_VERSION,
    date: responseDate(),
    etag: result.etag,
    body: undefined,
  };
}

export function deleteResponse(): TableDeleteEntityHeaders {
  return {
    clientRequestId: requestId(),
    requestId: requestId(),
    version: SERVICE_VERSION,
    date: responseDate(),
    body: undefined,
  };
}

/** The headers every other operation's response carries (`date` where the SDK maps it). */
export function operationHeaders(withDate: boolean): {
  clientRequestId: string;
  requestId: string;
  version: string;
  date?: Date;
} {
  const headers = { clientRequestId: requestId(), requestId: requestId(), version: SERVICE_VERSION };
  return withDate ? { ...headers, date: responseDate() } : headers;
}

/** One action's answer in a transaction, as the SDK parses it from the batch response. */
export interface TableTransactionEntityResponse {
  status: number;
  rowKey?: string;
  etag?: string;
}

export interface TableTransactionResponse {
  status: number;
  subResponses: TableTransactionEntityResponse[];
  getResponseForEntity: (rowKey: string) => TableTransactionEntityResponse | undefined;
}

/**
 * The SDK's transaction response: the row key only where the service's answer names the entity
 * (an insert's Location header), the ETag wherever the service sends one (not for a delete).
 */
export function transactionResponse(
  actions: readonly TransactionAction[],
  subResponses: readonly { etag?: string }[],
): TableTransactionResponse {
  // Literals of the few shapes, not spreads: a transaction makes one per action.
  const responses: TableTransactionEntityResponse[] = [];
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i]!;
    const kind = action[0];
    const etag = subResponses[i]?.etag;
    if (kind === "create") {
      const rowKey = action[1].rowKey;
      responses.push(etag !== undefined ? { status: 204, rowKey, etag } : { status: 204, rowKey });
    } else responses.push(kind !== "delete" && etag !== undefined ? { status: 204, etag } : { status: 204 });
  }
  return {
    status: 202,
    subResponses: responses,
    getResponseForEntity: (rowKey: string) => responses.find((r) => r.rowKey === rowKey),
  };
}
