import {
  type EdmAnnotated,
  type EdmType,
  METADATA_NAMES,
  type PropertyOutput,
  setOwn,
  type TableEntity,
  type TableEntityResult,
  TableKitError,
  toTypedValue,
} from "../../model/index.js";
import { invalidInput } from "../protocol/protocol-error.js";
import type { MetadataLevel } from "./odata-format.js";
import { JsonNumber, parseJsonWithNumberText, valueJson } from "./wire.js";

/**
 * Entity bodies both ways. Requests become the library's entity objects (every property as an
 * explicit `{ value, type }`), so the core validates them exactly as it validates a library call;
 * results become the service's JSON at the requested metadata level.
 */

/**
 * How many names the JSON text writes (strings followed by a colon), duplicates included. The text
 * is valid JSON (parsed before): every quote outside a string opens one.
 */
function writtenNames(text: string): number {
  let names = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) !== 0x22) continue;
    for (i++; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) break;
    }
    let next = i + 1;
    while (isJsonSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 0x3a) names++;
  }
  return names;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Parses a request body as JSON keeping number texts; a duplicated property is the service's error. */
export function parseEntityJson(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseJsonWithNumberText(text);
  } catch {
    throw invalidInput("The request body is not valid JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidInput("The request body must be a JSON object.");
  }
  const record = parsed as Record<string, unknown>;
  // Entity bodies are flat: a nested value has no EDM type (and would skew the name count below).
  for (const name of Object.keys(record)) {
    const value = record[name];
    // JSON has no Infinity: a number past a Double's range (`1e400`) is a bad value, not ±Infinity.
    const number = value instanceof JsonNumber ? value.value : value;
    if (typeof number === "number" && !Number.isFinite(number)) {
      throw invalidInput(`Property '${name}' has a number outside the range of Edm.Double.`);
    }
    if (typeof value === "object" && value !== null && !(value instanceof JsonNumber)) {
      throw new TableKitError("InvalidValueType", `Property '${name}' has a value of no EDM type.`, {
        details: { property: name },
      });
    }
  }
  // JSON.parse keeps the last of duplicated names: count the names written to notice.
  if (writtenNames(text) > Object.keys(record).length) {
    throw new TableKitError("DuplicatePropertiesSpecified", "A property is specified more than once.");
  }
  return record;
}

/** The service's type of an unannotated JSON value. */
function inferred(name: string, raw: unknown): unknown {
  if (raw instanceof JsonNumber) {
    // Only an integral Double (`5.0`) needs its type said: any other number is a Double as it is.
    return raw.isDoubleLiteral && Number.isInteger(raw.value)
      ? ({ value: raw.value, type: "Double" } satisfies EdmAnnotated)
      : raw.value;
  }
  if (typeof raw === "string" || typeof raw === "boolean" || typeof raw === "number") return raw;
  throw new TableKitError("InvalidValueType", `Property '${name}' has a value of no EDM type.`, {
    details: { property: name },
  });
}

/**
 * The library's entity for a request body. `keys` are the URL's (update, merge, delete); a body
 * naming other keys is refused. Metadata (`odata.*`, `Timestamp`) is ignored, as the service does.
 */
export function entityFromJson(
  body: Record<string, unknown>,
  keys?: { partitionKey: string; rowKey: string },
): TableEntity<Record<string, unknown>> {
  const entity: Record<string, unknown> = {};
  for (const name of Object.keys(body)) {
    if (name === "PartitionKey" || name === "RowKey") {
      const value = body[name];
      const expected = keys && (name === "PartitionKey" ? keys.partitionKey : keys.rowKey);
      if (expected !== undefined && value !== expected) {
        throw invalidInput(`The ${name} of the body does not match the ${name} of the URL.`);
      }
      entity[name === "PartitionKey" ? "partitionKey" : "rowKey"] = value;
      continue;
    }
    if (name === "Timestamp" || name.startsWith("odata.") || name.includes("@")) continue;
    if (METADATA_NAMES.has(name)) {
      throw new TableKitError(
        "NotSupported",
        `A property named '${name}' cannot be stored through the library's entity shape (docs/server.md).`,
        { details: { property: name } },
      );
    }
    const raw = body[name];
    if (raw === null) continue;
    const annotation = body[`${name}@odata.type`];
    if (annotation === undefined) {
      setOwn(entity, name, inferred(name, raw));
      continue;
    }
    if (typeof annotation !== "string" || !annotation.startsWith("Edm.")) {
      throw new TableKitError(
        "InvalidInput",
        `Property '${name}' has the unknown type ${String(annotation)}.`,
      );
    }
    const value = raw instanceof JsonNumber ? raw.value : raw;
    setOwn(entity, name, { value, type: annotation.slice(4) as EdmType } satisfies EdmAnnotated);
  }
  if (keys) {
    entity.partitionKey ??= keys.partitionKey;
    entity.rowKey ??= keys.rowKey;
  }
  // The keys may be missing or not strings: the core's validation answers that, as for a library call.
  return entity as TableEntity<Record<string, unknown>>;
}

