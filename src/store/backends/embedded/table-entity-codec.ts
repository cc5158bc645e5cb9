import {
  DateTime,
  dateTimeWithText,
  type EdmType,
  EntityProperties,
  epochMillisecondsOfTicks,
  fromTypedValue,
  isInt32Number,
  isoOfEtag,
  LazyPropertyMap,
  type PropertyWriter,
  type StoredEntity,
  sdkDouble,
  setOwn,
  TableKitError,
  type TypedValue,
  type ValueForm,
} from "../../../model/index.js";

/**
 * Properties are stored as one JSON object so SQL can filter on them. Each key is
 * `"<type code>:<name>"`, so a filter that extracts a name under the wrong type code finds nothing
 * (comparisons across types are false). Values are chosen so SQLite compares them exactly:
 * Int64 and DateTime ticks as strings of digits (compared via CAST AS INTEGER: exact 64-bit),
 * Doubles as JSON numbers that always parse as REAL (`5.0`, `-0.0`, `1e999` for Infinity,
 * `null` for NaN), Binary as lowercase hex (hex order is byte order), Guid as lowercase text.
 */

export const TYPE_CODES: Readonly<Record<EdmType, string>> = {
  String: "s",
  Int32: "i",
  Int64: "l",
  Double: "d",
  Boolean: "b",
  DateTime: "t",
  Guid: "g",
  Binary: "x",
};

/** The JSON object key a property of this type and name is stored under. */
export function storedPropertyKey(type: EdmType, name: string): string {
  return `${TYPE_CODES[type]}:${name}`;
}

/** `"<code>:<name>":` by name, then by type, memoised: property names repeat across entities. */
const quotedKeys = new Map<string, Partial<Record<EdmType, string>>>();
const storedKeys = new Map<string, Partial<Record<EdmType, string>>>();
const MAX_QUOTED_KEYS = 10_000;

function memoisedKey(
  cache: Map<string, Partial<Record<EdmType, string>>>,
  type: EdmType,
  name: string,
  make: (stored: string) => string,
): string {
  let byType = cache.get(name);
  if (byType === undefined) {
    if (cache.size >= MAX_QUOTED_KEYS) cache.clear();
    byType = {};
    cache.set(name, byType);
  }
  let key = byType[type];
  if (key === undefined) {
    key = make(storedPropertyKey(type, name));
    byType[type] = key;
  }
  return key;
}

const quoted = (stored: string) => `${JSON.stringify(stored)}:`;
const asIs = (stored: string) => stored;

/**
 * The JSON text of a property map: one `JSON.stringify` of an object keyed by stored key, which
 * writes one flat string (concatenating per property made a string per piece, most of what a
 * transaction allocated). A Double that JSON would not write as REAL (integral, -0, NaN,
 * Infinity) takes the hand-written form instead.
 */
export function encodeProperties(properties: ReadonlyMap<string, TypedValue>): string {
  if (properties instanceof EntityProperties) return encodeChecked(properties);
  const stored: Record<string, unknown> = {};
  for (const name of properties.keys()) {
    const tv = properties.get(name)!;
    const value = jsonValue(tv);
    if (value === undefined) return encodePropertiesByHand(properties);
    stored[memoisedKey(storedKeys, tv.type, name, asIs)] = value;
  }
  return JSON.stringify(stored);
}

/**
 * The stored keys of the last entity encoded, by position: the entities of a table, and all those of
 * a transaction, mostly share one shape, so a key is found by comparing a name and a type (by
 * identity) instead of looking it up.
 */
const lastNames: string[] = [];
const lastTypes: EdmType[] = [];
const lastKeys: string[] = [];

function storedKeyAt(position: number, type: EdmType, name: string): string {
  if (lastNames[position] === name && lastTypes[position] === type) return lastKeys[position]!;
  const key = memoisedKey(storedKeys, type, name, asIs);
  lastNames[position] = name;
  lastTypes[position] = type;
  lastKeys[position] = key;
  return key;
}

/**
 * The object an entity's stored JSON is written from: made by `new`, so V8 gives it room for the
 * properties such objects are seen to get (a `{}` holds four before it grows a separate store).
 */
class StoredJson {}

/**
 * `encodeProperties` of the core's checked properties, read from their flat array: a plain value's
 * type is the one it infers (no typed value to read it from), any other value is a TypedValue.
 */
