import { type Limits, TableKitError, type TypedValue } from "../../model/index.js";

/** The properties an id list is stored in: `ids0`, `ids1`, … (seed 001's `EmployeeIDs`, split). */
const PROPERTY = /^ids(\d+)$/;
/** Between two ids of one property or blob (keys cannot hold control characters, so no id can). */
const SEPARATOR = "\n";

/**
 * A list of ids as properties: ids joined by newlines, each property holding as many whole ids as
 * its String limit takes (`maxStringBytes` of UTF-16), then the next property. Wide entities split
 * the properties over as many entities as the entity limits need.
 */
export class IdListCodec {
  /** Characters one property holds. */
  readonly maxChars: number;

  constructor(limits: Limits) {
    this.maxChars = Math.floor(limits.maxStringBytes / 2);
  }

  /** The properties holding `ids`, in order (none for an empty list). */
  properties(ids: readonly string[]): Map<string, TypedValue> {
    const out = new Map<string, TypedValue>();
    let current: string[] = [];
    let length = 0;
    const flush = () => {
      out.set(`ids${out.size}`, { type: "String", value: current.join(SEPARATOR) });
      current = [];
      length = 0;
    };
    for (const id of ids) {
      const added = current.length === 0 ? id.length : length + SEPARATOR.length + id.length;
      if (added > this.maxChars && current.length > 0) flush();
      current.push(id);
      length = current.length === 1 ? id.length : length + SEPARATOR.length + id.length;
    }
    if (current.length > 0) flush();
    return out;
  }

  /** The ids of a stored record's `idsN` properties, in order. */
  ids(record: Readonly<Record<string, unknown>>): string[] {
    const parts: [number, string][] = [];
    for (const [name, value] of Object.entries(record)) {
      const m = PROPERTY.exec(name);
      if (m && typeof value === "string") parts.push([Number(m[1]), value]);
    }
    parts.sort((a, b) => a[0] - b[0]);
    return parts.flatMap(([, text]) => (text === "" ? [] : text.split(SEPARATOR)));
  }

  /** Checks one id: a non-empty string with no control character, short enough for one property. */
  check(id: unknown): string {
    if (typeof id !== "string" || id === "" || /[\u0000-\u001f]/.test(id) || id.length > this.maxChars) {
      throw new TableKitError(
        "InvalidInput",
        `An id of an id list must be a non-empty string of at most ${this.maxChars} characters without control characters`,
        { details: { id: typeof id === "string" ? id.slice(0, 64) : typeof id } },
      );
    }
    return id;
  }
}

/** The ids of a list as text (a blob's content): one id a line. */
export function idsToText(ids: readonly string[]): string {
  return ids.join(SEPARATOR);
}

/** The ids of a blob's text. */
export function idsOfText(text: string): string[] {
  return text === "" ? [] : text.split(SEPARATOR);
}
