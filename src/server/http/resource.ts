import { invalidUri } from "../protocol/protocol-error.js";

/** What a request's path names, after the account. */
export type Resource =
  | { readonly kind: "service" }
  | { readonly kind: "tables" }
  | { readonly kind: "table"; readonly tableName: string }
  | { readonly kind: "batch" }
  | { readonly kind: "entities"; readonly tableName: string }
  | {
      readonly kind: "entity";
      readonly tableName: string;
      readonly partitionKey: string;
      readonly rowKey: string;
    };

/** The Table service's resource of a request path (after the account): one segment, or InvalidUri. */
export function parseTablePath(path: string): Resource {
  if (path.includes("/")) throw invalidUri();
  return parseResource(path);
}

/**
 * Parses the resource part of a path (already percent-decoded): `Tables`, `Tables('t')`, `$batch`,
 * `t`, `t()`, `t(PartitionKey='a',RowKey='b')` with quotes doubled inside keys.
 */
export function parseResource(segment: string): Resource {
  if (segment === "") return { kind: "service" };
  if (segment === "Tables" || segment === "Tables()") return { kind: "tables" };
  if (segment === "$batch") return { kind: "batch" };
  const open = segment.indexOf("(");
  if (open < 0) return { kind: "entities", tableName: segment };
  if (!segment.endsWith(")")) throw invalidUri();
  const name = segment.slice(0, open);
  const inner = segment.slice(open + 1, -1);
  if (name === "Tables") {
    const quoted = /^'((?:[^']|'')*)'$/.exec(inner);
    if (!quoted) throw invalidUri();
    return { kind: "table", tableName: quoted[1]!.replaceAll("''", "'") };
  }
  if (inner === "") return { kind: "entities", tableName: name };
  const keys = parseKeys(inner);
  return { kind: "entity", tableName: name, ...keys };
}

/** `PartitionKey='a',RowKey='b'` (either order). */
function parseKeys(text: string): { partitionKey: string; rowKey: string } {
  const found: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    if (eq < 0 || text[eq + 1] !== "'") throw invalidUri();
    const name = text.slice(i, eq).trim();
    let j = eq + 2;
    let value = "";
    for (;;) {
      const quote = text.indexOf("'", j);
      if (quote < 0) throw invalidUri();
      value += text.slice(j, quote);
      if (text[quote + 1] === "'") {
        value += "'";
        j = quote + 2;
        continue;
      }
      j = quote + 1;
      break;
    }
    if (name !== "PartitionKey" && name !== "RowKey") throw invalidUri();
    if (Object.hasOwn(found, name)) throw invalidUri();
    found[name] = value;
    if (j < text.length && text[j] !== ",") throw invalidUri();
    i = j + 1;
  }
  if (found.PartitionKey === undefined || found.RowKey === undefined) throw invalidUri();
  return { partitionKey: found.PartitionKey, rowKey: found.RowKey };
}
