import { createHash } from "node:crypto";
import {
  checkEntityLimits,
  type Limits,
  METADATA_NAMES,
  type NormalizedEntity,
  ownValue,
  type PropertyInput,
  TableKitError,
  type TypedValue,
  toTypedValue,
  validateKey,
  validatePropertyName,
  validateValue,
} from "../../model/index.js";

/** The entity's pointer property: which properties live in blobs, and where (JSON). */
export const MANIFEST_PROPERTY = "tkLargeBlobs";

/** One offloaded property, as the manifest records it. */
export interface BlobPointer {
  /** The blob's full name in the container. */
  readonly blob: string;
  readonly type: "String" | "Binary";
  /** The value's length in bytes (UTF-8 for a String). */
  readonly bytes: number;
  /** SHA-256 of the bytes, base64url: a write of the same value reuses the blob. */
  readonly sha256: string;
}

export type Manifest = ReadonlyMap<string, BlobPointer>;

/** A property of a record before it is written: a typed value, or a pointer kept from the stored entity. */
export type PlannedValue =
  | { readonly kind: "value"; readonly value: TypedValue }
  | { readonly kind: "pointer"; readonly pointer: BlobPointer };

/** Where each property of a record goes: the entity, or a blob. */
export interface LargePlan {
  /** Properties the entity holds, in order. */
  readonly inline: ReadonlyMap<string, TypedValue>;
  /** Properties that go to blobs: new values to upload, or pointers kept as they are. */
  readonly offloaded: ReadonlyMap<string, PlannedValue>;
}

/** A placeholder pointer of the longest form a name of `nameLength` gives, to measure the manifest. */
const placeholder = (nameLength: number): BlobPointer => ({
  blob: "x".repeat(nameLength),
  type: "Binary",
  bytes: Number.MAX_SAFE_INTEGER,
  sha256: "x".repeat(43),
});

/**
 * Decides which properties of a large record go to blobs, from the table's limits: every String
 * or Binary value larger than `offloadAbove` (default: the largest value a property may hold), then
 * the largest remaining ones until the entity, with its manifest, fits the backend's entity limits
 * (1 MiB on Azure and embedded; 400 KB measured as UTF-8 on DynamoDB, so more goes to blobs there).
 */
export class LargeLayout {
  readonly offloadAbove: number;

  constructor(
    readonly limits: Limits,
    /** The longest blob name a pointer may hold (to measure the manifest at its worst). */
    private readonly maxNameLength: number,
    offloadAbove?: number,
  ) {
    const largest = Math.min(limits.maxStringBytes, limits.maxBinaryBytes);
    if (offloadAbove !== undefined && (!Number.isSafeInteger(offloadAbove) || offloadAbove < 0)) {
      throw new TableKitError("InvalidInput", `offloadAbove must be a byte count >= 0, got ${offloadAbove}`);
    }
    this.offloadAbove = Math.min(offloadAbove ?? largest, largest);
  }

  /** Checks and types a record's properties, keeping their order (values of any size). */
  properties(record: Readonly<Record<string, unknown>>): Map<string, TypedValue> {
    const out = new Map<string, TypedValue>();
    for (const name of Object.keys(record)) {
      if (METADATA_NAMES.has(name)) continue;
      if (name === MANIFEST_PROPERTY) {
        throw new TableKitError("InvalidInput", `The property name ${name} is reserved by large entities`, {
          details: { property: name },
        });
      }
      validatePropertyName(name, this.limits);
      const tv = toTypedValue(name, ownValue(record, name) as PropertyInput);
      if (!tv) continue;
      if (tv.type === "String" && !tv.value.isWellFormed()) {
        throw new TableKitError("InvalidInput", `Property '${name}' contains an unpaired surrogate`, {
          details: { property: name },
        });
      }
      if (!isOffloadable(tv)) validateValue(name, tv, this.limits);
      out.set(name, tv);
    }
    return out;
  }