function encodeChecked(properties: EntityProperties): string {
  const { flat } = properties;
  const stored = new StoredJson() as Record<string, unknown>;
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    const value = flat[i + 1]!;
    const position = i >> 1;
    if (typeof value === "string") stored[storedKeyAt(position, "String", name)] = value;
    else if (typeof value === "number") {
      if (isInt32Number(value)) stored[storedKeyAt(position, "Int32", name)] = value;
      else if (Number.isFinite(value) && !Number.isInteger(value)) {
        stored[storedKeyAt(position, "Double", name)] = value;
      } else return encodePropertiesByHand(properties);
    } else if (typeof value === "boolean") stored[storedKeyAt(position, "Boolean", name)] = value;
    else {
      const json = jsonValue(value);
      if (json === undefined) return encodePropertiesByHand(properties);
      stored[storedKeyAt(position, value.type, name)] = json;
    }
  }
  return JSON.stringify(stored);
}

/** What `JSON.stringify` writes as `encodeValue` would; undefined for a Double it would not. */
function jsonValue(tv: TypedValue): unknown {
  switch (tv.type) {
    case "Double": {
      const x = tv.value;
      return Number.isFinite(x) && !Number.isInteger(x) ? x : undefined;
    }
    case "Int64":
      return String(tv.value);
    case "DateTime":
      return String(tv.value.ticks);
    case "Binary":
      return Buffer.from(tv.value.buffer, tv.value.byteOffset, tv.value.byteLength).toString("hex");
    default:
      return tv.value;
  }
}

function encodePropertiesByHand(properties: ReadonlyMap<string, TypedValue>): string {
  let out = "{";
  for (const [name, tv] of properties) {
    if (out.length > 1) out += ",";
    out += memoisedKey(quotedKeys, tv.type, name, quoted);
    out += encodeValue(tv);
  }
  return out + "}";
}

function encodeValue(tv: TypedValue): string {
  switch (tv.type) {
    case "String":
    case "Guid":
      return JSON.stringify(tv.value);
    case "Int32":
      return String(tv.value);
    case "Int64":
      return `"${tv.value}"`;
    case "Double":
      return encodeDouble(tv.value);
    case "Boolean":
      return tv.value ? "true" : "false";
    case "DateTime":
      return `"${tv.value.ticks}"`;
    case "Binary":
      return `"${Buffer.from(tv.value.buffer, tv.value.byteOffset, tv.value.byteLength).toString("hex")}"`;
  }
}

/** A Double as a JSON number that SQLite reads as REAL and JSON.parse reads back bit-exactly. */
export function encodeDouble(x: number): string {
  if (Number.isNaN(x)) return "null";
  if (x === Number.POSITIVE_INFINITY) return "1e999";
  if (x === Number.NEGATIVE_INFINITY) return "-1e999";
  if (Object.is(x, -0)) return "-0.0";
  const s = String(x);
  // SQLite parses "123" as INTEGER, which is exact for integers but not for a Double beyond 2^53
  // ("132485911247283150" is not the Double 1.3248591124728315e17): force REAL with ".0".
  return Number.isInteger(x) && !s.includes("e") ? `${s}.0` : s;
}

/**
 * The property map of stored JSON text. With `select`, only those names are decoded (the core
 * projects the result itself; this just skips work).
 */
export function decodeProperties(text: string, select?: ReadonlySet<string>): Map<string, TypedValue> {
  return decodeParsed(JSON.parse(text) as Record<string, unknown>, select);
}

function decodeParsed(
  raw: Record<string, unknown>,
  select: ReadonlySet<string> | undefined,
): Map<string, TypedValue> {
  const out = new Map<string, TypedValue>();
  for (const key in raw) {
    const name = propertyName(key);
    if (select !== undefined && !select.has(name)) continue;
    out.set(name, decodeValue(key.charCodeAt(0), raw[key], name));
  }
  return out;
}

/**
 * The properties of a row read, decoded when first asked for: a read that only builds its result
 * (`toEntityResult`, through `writeProperties`) makes no typed value and no map at all, which
 * halves what a page of entities allocates.
 */
