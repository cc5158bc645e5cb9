import { TableKitError } from "../../model/index.js";
import type { AccessPolicy, Store } from "../../store/index.js";
import { parseSasToken, verifySasToken } from "../../store/index.js";
import type { ServedAccount } from "../accounts.js";
import type { RequestContext } from "../http/request-context.js";
import { bearerTokenOf, type OAuthLevel, type StorageService, verifyBearerToken } from "./bearer-token.js";
import { type StringsToSign, verifySharedKey } from "./shared-key.js";
import type { StoredPolicyLookup } from "./stored-policies.js";

/** Who a request is: the store view it may use, how it proved it, and a token's rights when it came with one. */
export interface Authorized {
  /** The addressed account's own store (each account has its own tables), scoped to the token if any. */
  readonly store: Store;
  /** The account key (SharedKey, SharedKeyLite), a shared access signature, or an Entra bearer token. */
  readonly via: "key" | "sas" | "bearer";
  readonly access?: AccessPolicy;
}

/** What authorization needs to know of the server and the service a request addresses. */
export interface AuthorizeOptions {
  readonly accounts: ReadonlyMap<string, ServedAccount>;
  /** The stored access policies a token's `si` may name (read through the port beforehand). */
  readonly storedPolicy?: StoredPolicyLookup;
  readonly service: StorageService;
  /** The service's Shared Key strings to sign. */
  readonly stringsToSign: StringsToSign;
  /** Bearer tokens: refused unless `--oauth basic`. */
  readonly oauth?: OAuthLevel;
}

/**
 * Authenticates a request against the account its URL names: a SharedKey/SharedKeyLite signature
 * with one of that account's keys grants the account's whole store; with `--oauth basic`, so does
 * an Entra bearer token for storage or for this account's endpoint (over HTTPS); a shared access
 * signature signed with one of the keys grants what it allows, enforced by the core through a
 * scoped view of that store; a request with none is refused (the Table service has no anonymous
 * access). Nothing reaches another account's store: the store is chosen by the URL, and the key,
 * the token's audience and the signature by it too.
 */
export function authorize(ctx: RequestContext, options: AuthorizeOptions): Authorized {
  const account = options.accounts.get(ctx.account);
  const authorization = ctx.req.headers.authorization;
  if (authorization) {
    const bearer = bearerTokenOf(authorization);
    if (bearer === undefined) {
      verifySharedKey(ctx, authorization, account, options.stringsToSign);
      return { store: account!.store, via: "key" };
    }
    if (!options.oauth) {
      throw new TableKitError(
        "AuthenticationFailed",
        "Server failed to authenticate the request. Bearer tokens are accepted only with --oauth basic (over HTTPS).",
      );
    }
    if (!account) throw new TableKitError("AuthenticationFailed", `The account '${ctx.account}' is unknown.`);
    verifyBearerToken(bearer, { account: account.name, service: options.service, protocol: ctx.protocol });
    return { store: account.store, via: "bearer" };
  }
  if (ctx.query.has("sig")) {
    const access = verifySasToken(parseSasToken(ctx.query.toString()), {
      account,
      clientIp: ctx.clientIp,
      protocol: ctx.protocol,
      ...(options.storedPolicy ? { storedPolicy: options.storedPolicy } : {}),
    });
    return { store: account!.store.scoped(access), via: "sas", access };
  }
  throw new TableKitError(
    "AuthenticationFailed",
    "Server failed to authenticate the request. The request carries no Authorization header and no shared access signature.",
  );
}
