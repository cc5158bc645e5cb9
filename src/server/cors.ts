import type { CorsRule } from "../store/index.js";
import type { RequestContext } from "./http/request-context.js";
import { send } from "./http/responses.js";
import { ProtocolError } from "./protocol/protocol-error.js";

function list(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
}

/**
 * `*` allows every origin; an origin with a `*` in its host (`http://*.contoso.com`) allows every
 * subdomain of it, as the service documents ("CORS support for the Azure Storage services").
 */
function originAllowed(rule: CorsRule, origin: string): boolean {
  const asked = origin.toLowerCase();
  return list(rule.allowedOrigins).some((allowed) => {
    if (allowed === "*" || allowed === asked) return true;
    if (!allowed.includes("*")) return false;
    const pattern = allowed
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
      .join("[^/]+");
    return new RegExp(`^${pattern}$`).test(asked);
  });
}

function headersAllowed(rule: CorsRule, requested: string[]): boolean {
  const allowed = list(rule.allowedHeaders);
  return requested.every((h) =>
    allowed.some((a) => a === "*" || a === h || (a.endsWith("*") && h.startsWith(a.slice(0, -1)))),
  );
}

/** The first rule allowing `origin` and `method` (and the requested headers, for a preflight). */
function matchRule(
  rules: readonly CorsRule[],
  origin: string,
  method: string,
  headers: string[],
): CorsRule | undefined {
  return rules.find(
    (r) =>
      originAllowed(r, origin) &&
      list(r.allowedMethods).includes(method.toLowerCase()) &&
      headersAllowed(r, headers),
  );
}

/** Answers a CORS preflight (`OPTIONS`) from the account's CORS rules; no rule matching is 403. */
export function preflight(ctx: RequestContext, rules: readonly CorsRule[]): void {
  const origin = ctx.req.headers.origin;
  const method = ctx.req.headers["access-control-request-method"];
  if (typeof origin !== "string" || typeof method !== "string") {
    // The service: a preflight without Origin or Access-Control-Request-Method is 400 Bad Request.
    throw new ProtocolError(400, "InvalidHeaderValue", "A required CORS header is not present.");
  }
  const requested = list(String(ctx.req.headers["access-control-request-headers"] ?? ""));
  const rule = matchRule(rules, origin, method, requested);
  if (!rule) {
    throw new ProtocolError(
      403,
      "CorsPreflightFailure",
      "CORS not enabled or no matching rule found for this request.",
    );
  }
  const wildcard = list(rule.allowedOrigins).includes("*");
  send(ctx, 200, {
    "access-control-allow-origin": wildcard ? "*" : origin,
    "access-control-allow-methods": method.toUpperCase(),
    ...(requested.length > 0 ? { "access-control-allow-headers": requested.join(",") } : {}),
    "access-control-max-age": String(rule.maxAgeInSeconds),
    ...(wildcard ? {} : { "access-control-allow-credentials": "true", vary: "Origin" }),
  });
}

/**
 * CORS headers for an actual request (set before the handler answers), as the service's CORS
 * documentation tabulates them. With CORS rules set: a rule matching the origin exactly answers
 * the origin (and its exposed headers); a rule for all origins (`*`) answers `*`, even to a request
 * without Origin; and a GET or HEAD that no rule answers with `*` gets `Vary: Origin`, so no cache
 * serves one origin's answer to another. Without rules, nothing.
 */
export function applyCors(ctx: RequestContext, rules: readonly CorsRule[]): void {
  if (rules.length === 0) return;
  const method = ctx.req.method ?? "GET";
  const cacheable = method === "GET" || method === "HEAD";
  const origin = ctx.req.headers.origin;
  const rule =
    typeof origin === "string"
      ? matchRule(rules, origin, method, [])
      : rules.find(
          (r) =>
            list(r.allowedOrigins).includes("*") && list(r.allowedMethods).includes(method.toLowerCase()),
        );
  const wildcard = rule !== undefined && list(rule.allowedOrigins).includes("*");
  if (rule) {
    ctx.res.setHeader("access-control-allow-origin", wildcard ? "*" : origin!);
    if (rule.exposedHeaders) ctx.res.setHeader("access-control-expose-headers", rule.exposedHeaders);
    if (!wildcard) ctx.res.setHeader("access-control-allow-credentials", "true");
  }
  if (cacheable && !wildcard) ctx.res.setHeader("vary", "Origin");
}
