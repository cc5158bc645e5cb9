import { TableKitError } from "../../model/index.js";
import type { AccessPolicy, Store } from "../../store/index.js";
import { parseSasToken, verifySasToken } from "../../store/index.js";
import type { ServedAccount } from "../accounts.js";
import type { RequestContext } from "../http/request-context.js";
import type { ServiceState } from "../service-state.js";
import { type StringsToSign, verifySharedKey } from "./shared-key.js";

/** Who a request is: the store view it may use, and the token's rights when it came with one. */
export interface Authorized {
  /** The addressed account's own store (each account has its own tables), scoped to the token if any. */
  readonly store: Store;
  readonly access?: AccessPolicy;
}

/**
 * Authenticates a request against the account its URL names: a SharedKey/SharedKeyLite signature
 * with one of that account's keys grants the account's whole store; a shared access signature
 * signed with one of them grants what it allows, enforced by the core through a scoped view of
 * that store; a request with neither is refused (the Table service has no anonymous access).
 * Nothing reaches another account's store: the store is chosen by the URL, and the key by it too.
 */
export function authorize(
  ctx: RequestContext,
  accounts: ReadonlyMap<string, ServedAccount>,
  state: ServiceState,
  stringsToSign: StringsToSign,
): Authorized {
  const account = accounts.get(ctx.account);
  const authorization = ctx.req.headers.authorization;
  if (authorization) {
    verifySharedKey(ctx, authorization, account, stringsToSign);
    return { store: account!.store };
  }
  if (ctx.query.has("sig")) {
    const access = verifySasToken(parseSasToken(ctx.query.toString()), {
      account,
      clientIp: ctx.clientIp,
      protocol: ctx.protocol,
      storedPolicy: (table, id) => state.acl(ctx.account, table).find((p) => p.id === id),
    });
    return { store: account!.store.scoped(access), access };
  }
  throw new TableKitError(
    "AuthenticationFailed",
    "Server failed to authenticate the request. The request carries no Authorization header and no shared access signature.",
  );
}
