import type { TypedValue } from "./edm.js";
import type { NormalizedEntity } from "./entity.js";
import { type CheckedValue, EntityProperties } from "./entity-properties.js";
import { valueJson } from "./json-value.js";
import type { Limits } from "./limits.js";

/**
 * The size of an entity group transaction as the Table service limits it: the bytes of the
 * `POST /$batch` request body (4 MiB at most), as tablekit's Azure backend writes it — one
 * multipart changeset, each action an HTTP sub-request whose JSON body annotates every property
 * with its EDM type, Binary as base64 and strings as JSON-escaped UTF-8 (an upper bound where the
 * form varies: the account URL, a merge's method). One function for every backend, so a transaction accepted anywhere is accepted everywhere; docs/limits.md spells the
 * formula out, and a unit test holds it equal to the bytes the Azure backend sends.
 */

/** One write, as the core has validated it (the store's `BackendAction`): what a payload is counted of. */
export type PayloadAction =
  | { readonly kind: "create"; readonly entity: NormalizedEntity }
  | { readonly kind: "upsert"; readonly entity: NormalizedEntity; readonly mode: "Merge" | "Replace" }
  | {
      readonly kind: "update";
      readonly entity: NormalizedEntity;
      readonly mode: "Merge" | "Replace";
      /** `*` or an ETag. */
      readonly etag: string;
    }
  | {
      readonly kind: "delete";
      readonly partitionKey: string;
      readonly rowKey: string;
      /** `*` or an ETag. */
      readonly etag: string;
    };

/**
 * The account URL each sub-request's absolute URL starts with, counted at this many bytes whatever
 * the backend: every standard endpoint fits (the longest, `https://` + a 24-character account +
 * `.table.core.usgovcloudapi.net`, is 61), so a batch counted within the limit is within it on
 * the wire too, and the count is the same on every backend.
 */
export const PAYLOAD_ACCOUNT_URL_BYTES = 64;

/** Boundaries as the backend makes them: `batch_` and `changeset_` followed by a UUID (36 characters). */
const BATCH_BOUNDARY_BYTES = "batch_".length + 36;
const CHANGESET_BOUNDARY_BYTES = "changeset_".length + 36;
const CRLF = 2;

/**
 * The bytes a transaction's body holds besides its actions: the batch boundary line, the changeset
 * part's Content-Type line and blank line, the closing changeset and batch delimiters.
 */
export const TRANSACTION_FRAME_BYTES =
  `--${"b".repeat(BATCH_BOUNDARY_BYTES)}`.length +
  CRLF +
  `Content-Type: multipart/mixed; boundary=${"c".repeat(CHANGESET_BOUNDARY_BYTES)}`.length +
  CRLF +
  CRLF +
  `--${"c".repeat(CHANGESET_BOUNDARY_BYTES)}--`.length +
  CRLF +
  `--${"b".repeat(BATCH_BOUNDARY_BYTES)}--`.length +
  CRLF;

/** What every sub-request holds whatever it does: its delimiter, MIME headers and DataServiceVersion. */
const PART_FIXED_BYTES =
  `--${"c".repeat(CHANGESET_BOUNDARY_BYTES)}`.length +
  CRLF +
  "Content-Type: application/http".length +
  CRLF +
  "Content-Transfer-Encoding: binary".length +
  CRLF +
  CRLF +
  " HTTP/1.1".length + // the request line, after its method and URL
  CRLF +
  "DataServiceVersion: 3.0".length +
  CRLF +
  CRLF + // the blank line before the body
  CRLF; // the line end after the part

const header = (name: string, value: string) => name.length + ": ".length + value.length + CRLF;
const ACCEPT = header("Accept", "application/json;odata=minimalmetadata");
const CONTENT_TYPE = header("Content-Type", "application/json");
const PREFER = header("Prefer", "return-no-content");
/**
 * A merge is `PATCH`, or on Cosmos DB `POST` with `X-HTTP-Method: MERGE`: counted as the longer
 * form, so one count bounds both.
 */
