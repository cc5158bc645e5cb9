import { TableKitError } from "../../model/index.js";
import { issueUserDelegationKey } from "../../store/access/user-delegation.js";
import { bearerTokenOf, verifyBearerToken } from "../auth/bearer-token.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { child, escapeXml, parseXml } from "../protocol/xml.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";

/**
 * Get User Delegation Key (`POST /?restype=service&comp=userdelegationkey`, `--oauth basic`): a key
 * for the bearer token's user (its `oid` and tenant), derived from the account key by the core
 * (src/store/access/user-delegation.ts), which also verifies the tokens it signs. Only a bearer
 * token may ask, as the service requires.
 */

/** A KeyInfo document is two times: a few hundred bytes at most. */
const MAX_KEY_INFO_BYTES = 4 * 1024;

function keyInfoTimes(xml: string): { start?: string; expiry: string } {
  const root = parseXml(xml);
  if (root.name !== "KeyInfo") {
    throw new ProtocolError(400, "InvalidXmlDocument", "The body must be a KeyInfo document.");
  }
  const start = child(root, "Start")?.text.trim();
  const expiry = child(root, "Expiry")?.text.trim();
  if (!expiry) throw new ProtocolError(400, "InvalidXmlDocument", "KeyInfo needs an Expiry.");
  return start ? { start, expiry } : { expiry };
}

export async function answerUserDelegationKey(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
): Promise<void> {
  if (ctx.method !== "POST") throw unsupportedVerb(ctx.method);
  const token = bearerTokenOf(String(ctx.req.headers.authorization ?? ""));
  if (!caller.bearer || token === undefined) {
    throw new TableKitError(
      "AuthenticationFailed",
      "Server failed to authenticate the request. Only authentication scheme Bearer is supported",
      { details: { authenticationErrorDetail: "Only authentication scheme Bearer is supported" } },
    );
  }
  // Verified already (the caller is "bearer"): read again for the claims the key is issued to.
  const claims = verifyBearerToken(token, { account: ctx.account, service: "blob", protocol: ctx.protocol });
  if (claims.objectId === "") {
    const detail = "The bearer token has no object id (oid) to issue a user delegation key to.";
    throw new TableKitError("AuthenticationFailed", `Server failed to authenticate the request. ${detail}`, {
      details: { authenticationErrorDetail: detail },
    });
  }
  const account = deps.accounts.get(ctx.account)!;
  const times = keyInfoTimes(await readBody(ctx.req, MAX_KEY_INFO_BYTES));
  const key = issueUserDelegationKey({
    accountKey: account.keys[0]!,
    objectId: claims.objectId,
    tenantId: claims.tenant,
    ...times,
    version: ctx.version,
  });
  const xml =
    '<?xml version="1.0" encoding="utf-8"?><UserDelegationKey>' +
    `<SignedOid>${escapeXml(key.signedObjectId)}</SignedOid><SignedTid>${escapeXml(key.signedTenantId)}</SignedTid>` +
    `<SignedStart>${key.signedStartsOn}</SignedStart><SignedExpiry>${key.signedExpiresOn}</SignedExpiry>` +
    `<SignedService>${key.signedService}</SignedService><SignedVersion>${escapeXml(key.signedVersion)}</SignedVersion>` +
    `<Value>${key.value}</Value></UserDelegationKey>`;
  send(ctx, 200, { "content-type": "application/xml" }, xml);
}
