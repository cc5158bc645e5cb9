import { TableKitError } from "../model/index.js";

/** Widest stretch of the filter echoed in an error message; longer filters are cut around the caret. */
const WINDOW = 100;
/** Longest piece of the filter (a literal, a name) quoted in an error's description. */
const EXCERPT = 40;

/**
 * A piece of the filter as an error description quotes it: whole when short, else its start, an
 * ellipsis and its length, so a message stays small whatever the input (`'12345…' (1000000 characters)`).
 */
export function excerpt(text: string): string {
  return text.length <= EXCERPT ? `'${text}'` : `'${text.slice(0, EXCERPT)}…' (${text.length} characters)`;
}

/**
 * A `$filter` error message: the description, the filter text and a caret under `position`.
 * The CLI uses it to show the same picture for any filter it can point into.
 *
 * @example
 * formatFilterError("Expected a value after 'eq'", "Name eq and Age gt 3", 8)
 * // Expected a value after 'eq' at position 8:
 * // Name eq and Age gt 3
 * //         ^
 */
export function formatFilterError(description: string, text: string, position: number): string {
  const at = Math.max(0, Math.min(position, text.length));
  let start = 0;
  let end = text.length;
  if (text.length > WINDOW) {
    start = Math.max(0, Math.min(at - WINDOW / 2, text.length - WINDOW));
    end = Math.min(text.length, start + WINDOW);
  }
  // Tabs and line breaks would knock the caret out of line with the text above it.
  const shown = text.slice(start, end).replace(/\s/g, " ");
  const prefix = start > 0 ? "…" : "";
  const suffix = end < text.length ? "…" : "";
  const caret = `${" ".repeat(prefix.length + at - start)}^`;
  return `${description} at position ${at}:\n${prefix}${shown}${suffix}\n${caret}`;
}

/** A positioned InvalidFilter error. */
export function filterError(
  description: string,
  text: string,
  position: number,
  details?: Record<string, unknown>,
): TableKitError {
  return new TableKitError("InvalidFilter", formatFilterError(description, text, position), {
    position,
    ...(details ? { details } : {}),
  });
}
