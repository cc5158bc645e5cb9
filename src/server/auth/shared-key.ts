import { timingSafeEqual } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import { signString } from "../../store/access/sas-token.js";
import type { AccountKeys } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";

/** How far a signed request's date may be from the server's clock (the service allows 15 minutes). */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

function failed(detail: string): TableKitError {
  return new TableKitError(
    "AuthenticationFailed",
    `Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. ${detail}`,
  );
}

function header(ctx: RequestContext, name: string): string {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : "";
}

/**
 * The canonicalized resource: `/account` + the raw path as received (path-style paths repeat the
 * account), plus `?comp=…`. A secondary request may be signed for its own path or the primary's.
 */
function canonicalResources(ctx: RequestContext): string[] {
  const comp = ctx.query.get("comp");
  const suffix = comp === null ? "" : `?comp=${comp}`;
  const paths = [ctx.rawPath];
  if (ctx.secondary) paths.push(ctx.rawPath.replace(`/${ctx.account}-secondary`, `/${ctx.account}`));
  return paths.map((path) => `/${ctx.account}${path}${suffix}`);
}

function matches(keys: readonly string[], text: string, signature: string): boolean {
  const given = Buffer.from(signature);
  return keys.some((key) => {
    const expected = Buffer.from(signString(key, text));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** A service's strings to sign: every string a valid signature of the request may cover. */
export type StringsToSign = (ctx: RequestContext, scheme: "SharedKey" | "SharedKeyLite") => string[];

/**
 * Verifies `Authorization: SharedKey|SharedKeyLite account:signature`. The Blob and Queue services
 * pass their own `stringsToSign`; by default, the Table service's:
 * SharedKey signs `VERB\nContent-MD5\nContent-Type\nDate\nresource`, SharedKeyLite
 * `Date\nresource`, where Date is `x-ms-date` or else `Date` (clients differ: either is accepted).
 * The request's date must be within 15 minutes of the server's clock.
 */
export function verifySharedKey(
  ctx: RequestContext,
  authorization: string,
  account: AccountKeys | undefined,
  now = Date.now(),
  stringsToSign?: StringsToSign,
): void {
  const match = /^(SharedKey|SharedKeyLite) ([^:]+):(.+)$/.exec(authorization.trim());
  if (!match) throw failed("The Authorization header is not SharedKey or SharedKeyLite.");
  const [, scheme, name, signature] = match as unknown as [string, string, string, string];
  if (!account || name !== account.name)
    throw failed(`The account '${name}' does not match the request's account.`);
  const xmsDate = header(ctx, "x-ms-date");
  const date = header(ctx, "date");
  const when = Date.parse(xmsDate || date);
  if (Number.isNaN(when)) throw failed("The request has no valid x-ms-date or Date header.");
  if (Math.abs(now - when) > MAX_CLOCK_SKEW_MS) {
    throw failed(`Request date header too old or too far in the future: '${xmsDate || date}'.`);
  }
  if (stringsToSign) {
    const texts = stringsToSign(ctx, scheme as "SharedKey" | "SharedKeyLite");
    if (texts.some((text) => matches(account.keys, text, signature))) return;
    throw failed("The MAC signature found in the HTTP request is not the same as any computed signature.");
  }
  const dates = [...new Set([xmsDate, date].filter((d) => d !== ""))];
  for (const resource of canonicalResources(ctx)) {
    for (const d of dates) {
      const text =
        scheme === "SharedKeyLite"
          ? `${d}\n${resource}`
          : [ctx.req.method ?? "", header(ctx, "content-md5"), header(ctx, "content-type"), d, resource].join(
              "\n",
            );
      if (matches(account.keys, text, signature)) return;
    }
  }
  throw failed("The MAC signature found in the HTTP request is not the same as any computed signature.");
}
