import { TableKitError } from "../../model/index.js";
import type { AccessPolicy, AccountKeys, Store } from "../../store/index.js";
import { parseSasToken, verifySasToken } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";
import type { ServiceState } from "../service-state.js";
import { verifySharedKey } from "./shared-key.js";

/** Who a request is: the store view it may use, and the token's rights when it came with one. */
export interface Authorized {
  readonly store: Store;
  readonly access?: AccessPolicy;
}

/**
 * Authenticates a request: a SharedKey/SharedKeyLite signature grants the whole account; a shared
 * access signature grants what it allows, enforced by the core through a scoped store view; a
 * request with neither is refused (the Table service has no anonymous access).
 */
export function authorize(
  ctx: RequestContext,
  store: Store,
  accounts: ReadonlyMap<string, AccountKeys>,
  state: ServiceState,
): Authorized {
  const account = accounts.get(ctx.account);
  const authorization = ctx.req.headers.authorization;
  if (authorization) {
    verifySharedKey(ctx, authorization, account);
    return { store };
  }
  if (ctx.query.has("sig")) {
    const access = verifySasToken(parseSasToken(ctx.query.toString()), {
      account,
      clientIp: ctx.clientIp,
      protocol: ctx.protocol,
      storedPolicy: (table, id) => state.acl(ctx.account, table).find((p) => p.id === id),
    });
    return { store: store.scoped(access), access };
  }
  throw new TableKitError(
    "AuthenticationFailed",
    "Server failed to authenticate the request. The request carries no Authorization header and no shared access signature.",
  );
}