class StoredProperties extends LazyPropertyMap implements PropertyWriter {
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly select: ReadonlySet<string> | undefined,
  ) {
    super();
  }

  writeProperties(out: Record<string, unknown>, form?: ValueForm): void {
    const { raw, select } = this;
    const sdk = form === "sdk";
    let position = 0;
    for (const key in raw) {
      const name = propertyNameAt(position++, key);
      if (select !== undefined && !select.has(name)) continue;
      const code = key.charCodeAt(0);
      const value = sdk ? sdkOutputValue(code, raw[key], name) : outputValue(code, raw[key], name);
      if (name === "__proto__") setOwn(out, name, value);
      else out[name] = value;
    }
  }

  protected build(): Map<string, TypedValue> {
    return decodeParsed(this.raw, this.select);
  }
}

/** What a read returns for a stored value: `fromTypedValue(decodeValue(…))`, without the typed value where it is the value itself. */
function outputValue(code: number, v: unknown, name: string): unknown {
  return code === S || code === I || code === B ? v : fromTypedValue(decodeValue(code, v, name));
}

/**
 * `sdkValueOf(decodeValue(…))`: a DateTime's Date straight from its stored ticks (no BigInt, no
 * DateTime), a Binary's Buffer straight from its hex.
 */
function sdkOutputValue(code: number, v: unknown, name: string): unknown {
  switch (code) {
    case S:
    case I:
    case B:
      return v;
    case T:
      return new Date(epochMillisecondsOfTicks(v as string));
    case D:
      return v === null ? "NaN" : sdkDouble(v as number);
    case L:
      return BigInt(v as string);
    case G:
      return { value: v, type: "Guid" };
    case X:
      return Buffer.from(v as string, "hex");
    default:
      return decodeValue(code, v, name); // throws: an unknown type code
  }
}

/**
 * The stored keys of the last row written out, by position, and their names: a table's rows mostly
 * share one shape, and JSON.parse gives its keys as internalized strings, so a key is matched by
 * identity instead of looked up.
 */
const readKeys: string[] = [];
const readNames: string[] = [];

function propertyNameAt(position: number, storedKey: string): string {
  if (readKeys[position] === storedKey) return readNames[position]!;
  const name = propertyName(storedKey);
  readKeys[position] = storedKey;
  readNames[position] = name;
  return name;
}

/** Property names by stored key (`"s:name"` -> `name`), memoised: slicing makes a new string to hash each time. */
const propertyNames = new Map<string, string>();

function propertyName(storedKey: string): string {
  let name = propertyNames.get(storedKey);
  if (name === undefined) {
    if (propertyNames.size >= MAX_QUOTED_KEYS) propertyNames.clear();
    name = storedKey.slice(2);
    propertyNames.set(storedKey, name);
  }
  return name;
}

/**
 * An entity as stored in a row: keys already mapped back (table-key-order.ts), the properties'
 * JSON, the Timestamp's ticks and the ETag, whose text holds the Timestamp's ISO form, so reading
 * a Timestamp formats nothing.
 */
export function decodeEntity(
  partitionKey: string,
  rowKey: string,
  properties: string,
  ticks: bigint,
  etag: string,
  select?: ReadonlySet<string>,
): StoredEntity {
  const iso = isoOfEtag(etag);
  return {
    partitionKey,
    rowKey,
    properties: new StoredProperties(JSON.parse(properties) as Record<string, unknown>, select),
    etag,
    timestamp: iso === undefined ? DateTime.fromTicks(ticks) : dateTimeWithText(ticks, iso),
  };
}

const S = 0x73;
const I = 0x69;
const L = 0x6c;
const D = 0x64;
const B = 0x62;
const T = 0x74;
const G = 0x67;
const X = 0x78;

function decodeValue(code: number, v: unknown, name: string): TypedValue {
  switch (code) {
    case S:
      return { type: "String", value: v as string };
    case I:
      return { type: "Int32", value: v as number };
    case L:
      return { type: "Int64", value: BigInt(v as string) };
    case D:
      return { type: "Double", value: v === null ? Number.NaN : (v as number) };
    case B:
      return { type: "Boolean", value: v as boolean };
    case T:
      return { type: "DateTime", value: DateTime.fromTicks(BigInt(v as string)) };
    case G:
      return { type: "Guid", value: v as string };
    case X:
      return { type: "Binary", value: new Uint8Array(Buffer.from(v as string, "hex")) };
    default:
      throw new TableKitError("BackendError", `Stored property '${name}' has an unknown type code`);
  }
}
