import type { TypedValue } from "../model/index.js";
import type { CompareOp, FilterConstant, ParsedFilter } from "./ast.js";
import { excerpt, filterError } from "./errors.js";
import { Lexer, type Token } from "./lexer.js";
import { LiteralProblem, readNumber, readPrefixed } from "./literals.js";

export interface ParseFilterOptions {
  /** Most comparisons a filter may hold (the Table service allows 15). */
  readonly maxComparisons?: number;
  /** Deepest nesting of parentheses and `not` (a guard for the parser's stack, not a service rule). */
  readonly maxDepth?: number;
  /** Longest filter, in UTF-16 code units (docs/filter.md says why 32,768). */
  readonly maxLength?: number;
}

/** The Table service's limit on comparisons in one `$filter`. */
export const DEFAULT_MAX_COMPARISONS = 15;
export const DEFAULT_MAX_DEPTH = 100;
/**
 * The longest filter accepted. The Table service documents no number, but a filter travels in the
 * request URL, which HTTP front ends cap; this fits 15 comparisons of maximum-size keys, and keeps
 * parsing and error messages small (docs/filter.md).
 */
export const DEFAULT_MAX_FILTER_LENGTH = 32_768;

const COMPARE_OPS: ReadonlySet<string> = new Set(["eq", "ne", "gt", "ge", "lt", "le"]);
const KEYWORDS: ReadonlySet<string> = new Set([...COMPARE_OPS, "and", "or", "not", "true", "false", "null"]);
/** The operator that keeps a comparison's meaning when its operands swap sides. */
const SWAPPED: Readonly<Record<CompareOp, CompareOp>> = {
  eq: "eq",
  ne: "ne",
  gt: "lt",
  ge: "le",
  lt: "gt",
  le: "ge",
};

type Operand =
  | { readonly kind: "property"; readonly name: string; readonly start: number }
  | { readonly kind: "constant"; readonly value: TypedValue; readonly start: number };

/**
 * Parses a `$filter` expression of the Table service into a FilterNode, or into a FilterConstant
 * when the whole filter is one (`true`, `false`, `not (true)`, `false and X`): boolean constants are
 * folded away wherever they appear.
 * Throws TableKitError `InvalidFilter` with `position` (0-based offset) and a message that shows the
 * filter with a caret under the problem.
 *
 * @example parseFilter("PartitionKey eq 'p1' and Age gt 30")
 */
export function parseFilter(text: string, options: ParseFilterOptions = {}): ParsedFilter {
  const maxLength = options.maxLength ?? DEFAULT_MAX_FILTER_LENGTH;
  if (text.length > maxLength) {
    throw filterError(`Filter is ${text.length} characters long; the most is ${maxLength}`, text, maxLength, {
      limit: maxLength,
    });
  }
  return new Parser(text, options).parse();
}

class Parser {
  private readonly lexer: Lexer;
  private current: Token;
  private comparisons = 0;
  private depth = 0;
  private readonly maxComparisons: number;
  private readonly maxDepth: number;

