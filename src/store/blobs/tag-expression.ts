import { type ErrorCode, TableKitError } from "../../model/index.js";
import type { BlobTags } from "./blob-tags.js";
import { forbiddenTagCharacter, MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH, MAX_TAGS } from "./blob-tags.js";

/**
 * The Blob service's tag expressions, in its two dialects:
 * - `find` (Find Blobs by Tags, `where=`): comparisons `"key" op 'value'` with `=`, `>`, `>=`, `<`,
 *   `<=`, joined by AND only, and at most one `@container = 'name'`;
 * - `condition` (`x-ms-if-tags`): the same comparisons and `<>`, with AND, OR and parentheses.
 * Keys are double-quoted (or bare letters, digits and `_`), values single-quoted, both from the
 * tags' characters; values compare as strings, code unit by code unit. A comparison on a key the
 * blob lacks is false. A query names at most 10 distinct keys of 1–128 characters and values of at
 * most 256, as the service checks them; a condition is only parsed (a key no blob can have is false).
 */

export type TagOperator = "=" | "<>" | ">" | ">=" | "<" | "<=";

export interface TagComparison {
  readonly key: string;
  readonly op: TagOperator;
  readonly value: string;
}

export type TagCondition =
  | ({ readonly kind: "compare" } & TagComparison)
  | { readonly kind: "and" | "or"; readonly left: TagCondition; readonly right: TagCondition };

/** A parsed `where=`: the comparisons every blob found meets, and the container it names, if any. */
export interface TagQuery {
  readonly text: string;
  readonly container?: string;
  readonly comparisons: readonly TagComparison[];
}

/** A parsed `x-ms-if-tags`: its text (handed to backends that evaluate it themselves) and its tree. */
export interface TagConditions {
  readonly text: string;
  readonly condition: TagCondition;
}

/**
 * Bounds on what the parser reads (tablekit's own: the service documents none beyond the header's
 * and URL's lengths; it takes conditions of 700 comparisons and more).
 */
export const MAX_TAG_EXPRESSION_LENGTH = 16 * 1024;
/** Comparisons in one query (each is one seek or join on the embedded engine). */
export const MAX_TAG_COMPARISONS = 20;
/** Comparisons in one x-ms-if-tags condition. */
export const MAX_CONDITION_COMPARISONS = 1000;

/** A bare key, AND, OR or @container, read in place (sticky: no copy of the rest of the text). */
const WORD = /@?[A-Za-z0-9_]+/y;

type Token =
  | { kind: "key" | "value" | "op" | "word" | "container"; text: string; at: number }
  | { kind: "(" | ")" | "end"; text: string; at: number };

class Parser {
  private readonly tokens: Token[];
  private index = 0;
  comparisons = 0;

  constructor(
    private readonly text: string,
    private readonly code: ErrorCode,
    private readonly dialect: "find" | "condition",
  ) {
    this.tokens = this.tokenize();
  }

  /** The service's wording first (clients look for it), then where and why. */
  fail(why: string, at: number): TableKitError {
    const message =
      this.dialect === "find"
        ? `Error parsing query at or near character position ${at}: ${why}`
        : `The value for one of the HTTP headers is not in the correct format. x-ms-if-tags, at position ${at}: ${why}`;
    return new TableKitError(this.code, message, { position: at, details: { expression: this.text } });
  }

