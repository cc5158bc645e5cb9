import { createHmac } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import type { AccountKeys } from "./verify-sas.js";
import { authenticationFailed, sameSignature } from "./verify-sas.js";

/**
 * User delegation keys and the user delegation SAS they sign (Blob service). A key is derived, not
 * stored: HMAC-SHA256 of the account key over the key's own fields (object id, tenant, start,
 * expiry, service, version), so any server holding the account key recomputes it from the fields a
 * token carries, and a key is as revocable as the account key (rotating the key revokes them all),
 * as with the service's own keys.
 */

/** The longest a key may be valid, from now: seven days (Get User Delegation Key). */
export const MAX_USER_DELEGATION_KEY_MS = 7 * 24 * 3600 * 1000;

/** A key as Get User Delegation Key answers it (times to the second, as the service writes them). */
export interface UserDelegationKey {
  readonly signedObjectId: string;
  readonly signedTenantId: string;
  readonly signedStartsOn: string;
  readonly signedExpiresOn: string;
  readonly signedService: "b";
  readonly signedVersion: string;
  /** The key, base64. */
  readonly value: string;
}

export interface IssueUserDelegationKey {
  /** The account key that derives it (key1). */
  readonly accountKey: string;
  /** The caller's Entra object id and tenant (the bearer token's `oid` and `tid`). */
  readonly objectId: string;
  readonly tenantId: string;
  /** ISO 8601; absent: now. */
  readonly start?: string;
  readonly expiry: string;
  /** The service version the key is for (the request's). */
  readonly version: string;
  readonly now?: number;
}

function secondsIso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function keyTime(text: string, name: "Start" | "Expiry"): number {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)
    ? Date.parse(text)
    : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new TableKitError("InvalidXmlNodeValue", `The ${name} '${text}' is not an ISO 8601 UTC time.`);
  }
  return ms;
}

function keyValue(accountKey: string, fields: readonly string[]): string {
  return createHmac("sha256", Buffer.from(accountKey, "base64"))
    .update(["tablekit user delegation key", ...fields].join("\n"), "utf8")
    .digest("base64");
}

/**
 * A key for the caller, valid from start to expiry. Expiry must be after start and at most seven
 * days from now (InvalidXmlNodeValue otherwise); a key whose window has passed is issued, and
 * refused when a token signed with it is used, as the service does.
 */
export function issueUserDelegationKey(options: IssueUserDelegationKey): UserDelegationKey {
  const now = options.now ?? Date.now();
  const start = options.start === undefined ? now : keyTime(options.start, "Start");
  const expiry = keyTime(options.expiry, "Expiry");
  if (expiry <= start) throw new TableKitError("InvalidXmlNodeValue", "The Expiry must be after the Start.");
  if (expiry > now + MAX_USER_DELEGATION_KEY_MS) {
    throw new TableKitError(
      "InvalidXmlNodeValue",
      "The Expiry must be within seven days of the current time.",
    );
  }
  const fields = [
    options.objectId,
    options.tenantId,
    secondsIso(start),
    secondsIso(expiry),
    "b",
    options.version,
  ];
  return {
    signedObjectId: options.objectId,
    signedTenantId: options.tenantId,
    signedStartsOn: fields[2]!,
    signedExpiresOn: fields[3]!,
    signedService: "b",
    signedVersion: options.version,
    value: keyValue(options.accountKey, fields),
  };
}

/** Fields of a user delegation SAS that name features not served: refused rather than ignored. */
const UNSERVED_FIELDS = ["skdutid", "sduoid", "srh", "srq"] as const;

/** True when a token carries any key field: it claims to be a user delegation SAS. */
export function isUserDelegationSas(fields: Readonly<Record<string, string | undefined>>): boolean {
  return ["skoid", "sktid", "skt", "ske", "sks", "skv"].some((name) => fields[name] !== undefined);
}

/**
 * The string a user delegation SAS signs, by its version (the lines the service documents for each:
 * 2018-11-09, then the agent and correlation ids from 2020-02-10, the encryption scope from
 * 2020-12-06, the delegated user from 2025-07-05, the signed request headers from 2026-04-06).
 */
