import { TableKitError } from "../../../model/index.js";

/** A pattern's name, as handler kinds and blob names carry it: a letter, then letters, digits, _ or -. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

/** Checks a pattern's name (InvalidInput naming `what` otherwise). */
export function checkPatternName(name: unknown, what: string): string {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new TableKitError("InvalidInput", `${what} needs a name: a letter, then letters, digits, _ or -`);
  }
  return name;
}
