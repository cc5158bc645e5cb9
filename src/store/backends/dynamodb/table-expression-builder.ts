import type { DynamoAttributeValue } from "./table-item-layout.js";

/**
 * DynamoDB expressions (conditions, key conditions, filters, projections) with `#n`/`:v`
 * placeholders, shared by the filter translator, the writes and the partition catalogue.
 */

/** A condition: an expression string, or a constant where the translation decided it. */
export type Condition = string | boolean;

export function allOf(...conditions: Condition[]): Condition {
  if (conditions.includes(false)) return false;
  const parts = conditions.filter((c): c is string => c !== true);
  return parts.length === 0 ? true : parts.length === 1 ? parts[0]! : parts.map(group).join(" AND ");
}

export function anyOf(...conditions: Condition[]): Condition {
  if (conditions.includes(true)) return true;
  const parts = conditions.filter((c): c is string => c !== false);
  return parts.length === 0 ? false : parts.length === 1 ? parts[0]! : parts.map(group).join(" OR ");
}

/** Parenthesizes a compound condition, so joining it keeps its meaning. */
function group(condition: string): string {
  return /\s(AND|OR)\s/.test(condition) ? `(${condition})` : condition;
}

export function negate(condition: Condition): Condition {
  return typeof condition === "boolean" ? !condition : `NOT (${condition})`;
}

/** Every placeholder in an expression: `#n…` names and `:v…` values (base-36 counters). */
const PLACEHOLDER = /#n[0-9a-z]+|:v[0-9a-z]+/g;

/** Allocates `#n` name and `:v` value placeholders for one request's expressions. */
export class DynamoDbExpressionBuilder {
  private readonly names = new Map<string, string>();
  private readonly attributes = new Map<string, string>();
  private readonly values = new Map<string, DynamoAttributeValue>();

  /** The placeholder of an attribute name (one per distinct name). */
  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.names.size.toString(36)}`;
      this.names.set(attribute, placeholder);
      this.attributes.set(placeholder, attribute);
    }
    return placeholder;
  }

  /** A document path: `#n0.#n1`. */
  path(...attributes: string[]): string {
    return attributes.map((a) => this.name(a)).join(".");
  }

  value(value: DynamoAttributeValue): string {
    const placeholder = `:v${this.values.size.toString(36)}`;
    this.values.set(placeholder, value);
    return placeholder;
  }

  /** The placeholders the given expressions use: DynamoDB rejects unused ones. */
  used(...expressions: (string | undefined)[]): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, DynamoAttributeValue>;
  } {
    // One scan of the text per request (writes and pages call this for every request).
    const names: Record<string, string> = {};
    const values: Record<string, DynamoAttributeValue> = {};
    for (const expression of expressions) {
      for (const [placeholder] of expression?.matchAll(PLACEHOLDER) ?? []) {
        const attribute = this.attributes.get(placeholder);
        if (attribute !== undefined) names[placeholder] = attribute;
        const value = this.values.get(placeholder);
        if (value !== undefined) values[placeholder] = value;
      }
    }
    return {
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    };
  }
}