export function userDelegationStringToSign(
  fields: Readonly<Record<string, string>>,
  canonical: string,
): string {
  const f = (name: string) => fields[name] ?? "";
  const version = f("sv");
  const key = [f("skoid"), f("sktid"), f("skt"), f("ske"), f("sks"), f("skv")];
  const head = [f("sp"), f("st"), f("se"), canonical, ...key];
  const overrides = [f("rscc"), f("rscd"), f("rsce"), f("rscl"), f("rsct")];
  // The snapshot time line: a token for a snapshot (sr=bs) signs the request's `snapshot`.
  const tail = [f("sip"), f("spr"), version, f("sr"), fields.sr === "bs" ? f("snapshot") : ""];
  if (version < "2020-02-10") return [...head, ...tail, ...overrides].join("\n");
  const agents = [f("saoid"), f("suoid"), f("scid")];
  if (version < "2020-12-06") return [...head, ...agents, ...tail, ...overrides].join("\n");
  if (version < "2025-07-05") return [...head, ...agents, ...tail, f("ses"), ...overrides].join("\n");
  const delegated = [f("skdutid"), f("sduoid")];
  if (version < "2026-04-06") {
    return [...head, ...agents, ...delegated, ...tail, f("ses"), ...overrides].join("\n");
  }
  return [...head, ...agents, ...delegated, ...tail, f("ses"), "", "", ...overrides].join("\n");
}

export interface VerifyUserDelegation {
  readonly account: AccountKeys;
  /** `/blob/account/container[/blob]`: what the token must be signed for. */
  readonly canonical: string;
  readonly now: number;
}

/**
 * Checks a user delegation SAS's signature against the key its fields derive from the account's
 * keys, and the key's own window (skt to ske, now within it). Throws AuthenticationFailed with the
 * reason as the AuthenticationErrorDetail: a missing key field, a key for another service, a
 * stored access policy (`si`, which such tokens cannot use), a field not served, an expired or
 * not-yet-valid key, a signature that does not match.
 */
export function verifyUserDelegationSas(
  fields: Readonly<Record<string, string>>,
  options: VerifyUserDelegation,
): void {
  for (const name of ["skoid", "sktid", "skt", "ske", "sks", "skv"]) {
    if (!fields[name]) throw authenticationFailed(`The user delegation SAS lacks '${name}'.`);
  }
  const unserved = UNSERVED_FIELDS.find((name) => fields[name] !== undefined);
  if (unserved !== undefined) {
    throw authenticationFailed(`The user delegation SAS field '${unserved}' is not served.`);
  }
  if (fields.si !== undefined) {
    throw authenticationFailed("A user delegation SAS cannot name a stored access policy (si).");
  }
  if (fields.sks !== "b") throw authenticationFailed("The user delegation key is not for the Blob service.");
  if (!fields.sv || fields.sv < "2018-11-09") {
    throw authenticationFailed("A user delegation SAS needs version 2018-11-09 or later.");
  }
  const start = Date.parse(fields.skt!);
  const expiry = Date.parse(fields.ske!);
  if (Number.isNaN(start) || Number.isNaN(expiry)) {
    throw authenticationFailed("The user delegation key's start or expiry is not a valid time.");
  }
  const keyFields = [fields.skoid!, fields.sktid!, fields.skt!, fields.ske!, fields.sks!, fields.skv!];
  const text = userDelegationStringToSign(fields, options.canonical);
  const matches = options.account.keys.some((accountKey) => {
    const key = keyValue(accountKey, keyFields);
    const signature = createHmac("sha256", Buffer.from(key, "base64")).update(text, "utf8").digest("base64");
    return sameSignature(signature, fields.sig ?? "");
  });
  if (!matches) throw authenticationFailed("Signature did not match.");
  if (options.now < start || options.now > expiry) {
    throw authenticationFailed(
      `The user delegation key is not valid now: Start [${fields.skt}] - Expiry [${fields.ske}] - Current [${new Date(options.now).toISOString()}].`,
    );
  }
}