const MERGE_METHOD_BYTES = Math.max("PATCH ".length, "POST ".length + header("X-HTTP-Method", "MERGE"));

export interface PayloadOptions {
  /** The account URL's length in bytes (default `PAYLOAD_ACCOUNT_URL_BYTES`). */
  readonly accountUrlBytes?: number;
}

/** The bytes of a whole transaction's request body: `TRANSACTION_FRAME_BYTES` plus each action's. */
export function transactionPayloadBytes(
  table: string,
  actions: readonly PayloadAction[],
  options: PayloadOptions = {},
): number {
  let bytes = TRANSACTION_FRAME_BYTES;
  for (const action of actions) bytes += actionPayloadBytes(table, action, options);
  return bytes;
}

/**
 * An upper bound of `transactionPayloadBytes` from lengths alone — no escaping, UTF-8, number or
 * base64 text — so a transaction far below its limit (nearly all of them) is checked without the
 * exact count: `prepareTransaction` counts exactly only when this bound is over the limit.
 */
export function transactionPayloadBound(
  table: string,
  actions: readonly PayloadAction[],
  options: PayloadOptions = {},
): number {
  // Every action's parts that depend on neither its keys, ETag nor entity, at their longest.
  const fixed =
    PART_FIXED_BYTES +
    Math.max("DELETE ".length, "POST ".length, "PUT ".length, MERGE_METHOD_BYTES) +
    (options.accountUrlBytes ?? PAYLOAD_ACCOUNT_URL_BYTES) +
    "/".length +
    table.length +
    "(PartitionKey='',RowKey='')".length +
    ACCEPT +
    CONTENT_TYPE +
    PREFER +
    header("If-Match", "");
  let bytes = TRANSACTION_FRAME_BYTES;
  for (const action of actions) {
    bytes += fixed;
    if (action.kind !== "create") bytes += action.kind === "upsert" ? 0 : action.etag.length;
    if (action.kind === "delete") {
      bytes += KEY_PATH_BYTES_PER_UNIT * (action.partitionKey.length + action.rowKey.length);
      continue;
    }
    const { entity } = action;
    const keyUnits = entity.partitionKey.length + entity.rowKey.length;
    // The keys in the URL (at most 9 bytes a UTF-16 unit percent-encoded) and in the body (at most 6).
    bytes +=
      (KEY_PATH_BYTES_PER_UNIT + JSON_BYTES_PER_UNIT) * keyUnits + '{"PartitionKey":"","RowKey":""}'.length;
    const { properties } = entity;
    // normalizeEntity's properties carry their share, added up when they were checked.
    if (properties instanceof EntityProperties) bytes += properties.payloadBound;
    else for (const name of properties.keys()) bytes += propertyPayloadBound(name, properties.get(name)!);
  }
  return bytes;
}

/** One property's share of `transactionPayloadBound`. */
export function propertyPayloadBound(name: string, value: CheckedValue): number {
  // ,"name@odata.type":"Edm.DateTime" and ,"name":value, each name at most 6 bytes a unit.
  const nameBytes = 2 * (JSON_BYTES_PER_UNIT * name.length + 2) + 21 + "DateTime".length;
  if (typeof value === "string") return nameBytes + JSON_BYTES_PER_UNIT * value.length + 2;
  if (typeof value !== "object") return nameBytes + LONGEST_FIXED_VALUE_BYTES;
  if (value.type === "String") return nameBytes + JSON_BYTES_PER_UNIT * value.value.length + 2;
  if (value.type === "Binary") return nameBytes + 2 + 4 * Math.ceil(value.value.byteLength / 3);
  return nameBytes + LONGEST_FIXED_VALUE_BYTES;
}