  /**
   * Splits a record between the entity and blobs. Throws, before anything is written, what the
   * table would answer for the entity that is left (TooManyProperties, EntityTooLarge) when no
   * offloading makes it fit.
   */
  split(partitionKey: string, rowKey: string, values: ReadonlyMap<string, PlannedValue>): LargePlan {
    validateKey("PartitionKey", partitionKey, this.limits);
    validateKey("RowKey", rowKey, this.limits);
    const inline = new Map<string, TypedValue>();
    const offloaded = new Map<string, PlannedValue>();
    for (const [name, planned] of values) {
      if (
        planned.kind === "pointer" ||
        (isOffloadable(planned.value) && valueBytes(planned.value) > this.offloadAbove)
      ) {
        offloaded.set(name, planned);
      } else inline.set(name, planned.value);
    }
    for (;;) {
      const problem = this.misfit(partitionKey, rowKey, inline, offloaded.size);
      if (!problem) return { inline, offloaded };
      const largest = [...inline]
        .filter(([, tv]) => isOffloadable(tv))
        .sort(([, a], [, b]) => valueBytes(b) - valueBytes(a))[0];
      if (!largest || problem.code === "TooManyProperties") throw problem;
      inline.delete(largest[0]);
      offloaded.set(largest[0], { kind: "value", value: largest[1] });
    }
  }

  /** The entity as written: the inline properties and the manifest. */
  entity(
    partitionKey: string,
    rowKey: string,
    inline: ReadonlyMap<string, TypedValue>,
    manifest: Manifest,
  ): NormalizedEntity {
    const properties = new Map(inline);
    if (manifest.size > 0)
      properties.set(MANIFEST_PROPERTY, { type: "String", value: encodeManifest(manifest) });
    return { partitionKey, rowKey, properties };
  }

  /** What the table would refuse about the entity, its manifest measured at its longest; undefined if it fits. */
  private misfit(
    partitionKey: string,
    rowKey: string,
    inline: ReadonlyMap<string, TypedValue>,
    offloadedCount: number,
  ): TableKitError | undefined {
    const worst = new Map<string, BlobPointer>();
    for (let i = 0; i < offloadedCount; i++) worst.set(`p${i}`, placeholder(this.maxNameLength));
    const entity = this.entity(partitionKey, rowKey, inline, worst);
    try {
      const manifest = entity.properties.get(MANIFEST_PROPERTY);
      if (manifest) validateValue(MANIFEST_PROPERTY, manifest, this.limits);
      checkEntityLimits(entity, this.limits);
      return undefined;
    } catch (err) {
      if (err instanceof TableKitError) {
        if (err.code === "PropertyValueTooLarge") {
          return new TableKitError(
            "EntityTooLarge",
            `Large entity: ${offloadedCount} offloaded properties need a manifest larger than a property holds`,
            { details: { reason: "manifest", offloaded: offloadedCount }, cause: err },
          );
        }
        return err;
      }
      throw err;
    }
  }
}

/** String and Binary values are what blobs take. */
function isOffloadable(tv: TypedValue): tv is Extract<TypedValue, { type: "String" | "Binary" }> {
  return tv.type === "String" || tv.type === "Binary";
}

/** A value's size as the table measures it (String: UTF-16 bytes). */
function valueBytes(tv: TypedValue): number {
  if (tv.type === "String") return tv.value.length * 2;
  if (tv.type === "Binary") return tv.value.byteLength;
  return 0;
}

/** The bytes a blob holds for a value: UTF-8 for a String, as is for Binary. */
export function blobBytes(tv: TypedValue): Uint8Array {
  if (tv.type === "String") return Buffer.from(tv.value, "utf8");
  if (tv.type === "Binary") return tv.value;
  throw new TableKitError("InvalidInput", `Only String and Binary values go to blobs, not ${tv.type}`);
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64url");
}

export function encodeManifest(manifest: Manifest): string {
  return JSON.stringify(Object.fromEntries(manifest));
}

/** The manifest a stored entity holds (empty when it has none). */
export function decodeManifest(value: unknown, where: string): Map<string, BlobPointer> {
  const out = new Map<string, BlobPointer>();
  if (value === undefined || value === null) return out;
  try {
    if (typeof value !== "string") throw new Error("not a string");
    const parsed = JSON.parse(value) as Record<string, Partial<BlobPointer>>;
    for (const [name, p] of Object.entries(parsed)) {
      if (
        typeof p?.blob !== "string" ||
        (p.type !== "String" && p.type !== "Binary") ||
        typeof p.bytes !== "number" ||
        typeof p.sha256 !== "string"
      ) {
        throw new Error(`bad pointer for ${name}`);
      }
      out.set(name, { blob: p.blob, type: p.type, bytes: p.bytes, sha256: p.sha256 });
    }
    return out;
  } catch (err) {
    throw new TableKitError(
      "BackendError",
      `Large entity ${where}: its ${MANIFEST_PROPERTY} is not a manifest`,
      {
        cause: err,
      },
    );
  }
}
