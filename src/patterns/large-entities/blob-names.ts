import { randomBytes } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import type { BlobCapabilities } from "../../store/index.js";

/**
 * The longest escaped key segment, in UTF-8 bytes. Blob names allow far more, but S3-compatible
 * servers that keep each path segment as a file name (s3rver) fail past about 230 bytes, and one
 * rule everywhere keeps a name that works on one backend working on all.
 */
export const MAX_KEY_SEGMENT_BYTES = 200;
/** The part of a property name a blob's name shows (the manifest, not the name, says which property). */
const PROPERTY_IN_NAME = 64;
const ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}\.[0-9a-f]{20}$/;
const PLAIN = /[A-Za-z0-9_-]/;

/**
 * A key as one blob-name segment: letters, digits, `_`, `-`, `.` (not last) and non-ASCII
 * characters stay; every other character becomes `~XX` per UTF-8 byte; the empty key is `~`.
 * Reversible, never `.`/`..`, never ends in `.`, never holds `/`, `\` or a control character.
 */
export function encodeKeySegment(key: string): string {
  if (key === "") return "~";
  let out = "";
  for (let i = 0; i < key.length; i++) {
    const c = key[i]!;
    const code = c.charCodeAt(0);
    const passes = PLAIN.test(c) || code > 0x9f || (c === "." && i < key.length - 1);
    if (passes) out += c;
    else for (const b of Buffer.from(c, "utf8")) out += `~${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The key an escaped segment stands for; undefined for text `encodeKeySegment` never writes. */
export function decodeKeySegment(segment: string): string | undefined {
  if (segment === "~") return "";
  if (segment === "" || segment.endsWith(".")) return undefined;
  let bytes: number[] = [];
  let out = "";
  for (let i = 0; i < segment.length; ) {
    if (segment[i] === "~") {
      const hex = segment.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 3;
      continue;
    }
    if (bytes.length > 0) {
      out += Buffer.from(bytes).toString("utf8");
      bytes = [];
    }
    out += segment[i];
    i++;
  }
  if (bytes.length > 0) out += Buffer.from(bytes).toString("utf8");
  return encodeKeySegment(out) === segment ? out : undefined;
}

/** Where a blob of a large entity lives, as its name says. */
export interface LargeBlobName {
  readonly partitionKey: string;
  readonly rowKey: string;
}

/**
 * The names of a table's offloaded values: `<prefix><PartitionKey>/<RowKey>/<Property>.<20 hex>`,
 * keys escaped (`encodeKeySegment`). A name is new for every value written (never overwritten:
 * a backend without conditional writes stays safe), and it says whose value it is, so a cleanup
 * pass can check its entity with one point read.
 */
export class LargeBlobNames {
  constructor(
    readonly prefix: string,
    private readonly capabilities: BlobCapabilities,
  ) {}

  /** A fresh name for a value of `property`; KeyValueTooLarge when a key's segment or the name is too long. */
  fresh(partitionKey: string, rowKey: string, property: string): string {
    const id = `${property.slice(0, PROPERTY_IN_NAME)}.${randomBytes(10).toString("hex")}`;
    const name = `${this.entityPrefix(partitionKey, rowKey)}${id}`;
    const length = this.capabilities.blobNameUnit === "utf8" ? Buffer.byteLength(name, "utf8") : name.length;
    if (length > this.capabilities.maxBlobNameLength) {
      throw new TableKitError(
        "KeyValueTooLarge",
        `Large entity: the blob name for ${property} would be ${length} characters; the limit is ${this.capabilities.maxBlobNameLength} (shorten the keys or the prefix)`,
        { details: { size: length, limit: this.capabilities.maxBlobNameLength } },
      );
    }
    return name;
  }

  /** `<prefix><PartitionKey>/<RowKey>/`: every blob of one entity starts so. */
  entityPrefix(partitionKey: string, rowKey: string): string {
    return `${this.prefix}${segment("PartitionKey", partitionKey)}/${segment("RowKey", rowKey)}/`;
  }

  /** The entity a name belongs to; undefined for a name this layout never writes. */
  parse(name: string): LargeBlobName | undefined {
    if (!name.startsWith(this.prefix)) return undefined;
    const parts = name.slice(this.prefix.length).split("/");
    if (parts.length !== 3 || !ID_PATTERN.test(parts[2]!)) return undefined;
    const partitionKey = decodeKeySegment(parts[0]!);
    const rowKey = decodeKeySegment(parts[1]!);
    if (partitionKey === undefined || rowKey === undefined) return undefined;
    return { partitionKey, rowKey };
  }
}

function segment(kind: "PartitionKey" | "RowKey", key: string): string {
  const text = encodeKeySegment(key);
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_KEY_SEGMENT_BYTES) {
    throw new TableKitError(
      "KeyValueTooLarge",
      `Large entity: the ${kind} escaped for a blob name is ${size} bytes; the limit is ${MAX_KEY_SEGMENT_BYTES}`,
      { details: { key: kind, size, limit: MAX_KEY_SEGMENT_BYTES } },
    );
  }
  return text;
}