/** Where an entity lives: for `odata.metadata`, `odata.id` and `odata.editLink`. */
export interface EntityLinks {
  /** `http://host/account/` */
  readonly baseUrl: string;
  readonly account: string;
  readonly tableName: string;
}

export function entityPath(tableName: string, partitionKey: string, rowKey: string): string {
  const quote = (key: string) => encodeURIComponent(key.replaceAll("'", "''"));
  return `${tableName}(PartitionKey='${quote(partitionKey)}',RowKey='${quote(rowKey)}')`;
}

const ANNOTATED: ReadonlySet<string> = new Set(["Int64", "DateTime", "Guid", "Binary"]);

/**
 * One entity as JSON, without braces' surroundings (the caller places it in a value array or
 * alone). `select` (when given) limits the properties written; keys and Timestamp follow it too.
 */
export function entityJsonText(
  entity: TableEntityResult,
  level: MetadataLevel,
  links: EntityLinks,
  select: readonly string[] | undefined,
  single: boolean,
): string {
  const parts: string[] = [];
  const pk = entity.partitionKey;
  const rk = entity.rowKey;
  if (level !== "nometadata") {
    if (single) {
      parts.push(
        `"odata.metadata":${JSON.stringify(`${links.baseUrl}$metadata#${links.tableName}/@Element`)}`,
      );
    }
    if (level === "fullmetadata" && pk !== undefined && rk !== undefined) {
      const path = entityPath(links.tableName, pk, rk);
      parts.push(
        `"odata.type":${JSON.stringify(`${links.account}.${links.tableName}`)}`,
        `"odata.id":${JSON.stringify(`${links.baseUrl}${path}`)}`,
      );
      parts.push(`"odata.etag":${JSON.stringify(entity.etag)}`, `"odata.editLink":${JSON.stringify(path)}`);
    } else {
      parts.push(`"odata.etag":${JSON.stringify(entity.etag)}`);
    }
  }
  const wants = (name: string) => !select || select.includes(name);
  if (pk !== undefined && wants("PartitionKey")) parts.push(`"PartitionKey":${JSON.stringify(pk)}`);
  if (rk !== undefined && wants("RowKey")) parts.push(`"RowKey":${JSON.stringify(rk)}`);
  if (entity.timestamp !== undefined && wants("Timestamp")) {
    // The service's payload samples annotate Timestamp only under full metadata; clients know its
    // type, and the JS SDK turns an annotated one into a Date where its types say string.
    if (level === "fullmetadata") parts.push(`"Timestamp@odata.type":"Edm.DateTime"`);
    parts.push(`"Timestamp":"${entity.timestamp}"`);
  }
  for (const name of Object.keys(entity)) {
    if (METADATA_NAMES.has(name)) continue;
    const output = (entity as Record<string, PropertyOutput>)[name];
    const key = JSON.stringify(name);
    if (output === null || output === undefined) {
      parts.push(`${key}:null`);
      continue;
    }
    const tv = toTypedValue(name, output)!;
    if (level !== "nometadata") {
      const annotate = ANNOTATED.has(tv.type) || (tv.type === "Double" && !Number.isFinite(tv.value));
      if (annotate) parts.push(`${JSON.stringify(`${name}@odata.type`)}:"Edm.${tv.type}"`);
    }
    parts.push(`${key}:${valueJson(tv)}`);
  }
  return `{${parts.join(",")}}`;
}
