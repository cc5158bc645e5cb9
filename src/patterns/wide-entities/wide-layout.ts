import { randomBytes } from "node:crypto";
import { type CompoundKeyCodec, compoundKey, type PaddedIntCodec, paddedInt } from "../../keys/index.js";
import {
  actionPayloadBytes,
  entitySize,
  type Limits,
  METADATA_NAMES,
  type NormalizedEntity,
  ownValue,
  type PropertyInput,
  TableKitError,
  TRANSACTION_FRAME_BYTES,
  type TypedValue,
  toTypedValue,
  utf8ItemSize,
  validateKey,
  validatePropertyName,
  validateValue,
} from "../../model/index.js";

/** Every part's content version; a part is rewritten (with a new one) only when its content changes. */
export const VERSION_PROPERTY = "tkWideVersion";
/** Part 0 only: the content versions of parts 1..n-1, comma-separated (how a reader detects a torn read). */
export const MANIFEST_PROPERTY = "tkWideParts";
const VERSION_LENGTH = 8;
/** An ETag as long as the service's (`W/"datetime'…'"`), to measure a part's update before it is read. */
const NOMINAL_ETAG = `W/"datetime'${"0".repeat(34)}'"`;

const NO_PROPERTIES: NormalizedEntity = { partitionKey: "", rowKey: "", properties: new Map() };
const EMPTY_SIZE = entitySize(NO_PROPERTIES);
const EMPTY_UTF8_SIZE = utf8ItemSize(NO_PROPERTIES);

/** A new content version: 8 random base64url characters. */
export function newVersion(): string {
  return randomBytes(6).toString("base64url");
}

/** One entity of a wide record, before it is written. */
export interface PartPlan {
  readonly index: number;
  readonly rowKey: string;
  /** The record's properties this part holds, in order. */
  readonly properties: ReadonlyMap<string, TypedValue>;
  /** The bytes its update adds to the transaction's request (`actionPayloadBytes`), meta properties included. */
  readonly bytes: number;
}

/**
 * The keys and the split of wide records in one table: part i of record `rowKey` is RowKey
 * `compoundKey([rowKey, paddedInt(i)])`, so the parts of a record are one key range that holds
 * nothing else (the compound key's terminator keeps `a` apart from `a!00`), in part order.
 */
export class WideLayout {
  readonly keys: CompoundKeyCodec;
  readonly index: PaddedIntCodec<number>;
  /** Most parts a record may have: what one entity group transaction can write. */
  readonly maxParts: number;

  constructor(
    readonly limits: Limits,
    order: "utf16" | "utf8",
    /** The table the records live in: its name is part of each action's request. */
    readonly tableName: string,
  ) {
    this.maxParts = limits.maxTransactionOperations;
    this.keys = compoundKey({ order, names: ["record", "part"] });
    this.index = paddedInt({ max: Math.max(1, this.maxParts - 1) });
  }

  rowKeyOf(rowKey: string, index: number): string {
    return this.keys.encode([rowKey, this.index.encode(index)]);
  }

  /** The record and part a stored RowKey belongs to, or undefined for a key this layout never writes. */
  partOf(storedRowKey: string): { rowKey: string; index: number } | undefined {
    try {
      const parts = this.keys.decode(storedRowKey);
      if (parts.length !== 2) return undefined;
      return { rowKey: parts[0]!, index: this.index.decode(parts[1]!) };
    } catch {
      return undefined;
    }
  }

  /** `[lower, upper)`: the RowKeys of every part of a record. */
  range(rowKey: string): { lower: string; upper?: string } {
    return this.keys.prefixRange([rowKey]);
  }

  /** Checks and types a record's properties (any number, any total size), keeping their order. */
  properties(record: Readonly<Record<string, unknown>>): Map<string, TypedValue> {
    const out = new Map<string, TypedValue>();
    for (const name of Object.keys(record)) {
      if (METADATA_NAMES.has(name)) continue;
      if (name === VERSION_PROPERTY || name === MANIFEST_PROPERTY) {
        throw new TableKitError("InvalidInput", `The property name ${name} is reserved by wide entities`, {
          details: { property: name },
        });
      }
      validatePropertyName(name, this.limits);
      const tv = toTypedValue(name, ownValue(record, name) as PropertyInput);
      if (!tv) continue;
      validateValue(name, tv, this.limits);
      out.set(name, tv);
    }
    return out;
  }