/** The most bytes one UTF-16 unit of a key takes percent-encoded (a 3-byte UTF-8 character: %XX%XX%XX). */
const KEY_PATH_BYTES_PER_UNIT = 9;
/** The most bytes one UTF-16 unit takes in a JSON string (a control character: \u001f). */
const JSON_BYTES_PER_UNIT = 6;
/** The longest JSON of a value other than a String or Binary (a Guid in quotes is 38; a DateTime 30). */
const LONGEST_FIXED_VALUE_BYTES = 40;

/**
 * The most bytes of actions (`actionPayloadBytes`) one transaction holds under `limits`: the
 * limit less the framing. What batchers fill a transaction up to.
 */
export function maxActionPayloadBytes(limits: Limits): number {
  return limits.maxTransactionBytes - TRANSACTION_FRAME_BYTES;
}

/**
 * The bytes one action adds to a transaction's request body: its sub-request — delimiter, MIME
 * headers, request line (method, account URL, path, version), headers and JSON body.
 */
export function actionPayloadBytes(
  table: string,
  action: PayloadAction,
  options: PayloadOptions = {},
): number {
  const url = (options.accountUrlBytes ?? PAYLOAD_ACCOUNT_URL_BYTES) + "/".length + table.length;
  switch (action.kind) {
    case "create":
      return (
        PART_FIXED_BYTES +
        "POST ".length +
        url +
        ACCEPT +
        CONTENT_TYPE +
        PREFER +
        entityJsonBytes(action.entity)
      );
    case "delete":
      return (
        PART_FIXED_BYTES +
        "DELETE ".length +
        url +
        keyPathBytes(action.partitionKey, action.rowKey) +
        ACCEPT +
        header("If-Match", action.etag)
      );
    default: {
      const { entity, mode } = action;
      const ifMatch = action.kind === "update" ? header("If-Match", action.etag) : 0;
      return (
        PART_FIXED_BYTES +
        (mode === "Replace" ? "PUT ".length : MERGE_METHOD_BYTES) +
        url +
        keyPathBytes(entity.partitionKey, entity.rowKey) +
        ACCEPT +
        CONTENT_TYPE +
        ifMatch +
        entityJsonBytes(entity)
      );
    }
  }
}

/** `(PartitionKey='…',RowKey='…')` after the table's name: quotes doubled, then percent-encoded. */
function keyPathBytes(partitionKey: string, rowKey: string): number {
  const quoted = (key: string) => encodeURIComponent(key.replaceAll("'", "''")).length;
  return "(PartitionKey='',RowKey='')".length + quoted(partitionKey) + quoted(rowKey);
}

/** `{"PartitionKey":…,"RowKey":…,"name@odata.type":"Edm.Type","name":value,…}` in UTF-8. */
function entityJsonBytes(entity: NormalizedEntity): number {
  let bytes =
    '{"PartitionKey":,"RowKey":}'.length +
    jsonStringBytes(entity.partitionKey) +
    jsonStringBytes(entity.rowKey);
  for (const [name, tv] of entity.properties) {
    const quotedName = jsonStringBytes(name);
    // ,"name@odata.type":"Edm.Type" and ,"name":value
    bytes += 1 + quotedName + "@odata.type".length + ':"Edm."'.length + tv.type.length;
    bytes += 1 + quotedName + 1 + valueBytes(tv);
  }
  return bytes;
}

function valueBytes(tv: TypedValue): number {
  if (tv.type === "String") return jsonStringBytes(tv.value);
  if (tv.type === "Binary") return 2 + 4 * Math.ceil(tv.value.byteLength / 3);
  return Buffer.byteLength(valueJson(tv));
}

/** Characters JSON writes as themselves, one byte each: printable ASCII but `"` and `\`. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The UTF-8 bytes of `JSON.stringify(s)`, quotes and escapes included. */
function jsonStringBytes(s: string): number {
  return PLAIN_JSON.test(s) ? s.length + 2 : Buffer.byteLength(JSON.stringify(s));
}
