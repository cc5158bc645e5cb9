import type { Limits } from "../../src/index.js";
import { bytes } from "./helpers.js";

type Entity = { partitionKey: string; rowKey: string } & Record<string, unknown>;

/** Every account URL counts this many bytes (the longest standard endpoint fits; docs/limits.md). */
const ACCOUNT_URL_BYTES = 64;
const CRLF = "\r\n";
const BATCH = `batch_${"0".repeat(36)}`;
const CHANGESET = `changeset_${"0".repeat(36)}`;

/**
 * The request body of an entity group transaction of creates, as the Table service's REST protocol
 * takes it (docs/limits.md): written out here independently of the library — one changeset, each
 * create an HTTP sub-request whose JSON body annotates every property (String, Binary as base64).
 */
export function requestBodyBytes(table: string, entities: readonly Entity[]): number {
  const frame = [`--${BATCH}`, `Content-Type: multipart/mixed; boundary=${CHANGESET}`, ""].join(CRLF);
  const close = `--${CHANGESET}--${CRLF}--${BATCH}--${CRLF}`;
  let total = Buffer.byteLength(frame) + CRLF.length + Buffer.byteLength(close);
  for (const entity of entities) total += createPartBytes(table, entity);
  return total;
}

function createPartBytes(table: string, entity: Entity): number {
  const json: Record<string, unknown> = { PartitionKey: entity.partitionKey, RowKey: entity.rowKey };
  for (const [name, value] of Object.entries(entity)) {
    if (name === "partitionKey" || name === "rowKey") continue;
    if (typeof value === "string") {
      json[`${name}@odata.type`] = "Edm.String";
      json[name] = value;
    } else if (value instanceof Uint8Array) {
      json[`${name}@odata.type`] = "Edm.Binary";
      json[name] = Buffer.from(value).toString("base64");
    } else throw new Error(`requestBodyBytes: unsupported value for ${name}`);
  }
  const part = [
    `--${CHANGESET}`,
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `POST ${"u".repeat(ACCOUNT_URL_BYTES)}/${table} HTTP/1.1`,
    "DataServiceVersion: 3.0",
    "Accept: application/json;odata=minimalmetadata",
    "Content-Type: application/json",
    "Prefer: return-no-content",
    "",
    JSON.stringify(json),
  ].join(CRLF);
  return Buffer.byteLength(part) + CRLF.length;
}

const FULL_STRING_CHARS = 30_000;
const FULL_BINARY_BYTES = 45_000;
const PROPERTIES_PER_ENTITY = 6; // within 1 MiB (service formula) and DynamoDB's 400 KiB item rule

/**
 * Entities of one partition whose transaction of creates has a request body of exactly `total`
 * bytes (`requestBodyBytes`): large `kind` values, then ASCII String padding for the last bytes.
 */
export function transactionOfBodySize(
  table: string,
  total: number,
  kind: "String" | "Binary",
  limits: Limits,
): Entity[] {
  const full = () =>
    kind === "String"
      ? "s".repeat(Math.min(FULL_STRING_CHARS, limits.maxStringBytes / 2))
      : bytes(FULL_BINARY_BYTES);
  const entities: Entity[] = [];
  const sizes: number[] = [];
  const measure = () => requestBodyBytes(table, []) + sizes.reduce((a, b) => a + b, 0);
  const put = (entity: Entity) => {
    const i = entities.indexOf(entity);
    if (i < 0) {
      entities.push(entity);
      sizes.push(createPartBytes(table, entity));
    } else sizes[i] = createPartBytes(table, entity);
  };
  const reserve = 120_000; // left for padding: a few String properties
  for (;;) {
    let last = entities.at(-1);
    if (!last || Object.keys(last).length - 2 >= PROPERTIES_PER_ENTITY) {
      last = { partitionKey: "p", rowKey: `r${String(entities.length).padStart(3, "0")}` };
    }
    const name = `v${Object.keys(last).length - 2}`;
    const before = measure();
    last[name] = full();
    put(last);
    if (measure() > total - reserve) {
      delete last[name];
      if (Object.keys(last).length === 2) {
        sizes.splice(entities.indexOf(last), 1);
        entities.splice(entities.indexOf(last), 1);
      } else put(last);
      if (measure() !== before) throw new Error("transactionOfBodySize: lost track of the size");
      break;
    }
  }
  const pad: Entity = { partitionKey: "p", rowKey: "zpad" };
  for (let i = 0; ; i++) {
    const name = `z${i}`;
    pad[name] = "";
    put(pad);
    const left = total - measure();
    if (left < 0) throw new Error(`transactionOfBodySize: cannot reach ${total} bytes`);
    const max = Math.min(FULL_STRING_CHARS, limits.maxStringBytes / 2);
    if (left <= max) {
      pad[name] = "z".repeat(left);
      put(pad);
      break;
    }
    pad[name] = "z".repeat(max - 64); // leaves room for the next padding property's name and type
    put(pad);
  }
  if (measure() !== total || requestBodyBytes(table, entities) !== total) {
    throw new Error(`transactionOfBodySize built ${measure()} bytes instead of ${total}`);
  }
  if (entities.length > limits.maxTransactionOperations)
    throw new Error("transactionOfBodySize: too many entities");
  return entities;
}
