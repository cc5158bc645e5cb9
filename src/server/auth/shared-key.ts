import { timingSafeEqual } from "node:crypto";
import { signString } from "../../store/access/sas-token.js";
import type { AccountKeys } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";
import { authenticationFailed, type SignedDate, signedRequestDate } from "./request-date.js";

export type SharedKeyScheme = "SharedKey" | "SharedKeyLite";

/**
 * A service's strings to sign for a request (each storage service canonicalizes differently):
 * every string a valid signature may cover, given the scheme and the request's signed date.
 */
export type StringsToSign = (ctx: RequestContext, scheme: SharedKeyScheme, date: SignedDate) => string[];

function matches(keys: readonly string[], text: string, given: Buffer): boolean {
  for (const key of keys) {
    const expected = Buffer.from(signString(key, text));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return true;
  }
  return false;
}

/**
 * Verifies `Authorization: SharedKey|SharedKeyLite account:signature` for any storage service: the
 * header names the request's account, the request's date (x-ms-date, else Date) is within 15
 * minutes of the server's clock, and the signature, made with one of the account's keys, covers
 * one of the service's strings to sign for that same date.
 */
export function verifySharedKey(
  ctx: RequestContext,
  authorization: string,
  account: AccountKeys | undefined,
  stringsToSign: StringsToSign,
  now = Date.now(),
): void {
  const match = /^(SharedKey|SharedKeyLite) ([^:]+):(.+)$/.exec(authorization.trim());
  if (!match) throw authenticationFailed("The Authorization header is not SharedKey or SharedKeyLite.");
  const [, scheme, name, signature] = match as unknown as [string, SharedKeyScheme, string, string];
  if (!account || name !== account.name)
    throw authenticationFailed(`The account '${name}' does not match the request's account.`);
  const date = signedRequestDate(ctx.req, now);
  const given = Buffer.from(signature);
  for (const text of stringsToSign(ctx, scheme, date)) {
    if (matches(account.keys, text, given)) return;
  }
  throw authenticationFailed(
    "The MAC signature found in the HTTP request is not the same as any computed signature.",
  );
}
