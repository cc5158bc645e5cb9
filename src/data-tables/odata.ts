/**
 * The SDK's `odata` template, with its exact text: a string is quoted (unless the template already
 * opens a quote) with its quotes doubled, a Date becomes `datetime'…'`, anything else is inserted
 * as JavaScript writes it. Continuation tokens are bound to the filter's text, so the same text
 * matters. (tablekit's own `odata` types values fully: `123n` becomes `123L`.)
 */
export function odata(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = "";
  for (let i = 0; i < strings.length; i++) {
    const text = strings[i]!;
    out += text;
    if (i >= values.length) continue;
    const value = values[i];
    if (typeof value === "string") {
      const escaped = value.replace(/'/g, "''");
      out += text !== "" && !text.trim().endsWith("'") ? `'${escaped}'` : escaped;
    } else if (value instanceof Date) {
      out += `datetime'${value.toISOString()}'`;
    } else {
      out += String(value);
    }
  }
  return out;
}
