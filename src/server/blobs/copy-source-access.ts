import { authorizeStorage, type StorageCaller } from "../auth/storage-access.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import type { RequestContext } from "../http/request-context.js";
import type { ServiceDeps } from "../service-handler.js";

/**
 * How a copy's source blob of an account this server holds is authorized (Copy Blob's
 * "Authorization"): the destination request's credential "applies only to the destination blob";
 * the source is authorized by the account key of a Shared Key request in the same account, or else
 * by its own URL — a SAS in it, or nothing (then only a public container's blob is readable). The
 * blob service registers, per request, how to authorize a source URL's own credential; the copy
 * routes read the source through the store that credential opens, never over HTTP.
 */

export interface CopySourceTarget {
  readonly account: string;
  readonly container: string;
  readonly blob: string;
  /** The source URL's query: its SAS, if any (and `snapshot`). */
  readonly query: URLSearchParams;
}

/** The caller the source URL's own credential makes; undefined when the account is not served here. */
export type CopySourceAccess = (source: CopySourceTarget) => Promise<StorageCaller | undefined>;

const registered = new WeakMap<RequestContext["req"], CopySourceAccess>();

/** Registers, for a copy request, how its source URL's own credential is authorized. */
export function rememberCopySourceAccess(ctx: RequestContext, deps: ServiceDeps): void {
  registered.set(ctx.req, async (source) => {
    const account = deps.accounts.get(source.account);
    if (!account) return undefined;
    const sourceCtx = { ...ctx, account: source.account, query: source.query };
    return authorizeStorage(sourceCtx, {
      service: "blob",
      accounts: deps.accounts,
      store: deps.store(source.account),
      resource: { container: source.container, blob: source.blob },
      storedPolicy: await storedPolicyLookup(sourceCtx, account.store, "container", source.container),
      copySource: true,
    });
  });
}

export function copySourceAccess(ctx: RequestContext): CopySourceAccess | undefined {
  return registered.get(ctx.req);
}
