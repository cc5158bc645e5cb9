import { isInt32Number, type TypedValue } from "./edm.js";

/**
 * A property's value as `normalizeEntity` keeps it: a string, boolean or number whose EDM type is
 * the one its JS type infers (String, Boolean, Int32 or Double as `isInt32Number` says), or any
 * other value as its TypedValue. A primitive's typed value is made only when a Map reader asks.
 */
export type CheckedValue = string | boolean | number | TypedValue;

/** The TypedValue of a checked value. */
export function typedValueOf(value: CheckedValue): TypedValue {
  switch (typeof value) {
    case "string":
      return { type: "String", value };
    case "boolean":
      return { type: "Boolean", value };
    case "number":
      return isInt32Number(value) ? { type: "Int32", value } : { type: "Double", value };
    default:
      return value;
  }
}

/**
 * A validated entity's properties, as `normalizeEntity` makes them: names and checked values in one
 * flat array, in the caller's order, plus the payload bound's share of the properties, added up in
 * the same walk. A write spends no Map and no typed value per property; a backend that reads it as a
 * Map gets one, built on first use (other backends, merges). Immutable: what it holds was checked.
 */
export class EntityProperties implements ReadonlyMap<string, TypedValue> {
  private map: Map<string, TypedValue> | undefined;

  constructor(
    /** `[name0, value0, name1, value1, …]`. */
    readonly flat: readonly (string | CheckedValue)[],
    /** The properties' part of `transactionPayloadBound`, counted as it counts them. */
    readonly payloadBound: number,
  ) {}

  private get asMap(): Map<string, TypedValue> {
    if (this.map === undefined) {
      const map = new Map<string, TypedValue>();
      const flat = this.flat;
      for (let i = 0; i < flat.length; i += 2) map.set(flat[i] as string, typedValueOf(flat[i + 1]!));
      this.map = map;
    }
    return this.map;
  }

  get size(): number {
    return this.flat.length / 2;
  }
  get(name: string): TypedValue | undefined {
    return this.asMap.get(name);
  }
  has(name: string): boolean {
    return this.asMap.has(name);
  }
  forEach(callback: (value: TypedValue, key: string, map: ReadonlyMap<string, TypedValue>) => void): void {
    for (const [name, value] of this.asMap) callback(value, name, this);
  }
  entries(): MapIterator<[string, TypedValue]> {
    return this.asMap.entries();
  }
  keys(): MapIterator<string> {
    return this.asMap.keys();
  }
  values(): MapIterator<TypedValue> {
    return this.asMap.values();
  }
  [Symbol.iterator](): MapIterator<[string, TypedValue]> {
    return this.asMap.entries();
  }
}
