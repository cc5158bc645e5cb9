import { type CompareOp, type FilterNode, INFIX_OPERATORS } from "../../../filter/ast.js";
import { orderTest } from "../../../filter/evaluate.js";
import { compareUtf16, type TypedValue } from "../../../model/index.js";
import {
  allOf,
  anyOf,
  type Condition,
  type DynamoDbExpressionBuilder,
  negate,
} from "./table-expression-builder.js";
import {
  attributeName,
  type DynamoAttributeValue,
  encodeDouble,
  encodeKey,
  encodeValue,
  PARTITION_KEY_ATTRIBUTE,
  PLAIN_DOUBLE_MAX,
  PLAIN_DOUBLE_MIN,
  ROW_KEY_ATTRIBUTE,
  TIMESTAMP_ATTRIBUTE,
} from "./table-item-layout.js";

/**
 * `$filter` as a DynamoDB FilterExpression over tablekit's item layout (`item-layout.ts`,
 * docs/dynamodb.md). Building the expression is separate from sending it, so the translation is
 * testable without a server.
 */

export interface DynamoFilterContext {
  /**
   * Set when the filter runs inside a Query of this one partition. A Query's FilterExpression may
   * not name key attributes, so PartitionKey comparisons are decided here and RowKey comparisons
   * are left to the client.
   */
  readonly partitionKey?: string;
}

export interface DynamoFilter {
  /** What to send as (part of) the FilterExpression: `true` lets every item through. */
  readonly condition: Condition;
  /** False when `condition` only over-approximates: apply `evaluateFilter` to what comes back. */
  readonly exact: boolean;
}

/** Bounds on a filter: `sub` implies it, it implies `sup`; exact when they coincide. */
interface Bounds {
  readonly sub: Condition;
  readonly sup: Condition;
  readonly exact: boolean;
}

const exactly = (c: Condition): Bounds => ({ sub: c, sup: c, exact: true });
/** Left to the client: nothing is certain, `possible` over-approximates. */
const onClient = (possible: Condition): Bounds => ({ sub: false, sup: possible, exact: false });

/**
 * Translates a filter with the typed semantics of `evaluateFilter` (a missing property or another
 * type never matches, strings by UTF-16 code units, Doubles by IEEE 754). Where DynamoDB cannot
 * say it exactly (string order past U+D7FF, RowKey inside a Query) the condition over-approximates
 * and `exact` is false. Placeholders are allocated on `builder`.
 */
export function toDynamoFilter(
  node: FilterNode,
  builder: DynamoDbExpressionBuilder,
  context: DynamoFilterContext = {},
): DynamoFilter {
  const { sup, exact } = new Translator(builder, context).bounds(node);
  return { condition: sup, exact };
}

class Translator {
  constructor(
    private readonly b: DynamoDbExpressionBuilder,
    private readonly context: DynamoFilterContext,
  ) {}

  bounds(node: FilterNode): Bounds {
    switch (node.kind) {
      case "and":
      case "or": {
        const l = this.bounds(node.left);
        const r = this.bounds(node.right);
        const join = node.kind === "and" ? allOf : anyOf;
        return { sub: join(l.sub, r.sub), sup: join(l.sup, r.sup), exact: l.exact && r.exact };
      }
      case "not": {
        const o = this.bounds(node.operand);
        return { sub: negate(o.sup), sup: negate(o.sub), exact: o.exact };
      }
      case "compare":
        return this.comparison(node.property, node.op, node.value);
    }
  }

  private comparison(property: string, op: CompareOp, literal: TypedValue): Bounds {
    if (property === "PartitionKey" || property === "RowKey") {
      if (literal.type !== "String") return exactly(false);
      const known = property === "PartitionKey" ? this.context.partitionKey : undefined;
      if (known !== undefined) return exactly(orderTest(op)(compareUtf16(known, literal.value)));
      if (this.context.partitionKey !== undefined) return onClient(true);
      const attribute = property === "PartitionKey" ? PARTITION_KEY_ATTRIBUTE : ROW_KEY_ATTRIBUTE;
      return this.ordered(this.b.name(attribute), op, { S: encodeKey(literal.value) }, literal.value);
    }
    if (property === "Timestamp") {
      if (literal.type !== "DateTime") return exactly(false);
      return this.ordered(this.b.name(TIMESTAMP_ATTRIBUTE), op, encodeValue(literal));
    }
    const path = this.b.name(attributeName(property, literal.type));
    switch (literal.type) {
      case "String":
        return this.ordered(path, op, { S: literal.value }, literal.value);
      case "Boolean":
        return this.boolean(path, op, literal.value);
      case "Double":
        return exactly(this.double(path, op, literal.value));
      default:
        return this.ordered(path, op, encodeValue(literal));
    }
  }