  private tokenize(): Token[] {
    const s = this.text;
    const out: Token[] = [];
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === " " || c === "\t" || c === "\r" || c === "\n") {
        i++;
        continue;
      }
      const at = i;
      if (c === '"' || c === "'") {
        const end = s.indexOf(c, i + 1);
        if (end < 0) throw this.fail(`the ${c === '"' ? "key" : "value"} quoted here is never closed`, at);
        out.push({ kind: c === '"' ? "key" : "value", text: s.slice(i + 1, end), at });
        i = end + 1;
        continue;
      }
      if (c === "(" || c === ")") {
        out.push({ kind: c, text: c, at });
        i++;
        continue;
      }
      const op = /^(<>|>=|<=|=|<|>)/.exec(s.slice(i, i + 2));
      if (op) {
        out.push({ kind: "op", text: op[1]!, at });
        i += op[1]!.length;
        continue;
      }
      WORD.lastIndex = i;
      const word = WORD.exec(s);
      if (!word) throw this.fail(`unexpected character ${JSON.stringify(c)}`, at);
      const text = word[0];
      const upper = text.toUpperCase();
      if (text.startsWith("@")) {
        if (text !== "@container") throw this.fail(`unsupported parameter ${text} (only @container)`, at);
        out.push({ kind: "container", text, at });
      } else if (upper === "AND" || upper === "OR") out.push({ kind: "word", text: upper, at });
      else out.push({ kind: "key", text, at });
      i += text.length;
    }
    out.push({ kind: "end", text: "", at: s.length });
    return out;
  }

  peek(): Token {
    return this.tokens[this.index]!;
  }

  next(): Token {
    return this.tokens[this.index++]!;
  }

  /** `"key" op 'value'` or `@container = 'name'`. */
  comparison(): ({ kind: "compare" } & TagComparison) | { kind: "container"; name: string; at: number } {
    const first = this.next();
    if (first.kind !== "key" && first.kind !== "container") {
      throw this.fail(`expected a tag key ("key") or @container, found ${describe(first)}`, first.at);
    }
    const op = this.next();
    if (op.kind !== "op")
      throw this.fail(`expected an operator after ${first.text}, found ${describe(op)}`, op.at);
    const value = this.next();
    if (value.kind !== "value") {
      throw this.fail(`expected a value in single quotes, found ${describe(value)}`, value.at);
    }
    if (first.kind === "container") {
      if (op.text !== "=") throw this.fail("@container takes = only", op.at);
      return { kind: "container", name: value.text, at: first.at };
    }
    for (const [token, what] of [
      [first, "name"],
      [value, "value"],
    ] as const) {
      const bad = forbiddenTagCharacter(token.text);
      if (bad !== undefined) {
        throw this.fail(
          `the character ${JSON.stringify(bad)} is not permitted in tag name or value (${what})`,
          token.at,
        );
      }
    }
    const find = this.dialect === "find";
    if (find && (first.text.length < 1 || first.text.length > MAX_TAG_KEY_LENGTH)) {
      throw this.fail(`tag must be between 1 and ${MAX_TAG_KEY_LENGTH} characters in length`, first.at);
    }
    if (find && value.text.length > MAX_TAG_VALUE_LENGTH) {
      throw this.fail(
        `tag value must be between 0 and ${MAX_TAG_VALUE_LENGTH} characters in length`,
        value.at,
      );
    }
    if (find && op.text === "<>") throw this.fail("<> is not a Find Blobs by Tags operator", op.at);
    const most = find ? MAX_TAG_COMPARISONS : MAX_CONDITION_COMPARISONS;
    if (++this.comparisons > most)
      throw this.fail(`an expression holds at most ${most} comparisons`, first.at);
    return { kind: "compare", key: first.text, op: op.text as TagOperator, value: value.text };
  }

  /** condition := and (OR and)*; and := primary (AND primary)*; primary := comparison | ( condition ). */
  condition(depth = 0): TagCondition {
    let left = this.conjunction(depth);
    while (this.peek().kind === "word" && this.peek().text === "OR") {
      this.next();
      left = { kind: "or", left, right: this.conjunction(depth) };
    }
    return left;
  }

  private conjunction(depth: number): TagCondition {
    let left = this.primary(depth);
    while (this.peek().kind === "word" && this.peek().text === "AND") {
      this.next();
      left = { kind: "and", left, right: this.primary(depth) };
    }
    return left;
  }

  private primary(depth: number): TagCondition {
    const token = this.peek();
    if (token.kind === "(") {
      if (depth >= 16) throw this.fail("parentheses nest at most 16 deep", token.at);
      this.next();
      const inner = this.condition(depth + 1);
      const close = this.next();
      if (close.kind !== ")") throw this.fail(`expected ), found ${describe(close)}`, close.at);
      return inner;
    }
    const found = this.comparison();
    if (found.kind === "container") throw this.fail("@container belongs to Find Blobs by Tags", found.at);
    return found;
  }
}

function describe(token: Token): string {
  return token.kind === "end" ? "the end of the expression" : JSON.stringify(token.text);
}

