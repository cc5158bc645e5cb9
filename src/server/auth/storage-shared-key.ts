import type { RequestContext } from "../http/request-context.js";
import type { StringsToSign } from "./shared-key.js";

/**
 * The Blob and Queue services' Shared Key strings to sign (both services canonicalize alike).
 * SharedKey: `VERB`, the eleven standard headers (Content-Length empty when 0), the `x-ms-*`
 * headers sorted, then `/account/path` and every query parameter as `\nname:value` (names
 * lower-cased and sorted, values decoded, repeated values comma-joined). SharedKeyLite: `VERB`,
 * Content-MD5, Content-Type, Date, the `x-ms-*` headers, `/account/path` and `?comp=…`.
 * The path is signed as received (clients percent-encode blob names differently).
 */

const STANDARD_HEADERS = [
  "content-encoding",
  "content-language",
  "content-length",
  "content-md5",
  "content-type",
  "date",
  "if-modified-since",
  "if-match",
  "if-none-match",
  "if-unmodified-since",
  "range",
] as const;

function header(ctx: RequestContext, name: string): string {
  const value = ctx.req.headers[name];
  if (Array.isArray(value)) return value.join(",");
  return value ?? "";
}

/** `x-ms-name:value\n` for every x-ms header, names lower-cased and sorted, values trimmed. */
function canonicalizedHeaders(ctx: RequestContext): string {
  const names = Object.keys(ctx.req.headers)
    .filter((name) => name.startsWith("x-ms-"))
    .sort();
  return names.map((name) => `${name}:${header(ctx, name).replace(/\s+/g, " ").trim()}\n`).join("");
}

/** The query's parameters as the SDKs canonicalize them: raw values percent-decoded, `+` kept. */
function rawQuery(ctx: RequestContext): Map<string, string[]> {
  const url = ctx.req.url ?? "";
  const q = url.indexOf("?");
  const out = new Map<string, string[]>();
  if (q < 0) return out;
  for (const pair of url.slice(q + 1).split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = (eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
    let value = eq < 0 ? "" : pair.slice(eq + 1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // A malformed escape is signed as sent.
    }
    out.set(name, [...(out.get(name) ?? []), value]);
  }
  return out;
}

/**
 * The resource paths a signature may cover: the raw path, for the secondary also the primary's, and
 * for a batch sub-request addressed relative to the account the path it was sent with.
 */
function signedPaths(ctx: RequestContext): string[] {
  const paths = [ctx.rawPath === "" ? "/" : ctx.rawPath];
  if (ctx.secondary) paths.push(ctx.rawPath.replace(`/${ctx.account}-secondary`, `/${ctx.account}`));
  if (ctx.signedPath !== undefined) paths.push(ctx.signedPath);
  return paths;
}

/** Every string a valid Blob or Queue service signature of this request may cover. */
export const storageStringsToSign: StringsToSign = (ctx, scheme) => {
  const verb = ctx.req.method ?? "";
  const headers = canonicalizedHeaders(ctx);
  if (scheme === "SharedKeyLite") {
    const comp = ctx.query.get("comp");
    return signedPaths(ctx).map(
      (path) =>
        `${verb}\n${header(ctx, "content-md5")}\n${header(ctx, "content-type")}\n${header(ctx, "date")}\n${headers}/${ctx.account}${path}${comp === null ? "" : `?comp=${comp}`}`,
    );
  }
  const standard = STANDARD_HEADERS.map((name) => {
    const value = header(ctx, name);
    return name === "content-length" && value === "0" ? "" : value;
  });
  const query = [...rawQuery(ctx).entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, values]) => `\n${name}:${values.join(",")}`)
    .join("");
  return signedPaths(ctx).map(
    (path) => `${verb}\n${standard.join("\n")}\n${headers}/${ctx.account}${path}${query}`,
  );
};