  /**
   * `path op value` for a value DynamoDB orders as tablekit does: numbers, byte strings, ASCII
   * text. A string literal with code units from U+D800 up orders differently by UTF-8 (DynamoDB)
   * and UTF-16 (the filter's rule), so only its equality is exact.
   */
  private ordered(path: string, op: CompareOp, value: DynamoAttributeValue, text?: string): Bounds {
    const v = this.b.value(value);
    const condition =
      op === "ne" ? `${path} < ${v} OR ${path} > ${v}` : `${path} ${INFIX_OPERATORS[op]} ${v}`;
    if (op !== "eq" && op !== "ne" && text !== undefined && /[\ud800-\uffff]/.test(text)) {
      return onClient(`attribute_type(${path}, ${this.b.value({ S: "S" })})`);
    }
    return exactly(condition);
  }

  /** Booleans order false < true, but DynamoDB only tests their equality. */
  private boolean(path: string, op: CompareOp, literal: boolean): Bounds {
    const is = (value: boolean) => `${path} = ${this.b.value({ BOOL: value })}`;
    const any = () => `attribute_type(${path}, ${this.b.value({ S: "BOOL" })})`;
    const x = Number(literal);
    const matches = [false, true].filter((candidate) => orderTest(op)(Number(candidate) - x));
    if (matches.length === 0) return exactly(false);
    return exactly(matches.length === 2 ? any() : is(matches[0]!));
  }

  /**
   * IEEE 754 (NaN matches only `ne`, -0 equals 0) over the two forms a Double is stored in: an
   * `N` for the values DynamoDB's numbers hold, else ordered hex text. DynamoDB compares an `N`
   * literal only with `N`s and an `S` literal only with `S`s, so each form gets its own test.
   */
  private double(path: string, op: CompareOp, literal: number): Condition {
    const nan = () => `${path} = ${this.b.value({ S: encodeDouble(Number.NaN) })}`;
    if (Number.isNaN(literal)) return op === "ne" ? `attribute_exists(${path})` : false;
    const lo = literal === 0 ? -0 : literal;
    const hi = literal === 0 ? 0 : literal;
    const within = (lower?: DoubleBound, upper?: DoubleBound) =>
      anyOf(this.plainDoubles(path, lower, upper), this.hexDoubles(path, lower, upper));
    switch (op) {
      case "eq":
        return within({ value: lo, inclusive: true }, { value: hi, inclusive: true });
      case "ne":
        return anyOf(
          within(undefined, { value: lo, inclusive: false }),
          within({ value: hi, inclusive: false }),
          nan(),
        );
      case "gt":
        return within({ value: hi, inclusive: false });
      case "ge":
        return within({ value: lo, inclusive: true });
      case "lt":
        return within(undefined, { value: lo, inclusive: false });
      case "le":
        return within(undefined, { value: hi, inclusive: true });
    }
  }

  /** Stored `N`s between the bounds: bounds outside what an `N` holds move to the nearest `N`. */
  private plainDoubles(path: string, lower?: DoubleBound, upper?: DoubleBound): Condition {
    const l = lower && plainBound(lower, "lower");
    const u = upper && plainBound(upper, "upper");
    if (l === "none" || u === "none") return false;
    const parts: string[] = [];
    if (l && l !== "all")
      parts.push(`${path} ${l.inclusive ? ">=" : ">"} ${this.b.value({ N: String(l.value) })}`);
    if (u && u !== "all")
      parts.push(`${path} ${u.inclusive ? "<=" : "<"} ${this.b.value({ N: String(u.value) })}`);
    if (parts.length === 0) parts.push(`attribute_type(${path}, ${this.b.value({ S: "N" })})`);
    return allOf(...parts);
  }

  /** Stored hex `S`s between the bounds (the hex order is the numeric order; NaN sorts last). */
  private hexDoubles(path: string, lower?: DoubleBound, upper?: DoubleBound): Condition {
    const l = lower ?? { value: Number.NEGATIVE_INFINITY, inclusive: true };
    const hex = (v: number) => this.b.value({ S: encodeDouble(v) });
    const parts = [`${path} ${l.inclusive ? ">=" : ">"} ${hex(l.value)}`];
    parts.push(
      upper ? `${path} ${upper.inclusive ? "<=" : "<"} ${hex(upper.value)}` : `${path} < ${hex(Number.NaN)}`,
    );
    return allOf(...parts);
  }
}

interface DoubleBound {
  readonly value: number;
  readonly inclusive: boolean;
}

/**
 * A bound on Doubles, restated for the values an `N` can hold (+0 and magnitudes from
 * PLAIN_DOUBLE_MIN to PLAIN_DOUBLE_MAX): "all" when every `N` passes it, "none" when none does.
 */
function plainBound(bound: DoubleBound, side: "lower" | "upper"): DoubleBound | "all" | "none" {
  const { value, inclusive } = bound;
  const lower = side === "lower";
  if (value > PLAIN_DOUBLE_MAX) return lower ? "none" : "all";
  if (value < -PLAIN_DOUBLE_MAX) return lower ? "all" : "none";
  if (value === 0) return { value: 0, inclusive };
  // Between -PLAIN_DOUBLE_MIN and +PLAIN_DOUBLE_MIN an N can only be 0.
  if (value > 0 && value < PLAIN_DOUBLE_MIN) return { value: 0, inclusive: !lower };
  if (value < 0 && value > -PLAIN_DOUBLE_MIN) return { value: 0, inclusive: lower };
  return bound;
}
