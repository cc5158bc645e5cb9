/**
 * HTML built with a tagged template that escapes every interpolated value, so nothing a table
 * holds (keys, property names, values, error messages) can become markup. Only `SafeHtml` made
 * by `html` itself is inserted as is.
 */

/** Markup this module built: inserted into other markup without escaping. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Text as HTML text or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

type Part = SafeHtml | string | number | bigint | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** `html\`<td>${value}</td>\``: every value escaped, arrays joined, SafeHtml kept. */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** A URL path and query, each part encoded: `href("/t/", name, { pk })`. */
export function href(base: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") params.set(k, v);
  const q = params.toString();
  return q ? `${base}?${q}` : base;
}
