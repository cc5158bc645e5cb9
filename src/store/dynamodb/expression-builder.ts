import type { DynamoAttributeValue } from "./item-layout.js";

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

/** Allocates `#n` name and `:v` value placeholders for one request's expressions. */
export class DynamoDbExpressionBuilder {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, DynamoAttributeValue> = {};
  private valueCount = 0;

  /** The placeholder of an attribute name (one per distinct name). */
  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.names.size.toString(36)}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  /** A document path: `#n0.#n1`. */
  path(...attributes: string[]): string {
    return attributes.map((a) => this.name(a)).join(".");
  }

  value(value: DynamoAttributeValue): string {
    const placeholder = `:v${(this.valueCount++).toString(36)}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The placeholders the given expressions use: DynamoDB rejects unused ones. */
  used(...expressions: (string | undefined)[]): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, DynamoAttributeValue>;
  } {
    const text = expressions.join(" ");
    const names: Record<string, string> = {};
    for (const [attribute, placeholder] of this.names) {
      if (new RegExp(`${placeholder}(?![0-9a-z])`).test(text)) names[placeholder] = attribute;
    }
    const values: Record<string, DynamoAttributeValue> = {};
    for (const placeholder of text.match(/:v[0-9a-z]+/g) ?? [])
      values[placeholder] = this.values[placeholder]!;
    return {
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    };
  }
}
