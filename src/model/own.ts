/**
 * Lookups by user-supplied names (property, field, option or scheme names) in plain objects.
 * `obj[name]` finds inherited members (`constructor`, `toString`, the `__proto__` accessor), and
 * `obj[name] = v` with `__proto__` replaces the prototype instead of storing a value.
 */

/** The object's own value under `name`, or undefined: never an inherited member. */
export function ownValue<T>(object: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

/** Sets an own, enumerable property, even one named `__proto__`. */
export function setOwn(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__")
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  else object[name] = value;
}