  /**
   * Splits properties over as few parts as the entity limits allow (greedily, in order: a change
   * late in the record leaves the earlier parts as they were). Throws EntityTooLarge, before
   * anything is written, when the record needs more parts than a transaction takes, or more bytes.
   */
  split(partitionKey: string, rowKey: string, properties: ReadonlyMap<string, TypedValue>): PartPlan[] {
    validateKey("PartitionKey", partitionKey, this.limits);
    validateKey("RowKey", rowKey, this.limits);
    validateKey("RowKey", this.rowKeyOf(rowKey, 0), this.limits); // every part's key has this length
    const l = this.limits;
    // Sizes are sums over properties, so a part is measured as its empty form (keys and meta
    // properties, part 0's manifest at its longest) plus each property's share.
    const empty = (index: number) => this.entity(partitionKey, rowKey, index, new Map(), this.maxParts);
    const groups: Map<string, TypedValue>[] = [];
    let current = new Map<string, TypedValue>();
    let base = empty(0);
    let count = base.properties.size;
    let bytes = entitySize(base);
    let utf8 = utf8ItemSize(base);
    for (const [name, value] of properties) {
      const one: NormalizedEntity = { partitionKey: "", rowKey: "", properties: new Map([[name, value]]) };
      const share = entitySize(one) - EMPTY_SIZE;
      const utf8Share = utf8ItemSize(one) - EMPTY_UTF8_SIZE;
      const fits = (n: number, b: number, u: number) =>
        n <= l.maxProperties &&
        b <= l.maxEntityBytes &&
        (l.maxItemBytes === undefined || u <= l.maxItemBytes);
      if (!fits(count + 1, bytes + share, utf8 + utf8Share)) {
        if (current.size === 0)
          throw this.tooLarge(`property ${name} does not fit in one entity`, { property: name });
        groups.push(current);
        if (groups.length >= this.maxParts) throw this.tooManyParts();
        current = new Map();
        base = empty(groups.length);
        [count, bytes, utf8] = [base.properties.size, entitySize(base), utf8ItemSize(base)];
      }
      current.set(name, value);
      count++;
      bytes += share;
      utf8 += utf8Share;
    }
    groups.push(current);
    const parts = groups.map((group, index): PartPlan => {
      const entity = this.entity(partitionKey, rowKey, index, group, groups.length);
      const bytes = actionPayloadBytes(this.tableName, {
        kind: "update",
        entity,
        mode: "Replace",
        etag: NOMINAL_ETAG,
      });
      return { index, rowKey: entity.rowKey, properties: group, bytes };
    });
    this.checkTransactionBytes(parts.reduce((n, p) => n + p.bytes, 0));
    return parts;
  }

  /**
   * EntityTooLarge when a write of the record would pass the transaction's byte limit: `bytes`
   * is the sum of its actions' `actionPayloadBytes` (the framing is added here).
   */
  checkTransactionBytes(bytes: number): void {
    const limit = this.limits.maxTransactionBytes;
    bytes += TRANSACTION_FRAME_BYTES;
    if (bytes > limit) {
      throw this.tooLarge(
        `the record's entities are ${bytes} bytes; one transaction writes at most ${limit}`,
        {
          reason: "bytes",
          size: bytes,
          limit,
        },
      );
    }
  }

  private tooManyParts(): TableKitError {
    return this.tooLarge(
      `the record needs more than ${this.maxParts} entities, the most one transaction writes`,
      {
        reason: "parts",
        limit: this.maxParts,
      },
    );
  }

  /**
   * Part `index` as an entity, with its meta properties (`versions`: the other parts' versions,
   * for part 0; a number stands for that many placeholder versions, to measure the worst case).
   */
  entity(
    partitionKey: string,
    rowKey: string,
    index: number,
    properties: ReadonlyMap<string, TypedValue>,
    versions: number | readonly string[],
    version = "x".repeat(VERSION_LENGTH),
  ): NormalizedEntity {
    const all = new Map(properties);
    all.set(VERSION_PROPERTY, { type: "String", value: version });
    if (index === 0) {
      const manifest =
        typeof versions === "number"
          ? Array.from({ length: Math.max(0, versions - 1) }, () => "x".repeat(VERSION_LENGTH)).join(",")
          : versions.join(",");
      all.set(MANIFEST_PROPERTY, { type: "String", value: manifest });
    }
    return { partitionKey, rowKey: this.rowKeyOf(rowKey, index), properties: all };
  }

  private tooLarge(message: string, details: Record<string, unknown>): TableKitError {
    return new TableKitError("EntityTooLarge", `Wide entity: ${message}`, { details });
  }
}
