/**
 * Every member name of `Object.prototype` (`constructor`, `toString`, `__proto__`, the legacy
 * accessors…): valid property and option names that a lookup in a plain object finds by
 * inheritance. Tests that draw user-supplied names draw from this pool too.
 */
export const PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();
