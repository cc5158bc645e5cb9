import type { RequestContext } from "../http/request-context.js";
import type { SignedDate } from "./request-date.js";
import type { SharedKeyScheme, StringsToSign } from "./shared-key.js";

function header(ctx: RequestContext, name: string): string {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : "";
}

/**
 * The Table service's canonicalized resource: `/account` + the raw path as received (path-style
 * paths repeat the account), plus `?comp=…`. A secondary request may be signed for its own path or
 * the primary's.
 */
function canonicalResource(ctx: RequestContext, path: string): string {
  const comp = ctx.query.get("comp");
  return comp === null ? `/${ctx.account}${path}` : `/${ctx.account}${path}?comp=${comp}`;
}

/** A string to sign for `resource`: SharedKey's five lines, or SharedKeyLite's two. */
function stringToSign(
  ctx: RequestContext,
  scheme: SharedKeyScheme,
  date: SignedDate,
  resource: string,
): string {
  return scheme === "SharedKeyLite"
    ? `${date.text}\n${resource}`
    : `${ctx.req.method ?? ""}\n${header(ctx, "content-md5")}\n${header(ctx, "content-type")}\n${date.text}\n${resource}`;
}

/**
 * The Table service's strings to sign: SharedKey `VERB\nContent-MD5\nContent-Type\nDate\nresource`,
 * SharedKeyLite `Date\nresource`, with no canonicalized headers, so the Date slot holds the
 * request's signed date (x-ms-date when present).
 */
export const tableStringsToSign: StringsToSign = (ctx, scheme, date) => {
  const own = stringToSign(ctx, scheme, date, canonicalResource(ctx, ctx.rawPath));
  if (!ctx.secondary) return [own];
  const primaryPath = ctx.rawPath.replace(`/${ctx.account}-secondary`, `/${ctx.account}`);
  return [own, stringToSign(ctx, scheme, date, canonicalResource(ctx, primaryPath))];
};
