import { type TypedValue, valueText } from "../../model/index.js";

/*
 * What an index entry is, for the index that writes entries and the reader that checks them: apart
 * from both, so the reader needs nothing of the index at run time.
 */

/** The property that marks an index entry (its value: the index's name), so entries are told apart from anything else in a table. */
export const ENTRY_MARKER = "tkIndex";

/** The held values of an entry or entity as one comparable string. */
export function fingerprint(properties: ReadonlyMap<string, TypedValue>): string {
  const parts = [...properties]
    .filter(([name]) => name !== ENTRY_MARKER)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, tv]) => [name, tv.type, valueText(tv)]);
  return JSON.stringify(parts);
}
