import type { RequestContext } from "../http/request-context.js";
import type { StringsToSign } from "./shared-key.js";

function header(ctx: RequestContext, name: string): string {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : "";
}

/**
 * The Table service's canonicalized resource: `/account` + the raw path as received (path-style
 * paths repeat the account), plus `?comp=…`. A secondary request may be signed for its own path or
 * the primary's.
 */
function canonicalResources(ctx: RequestContext): string[] {
  const comp = ctx.query.get("comp");
  const suffix = comp === null ? "" : `?comp=${comp}`;
  const paths = [ctx.rawPath];
  if (ctx.secondary) paths.push(ctx.rawPath.replace(`/${ctx.account}-secondary`, `/${ctx.account}`));
  return paths.map((path) => `/${ctx.account}${path}${suffix}`);
}

/**
 * The Table service's strings to sign: SharedKey `VERB\nContent-MD5\nContent-Type\nDate\nresource`,
 * SharedKeyLite `Date\nresource`, with no canonicalized headers, so the Date slot holds the
 * request's signed date (x-ms-date when present).
 */
export const tableStringsToSign: StringsToSign = (ctx, scheme, date) =>
  canonicalResources(ctx).map((resource) =>
    scheme === "SharedKeyLite"
      ? `${date.text}\n${resource}`
      : [
          ctx.req.method ?? "",
          header(ctx, "content-md5"),
          header(ctx, "content-type"),
          date.text,
          resource,
        ].join("\n"),
  );
