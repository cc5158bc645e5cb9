import { authenticationFailed } from "./request-date.js";

/**
 * Microsoft Entra ID bearer tokens, checked as Azurite's `--oauth basic` checks them, for any
 * storage service: a JSON Web Token whose audience is the storage service (or this account's
 * endpoint of the service), whose issuer is an Entra token service, and whose lifetime (nbf, exp)
 * holds now. The signature is not verified (no key can be fetched on loopback): this proves an
 * application obtained a token meant for storage, not who it is. Only over HTTPS, as the service.
 */

/** How `tablekit serve` treats bearer tokens: refused (absent), or checked as Azurite's `--oauth basic`. */
export type OAuthLevel = "basic";

/** The storage service a request addresses: it names the account endpoint an audience may be. */
export type StorageService = "table" | "queue" | "blob";

/**
 * The claim values Entra writes in storage tokens (token contents compared as text, never
 * contacted): the resource `https://storage.azure.com` or its application id, an account endpoint
 * in one of the clouds, and the v1 token services of the public, German, Chinese and test clouds.
 */
const STORAGE_RESOURCE = "https://storage.azure.com";
const STORAGE_APPLICATION_ID = "e406a681-f3d4-42a8-90b6-c2b029497af1";
const ENDPOINT_SUFFIXES: readonly string[] = [
  "core.windows.net",
  "core.chinacloudapi.cn",
  "core.usgovcloudapi.net",
  "core.cloudapi.de",
];
const ISSUER_HOSTS: ReadonlySet<string> = new Set([
  "sts.windows.net",
  "sts.microsoftonline.de",
  "sts.chinacloudapi.cn",
  "sts.windows-ppe.net",
]);

/** What a verified token says, for logs and tests. */
export interface BearerClaims {
  readonly audience: string;
  readonly issuer: string;
  readonly tenant: string;
  /** The caller's object id (`oid`), "" when the token has none: a user delegation key is issued to it. */
  readonly objectId: string;
}

export interface BearerCheck {
  /** The account the request's URL names: an account-endpoint audience must be its endpoint. */
  readonly account: string;
  readonly service: StorageService;
  readonly protocol: "http" | "https";
  readonly now?: number;
}

/** The token of `Authorization: Bearer <token>` (the scheme's case is free), or undefined for another scheme. */
export function bearerTokenOf(authorization: string): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  return match?.[1];
}

function unsupported(detail: string): never {
  throw authenticationFailed(`Authentication scheme Bearer is not supported: ${detail}`);
}

function base64UrlJson(part: string, what: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) unsupported(`the token's ${what} is not base64url.`);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    unsupported(`the token's ${what} is not JSON.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    unsupported(`the token's ${what} is not a JSON object.`);
  }
  return value as Record<string, unknown>;
}

/** A NumericDate claim in milliseconds; a token without one is refused. */
function seconds(claims: Record<string, unknown>, name: "nbf" | "exp" | "iat"): number {
  const value = claims[name];
  if (typeof value !== "number" || !Number.isFinite(value)) unsupported(`the token has no '${name}' time.`);
  return value * 1000;
}

/** `https://<sts host>/<tenant>/`: a token service of Entra, and the tenant it names. */
function tenantOfIssuer(issuer: unknown): string | undefined {
  if (typeof issuer !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return undefined;
  }
  if (
    url.protocol !== "https:" ||
    url.port !== "" ||
    url.username !== "" ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    return undefined;
  }
  if (!ISSUER_HOSTS.has(url.hostname)) return undefined;
  const segments = url.pathname.split("/").filter((s) => s !== "");
  return segments.length === 1 ? segments[0] : undefined;
}

/** The resource (by URL, with or without a final slash, or by id), or this account's endpoint of this service. */
function audienceAllowed(audience: string, check: BearerCheck): boolean {
  if (audience === STORAGE_APPLICATION_ID) return true;
  const url = audience.endsWith("/") ? audience.slice(0, -1) : audience;
  if (url === STORAGE_RESOURCE) return true;
  return ENDPOINT_SUFFIXES.some((suffix) => url === `https://${check.account}.${check.service}.${suffix}`);
}

/**
 * Checks a bearer token for a request as `--oauth basic` does, and returns its claims; throws
 * AuthenticationFailed (403) naming what failed: HTTP instead of HTTPS, a malformed token, a
 * lifetime that has not begun or has ended, an issuer that is no Entra token service, an audience
 * that is neither the storage resource nor this account's endpoint of this service.
 */
export function verifyBearerToken(token: string, check: BearerCheck): BearerClaims {
  if (check.protocol !== "https") {
    throw authenticationFailed("Authentication scheme Bearer is not allowed with HTTP.");
  }
  const parts = token.split(".");
  if (parts.length !== 3) unsupported("the token is not a JSON Web Token (header.payload.signature).");
  base64UrlJson(parts[0]!, "header");
  const claims = base64UrlJson(parts[1]!, "payload");
  const now = check.now ?? Date.now();
  const notBefore = seconds(claims, "nbf");
  const expires = seconds(claims, "exp");
  seconds(claims, "iat");
  if (now < notBefore)
    throw authenticationFailed("Lifetime validation failed. The token is not yet valid (nbf).");
  if (now > expires) throw authenticationFailed("Lifetime validation failed. The token is expired.");
  const tenant = tenantOfIssuer(claims.iss);
  if (tenant === undefined) throw authenticationFailed("Invalid token issuer.");
  const audiences =
    typeof claims.aud === "string" ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  const audience = audiences.find((a): a is string => typeof a === "string" && audienceAllowed(a, check));
  if (audience === undefined) throw authenticationFailed("Invalid token audience.");
  const objectId = typeof claims.oid === "string" ? claims.oid : "";
  return { audience, issuer: claims.iss as string, tenant, objectId };
}