  constructor(
    private readonly text: string,
    options: ParseFilterOptions,
  ) {
    this.lexer = new Lexer(text);
    this.current = this.lexer.next();
    this.maxComparisons = options.maxComparisons ?? DEFAULT_MAX_COMPARISONS;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  parse(): ParsedFilter {
    const node = this.parseOr();
    const t = this.peek();
    if (t.kind !== "end") {
      throw this.error(
        t.kind === "close" ? "Unexpected ')' without a matching '('" : this.expectedConnective(t),
        t.start,
      );
    }
    return node;
  }

  private parseOr(): ParsedFilter {
    let left = this.parseAnd();
    while (this.isWord(this.peek(), "or")) {
      this.advance();
      left = connect("or", left, this.parseAnd());
    }
    return left;
  }

  private parseAnd(): ParsedFilter {
    let left = this.parseUnary();
    while (this.isWord(this.peek(), "and")) {
      this.advance();
      left = connect("and", left, this.parseUnary());
    }
    return left;
  }

  private parseUnary(): ParsedFilter {
    const t = this.peek();
    if (this.isWord(t, "not")) {
      this.advance();
      const next = this.peek();
      if (next.kind !== "open" && !this.isWord(next, "not")) {
        throw this.error("'not' applies to a parenthesized expression: write not (…)", next.start);
      }
      return this.nested(t.start, () => {
        const operand = this.parseUnary();
        return operand.kind === "constant" ? constant(!operand.value) : { kind: "not", operand };
      });
    }
    if (t.kind === "open") {
      this.advance();
      const inner = this.nested(t.start, () => this.parseOr());
      const close = this.peek();
      if (close.kind !== "close") {
        throw this.error(
          close.kind === "end"
            ? `Expected ')' to close the '(' at position ${t.start}`
            : this.expectedConnective(close, "')'"),
          close.start,
        );
      }
      this.advance();
      return inner;
    }
    return this.parseComparison();
  }

  private nested(start: number, parse: () => ParsedFilter): ParsedFilter {
    if (++this.depth > this.maxDepth) {
      throw this.error(`Filter nests deeper than ${this.maxDepth} levels`, start, { limit: this.maxDepth });
    }
    const node = parse();
    this.depth--;
    return node;
  }

  private parseComparison(): ParsedFilter {
    const first = this.peek();
    if (first.kind === "end" || first.kind === "close" || this.isConnective(first)) {
      throw this.error("Expected a comparison", first.start);
    }
    const left = this.parseOperand();
    // A boolean constant stands alone as an expression (`$filter=true`, `true and …`): the OData
    // grammar's boolCommonExpr takes any boolean-valued expression, a literal included.
    if (left.kind === "constant" && left.value.type === "Boolean" && !this.isCompareOp(this.peek())) {
      return constant(left.value.value);
    }
    if (++this.comparisons > this.maxComparisons) {
      throw this.error(`Filter has more than ${this.maxComparisons} comparisons`, first.start, {
        limit: this.maxComparisons,
      });
    }
    const opToken = this.peek();
    if (opToken.kind !== "word" || !COMPARE_OPS.has(opToken.text)) {
      const what = left.kind === "property" ? excerpt(left.name) : "a value";
      const hint =
        opToken.kind === "word" && COMPARE_OPS.has(opToken.text.toLowerCase())
          ? ` (operators are lowercase: '${opToken.text.toLowerCase()}')`
          : "";
      throw this.error(
        `Expected a comparison operator (eq ne gt ge lt le) after ${what}${hint}`,
        opToken.start,
      );
    }
    this.advance();
    const op = opToken.text as CompareOp;
    const valueToken = this.peek();
    if (valueToken.kind === "end" || valueToken.kind === "close" || this.isConnective(valueToken)) {
      throw this.error(`Expected a value after '${op}'`, valueToken.start);
    }
    const right = this.parseOperand();
    const after = this.peek();
    if (after.kind === "word" && COMPARE_OPS.has(after.text)) {
      throw this.error("Comparisons cannot be chained: join them with 'and' or 'or'", after.start);
    }
    if (left.kind === "property" && right.kind === "constant") {
      return { kind: "compare", op, property: left.name, value: right.value, position: left.start };
    }
    if (left.kind === "constant" && right.kind === "property") {
      return {
        kind: "compare",
        op: SWAPPED[op],
        property: right.name,
        value: left.value,
        position: left.start,
      };
    }
    throw this.error(
      left.kind === "property"
        ? "A comparison must compare a property with a constant, not two properties"
        : "A comparison must compare a property with a constant, not two constants",
      left.start,
    );
  }

  private parseOperand(): Operand {
    const t = this.next();
    switch (t.kind) {
      case "string":
        return { kind: "constant", value: { type: "String", value: t.value }, start: t.start };
      case "number":
        return { kind: "constant", value: this.literal(readNumber(t.text), t.start), start: t.start };
      case "prefixed":
        return {
          kind: "constant",
          value: this.literal(readPrefixed(t.type, t.content), t.start),
          start: t.start,
        };
      case "word":
        return this.wordOperand(t);
      default:
        throw this.error("Expected a property name or a value", t.start);
    }
  }

  private wordOperand(t: Token & { kind: "word" }): Operand {
    if (t.text === "true" || t.text === "false") {
      return { kind: "constant", value: { type: "Boolean", value: t.text === "true" }, start: t.start };
    }
    if (t.text === "null") {
      throw this.error("The Table service has no null literal (a missing property never matches)", t.start);
    }
    if (KEYWORDS.has(t.text))
      throw this.error(`Expected a property name or a value, not ${excerpt(t.text)}`, t.start);
    if (this.peek().kind === "open") {
      throw this.error(
        `Functions such as ${excerpt(t.text)}(…) are not supported by the Table service`,
        t.start,
      );
    }
    if (t.text === "True" || t.text === "False" || t.text === "TRUE" || t.text === "FALSE") {
      throw this.error(`Boolean literals are lowercase: '${t.text.toLowerCase()}'`, t.start);
    }
    return { kind: "property", name: t.text, start: t.start };
  }

  private literal(result: TypedValue | LiteralProblem, start: number): TypedValue {
    if (result instanceof LiteralProblem) throw this.error(result.description, start);
    return result;
  }

  private expectedConnective(t: Token, alternative = "the end of the filter"): string {
    if (t.kind === "word" && (t.text.toLowerCase() === "and" || t.text.toLowerCase() === "or")) {
      return `Expected 'and', 'or' or ${alternative} (operators are lowercase: '${t.text.toLowerCase()}')`;
    }
    return `Expected 'and', 'or' or ${alternative}`;
  }

  private isCompareOp(t: Token): boolean {
    return t.kind === "word" && COMPARE_OPS.has(t.text);
  }

  private isConnective(t: Token): boolean {
    return this.isWord(t, "and") || this.isWord(t, "or");
  }

  private isWord(t: Token, word: string): boolean {
    return t.kind === "word" && t.text === word;
  }

  private peek(): Token {
    return this.current;
  }

  private advance(): void {
    this.current = this.lexer.next();
  }

  private next(): Token {
    const t = this.current;
    this.advance();
    return t;
  }

  private error(description: string, position: number, details?: Record<string, unknown>) {
    return filterError(description, this.text, position, details);
  }
}

function constant(value: boolean): FilterConstant {
  return { kind: "constant", value };
}

/** `left kind right`, with boolean constants folded away (so a constant never sits inside a tree). */
function connect(kind: "and" | "or", left: ParsedFilter, right: ParsedFilter): ParsedFilter {
  // `true and X` is X, `false and X` is false; `false or X` is X, `true or X` is true.
  const identity = kind === "and";
  if (left.kind === "constant") return left.value === identity ? right : left;
  if (right.kind === "constant") return right.value === identity ? left : right;
  return { kind, left, right };
}
