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
 * A read-only property Map built when a reader first asks for one: what a property form that is not
 * a Map (checked values, a stored row's JSON) gives the readers of `ReadonlyMap`.
 */
export abstract class LazyPropertyMap implements ReadonlyMap<string, TypedValue> {
  private built: Map<string, TypedValue> | undefined;

  /** The properties as a Map (called once). */
  protected abstract build(): Map<string, TypedValue>;

  private get map(): Map<string, TypedValue> {
    this.built ??= this.build();
    return this.built;
  }

  get size(): number {
    return this.map.size;
  }
  get(name: string): TypedValue | undefined {
    return this.map.get(name);
  }
  has(name: string): boolean {
    return this.map.has(name);
  }
  forEach(callback: (value: TypedValue, key: string, map: ReadonlyMap<string, TypedValue>) => void): void {
    for (const [name, value] of this.map) callback(value, name, this);
  }
  entries(): MapIterator<[string, TypedValue]> {
    return this.map.entries();
  }
  keys(): MapIterator<string> {
    return this.map.keys();
  }
  values(): MapIterator<TypedValue> {
    return this.map.values();
  }
  [Symbol.iterator](): MapIterator<[string, TypedValue]> {
    return this.map.entries();
  }
}

/**
 * A validated entity's properties, as `normalizeEntity` makes them: names and checked values in one
 * flat array, in the caller's order, plus the payload bound's share of the properties, added up in
 * the same walk. A write spends no Map and no typed value per property; a backend that reads it as a
 * Map gets one, built on first use (other backends, merges). Immutable: what it holds was checked.
 */
export class EntityProperties extends LazyPropertyMap {
  constructor(
    /** `[name0, value0, name1, value1, …]`. */
    readonly flat: readonly (string | CheckedValue)[],
    /** The properties' part of `transactionPayloadBound`, counted as it counts them. */
    readonly payloadBound: number,
  ) {
    super();
  }

  protected build(): Map<string, TypedValue> {
    const map = new Map<string, TypedValue>();
    const flat = this.flat;
    for (let i = 0; i < flat.length; i += 2) map.set(flat[i] as string, typedValueOf(flat[i + 1]!));
    return map;
  }

  override get size(): number {
    return this.flat.length / 2;
  }
}