function checkLength(text: unknown, code: ErrorCode, what: string): string {
  if (typeof text !== "string" || text.trim() === "") {
    throw new TableKitError(code, `${what} is a non-empty string`, { details: { expression: text } });
  }
  if (text.length > MAX_TAG_EXPRESSION_LENGTH) {
    throw new TableKitError(
      code,
      `${what} has at most ${MAX_TAG_EXPRESSION_LENGTH} characters (${text.length} given)`,
      {
        details: { length: text.length },
      },
    );
  }
  return text;
}

/** Parses a Find Blobs by Tags expression; InvalidQueryParameterValue (400) with the position of the fault. */
export function parseTagQuery(text: unknown): TagQuery {
  const checked = checkLength(text, "InvalidQueryParameterValue", "The tag query (where)");
  const parser = new Parser(checked, "InvalidQueryParameterValue", "find");
  const comparisons: TagComparison[] = [];
  let container: string | undefined;
  for (;;) {
    const found = parser.comparison();
    if (found.kind === "container") {
      if (container !== undefined) throw parser.fail("@container is named once", found.at);
      container = found.name;
    } else comparisons.push({ key: found.key, op: found.op, value: found.value });
    const next = parser.next();
    if (next.kind === "end") break;
    if (next.kind !== "word" || next.text !== "AND") {
      throw parser.fail(
        `expected AND or the end, found ${describe(next)} (Find Blobs by Tags joins with AND only)`,
        next.at,
      );
    }
  }
  if (comparisons.length === 0) throw parser.fail("a tag query compares at least one tag", checked.length);
  const keys = new Set(comparisons.map((c) => c.key)).size;
  if (keys > MAX_TAGS) {
    throw new TableKitError(
      "InvalidQueryParameterValue",
      `Error parsing query: there can be at most ${MAX_TAGS} unique tags in a query (${keys} given)`,
      { details: { expression: checked } },
    );
  }
  return { text: checked, ...(container === undefined ? {} : { container }), comparisons };
}

/** Parses an `x-ms-if-tags` expression; InvalidHeaderValue (400) with the position of the fault. */
export function parseTagConditions(text: unknown): TagConditions {
  const checked = checkLength(text, "InvalidHeaderValue", "The x-ms-if-tags expression");
  const parser = new Parser(checked, "InvalidHeaderValue", "condition");
  const condition = parser.condition();
  const end = parser.next();
  if (end.kind !== "end") throw parser.fail(`expected AND, OR or the end, found ${describe(end)}`, end.at);
  return { text: checked, condition };
}

/** One comparison against a blob's tags (false when the blob lacks the key). */
export function compareTag(tags: BlobTags, c: TagComparison): boolean {
  if (!Object.hasOwn(tags, c.key)) return false;
  const v = tags[c.key]!;
  switch (c.op) {
    case "=":
      return v === c.value;
    case "<>":
      return v !== c.value;
    case ">":
      return v > c.value;
    case ">=":
      return v >= c.value;
    case "<":
      return v < c.value;
    case "<=":
      return v <= c.value;
  }
}

export function evaluateTagCondition(condition: TagCondition, tags: BlobTags): boolean {
  switch (condition.kind) {
    case "compare":
      return compareTag(tags, condition);
    case "and":
      return evaluateTagCondition(condition.left, tags) && evaluateTagCondition(condition.right, tags);
    case "or":
      return evaluateTagCondition(condition.left, tags) || evaluateTagCondition(condition.right, tags);
  }
}

/** Whether a blob's tags meet a query's comparisons (the container is the caller's to check). */
export function matchesTagQuery(query: TagQuery, tags: BlobTags): boolean {
  return query.comparisons.every((c) => compareTag(tags, c));
}

/** The tags of `tags` a query names: what Find Blobs by Tags returns with each blob. */
export function tagsNamedBy(query: TagQuery, tags: BlobTags): BlobTags {
  const out: BlobTags = {};
  for (const c of query.comparisons) if (Object.hasOwn(tags, c.key)) out[c.key] = tags[c.key]!;
  return out;
}

/** The ConditionNotMet of an x-ms-if-tags the blob's tags do not meet. */
export function tagConditionNotMet(name: string | undefined): TableKitError {
  return new TableKitError(
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
    {
      details: { blobName: name, condition: "tags" },
    },
  );
}
