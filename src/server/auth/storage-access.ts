import { TableKitError } from "../../model/index.js";
import { signString } from "../../store/access/sas-token.js";
import { isUserDelegationSas, verifyUserDelegationSas } from "../../store/access/user-delegation.js";
import {
  authenticationFailed,
  checkIp,
  checkProtocol,
  refuseUserDelegation,
  sameSignature,
  sasTerms,
} from "../../store/access/verify-sas.js";
import {
  AccessPolicy,
  type AccessScope,
  type AccountKeys,
  type Store,
  type StoredAccessPolicy,
  verifySasToken,
} from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";
import { bearerTokenOf, type OAuthLevel, verifyBearerToken } from "./bearer-token.js";
import { verifySharedKey } from "./shared-key.js";
import { storageStringsToSign } from "./storage-shared-key.js";

/**
 * Who a Queue or Blob service request is, as the Table service's `authorize` does it: the request
 * is authenticated here (the key, a shared access signature's signature, a bearer token) and runs
 * on the account's store scoped to what it proved (`store.scoped(policy)`); the core's
 * `AccessPolicy` then decides every operation (storage-operations.ts), as it does for tables.
 */

export interface StorageCaller {
  /** The account's store: whole for the account key, scoped to the credential otherwise. */
  readonly store: Store;
  /** No credential at all: the core lets it read what a container's public access level opens. */
  readonly anonymous: boolean;
  /** Signed with the account key itself (Shared Key): reads any blob of the account, as a copy source too. */
  readonly keyHolder: boolean;
  /** Authenticated by a bearer token (OAuth): the only caller Get User Delegation Key serves. */
  readonly bearer: boolean;
  /** A Blob service SAS: its signature covers the response-header overrides (rsct, rscd, …). */
  readonly signsOverrides: boolean;
}

/** The resource a request addresses, as a service SAS names it: a queue, a container, or a blob in one. */
export interface StorageResource {
  readonly container?: string;
  readonly blob?: string;
}

export interface StorageAuthOptions {
  readonly service: "queue" | "blob";
  readonly accounts: ReadonlyMap<string, AccountKeys>;
  /** The account's whole store, which the caller's credential scopes. */
  readonly store: Store;
  /** The resource the request addresses (a service SAS must name it). */
  readonly resource: StorageResource;
  /** A stored access policy of a queue or container (for `si`). */
  readonly storedPolicy: (resource: string, id: string) => StoredAccessPolicy | undefined;
  readonly now?: () => number;
  /** Bearer tokens: refused unless `basic`. */
  readonly oauth?: OAuthLevel;
  /**
   * A copy source URL is being authorized: only its query (a SAS, or none: anonymous) counts, never
   * the Authorization header of the request that names it.
   */
  readonly copySource?: boolean;
}

function caller(
  store: Store,
  scope: AccessScope | undefined,
  now: () => number,
  signsOverrides = false,
): StorageCaller {
  return {
    store: scope ? store.scoped(new AccessPolicy(scope, now)) : store,
    anonymous: scope?.kind === "anonymous",
    bearer: scope?.kind === "bearer",
    keyHolder: scope === undefined,
    signsOverrides,
  };
}

/** Authenticates a Queue or Blob service request (see StorageCaller); throws the service's 403s. */
export function authorizeStorage(ctx: RequestContext, options: StorageAuthOptions): StorageCaller {
  const account = options.accounts.get(ctx.account);
  const authorization = options.copySource ? undefined : ctx.req.headers.authorization;
  if (authorization) {
    const bearer = bearerTokenOf(authorization);
    if (bearer !== undefined) return bearerCaller(ctx, bearer, account, options);
    verifySharedKey(ctx, authorization, account, storageStringsToSign, options.now?.() ?? Date.now());
    return caller(options.store, undefined, Date.now);
  }
  if (!ctx.query.has("sig")) {
    if (options.service === "blob")
      return caller(options.store, { kind: "anonymous" }, options.now ?? Date.now);
    throw new TableKitError(
      "AuthenticationFailed",
      "Server failed to authenticate the request. The request carries no Authorization header and no shared access signature.",
    );
  }
  // Every parameter: the Blob service's tokens carry fields (sr, rsct, …) the Table service's do not.
  const fields: Record<string, string> = Object.fromEntries(ctx.query);
  const isAccount = fields.ss !== undefined || fields.srt !== undefined;
  // Only a Blob service SAS may be a user delegation SAS; its fields on any other token are refused.
  if (isAccount || options.service !== "blob" || !isUserDelegationSas(fields)) refuseUserDelegation(fields);
  const now = options.now ?? Date.now;
  if (isAccount) return accountSas(ctx, fields, account, options, now);
  return serviceSas(ctx, fields, account, options, now);
}

function bearerCaller(
  ctx: RequestContext,
  token: string,
  account: AccountKeys | undefined,
  options: StorageAuthOptions,
): StorageCaller {
  if (!options.oauth) {
    throw authenticationFailed("Bearer tokens are accepted only with --oauth basic (over HTTPS).");
  }
  if (!account) throw authenticationFailed(`The account '${ctx.account}' is unknown.`);
  verifyBearerToken(token, {
    account: account.name,
    service: options.service,
    protocol: ctx.protocol,
    ...(options.now ? { now: options.now() } : {}),
  });
  return caller(options.store, { kind: "bearer", service: options.service }, options.now ?? Date.now);
}

function inTime(startsOn: Date | undefined, expiresOn: Date | undefined, now: number): void {
  if ((startsOn && now < startsOn.getTime()) || (expiresOn && now > expiresOn.getTime())) {
    throw authenticationFailed(
      `Signature not valid in the specified time frame: Start [${startsOn?.toUTCString() ?? ""}] - Expiry [${expiresOn?.toUTCString() ?? ""}] - Current [${new Date(now).toUTCString()}]`,
    );
  }
}

function accountSas(
  ctx: RequestContext,
  fields: Readonly<Record<string, string>>,
  account: AccountKeys | undefined,
  options: StorageAuthOptions,
  now: () => number,
): StorageCaller {
  const policy = verifySasToken(fields, { account, clientIp: ctx.clientIp, protocol: ctx.protocol, now });
  const scope = policy.scope;
  if (scope.kind !== "account") throw authenticationFailed("The token is not an account SAS.");
  inTime(scope.startsOn, scope.expiresOn, now());
  return caller(options.store, scope, now);
}

function parseTime(text: string | undefined, name: string): Date | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw authenticationFailed(`The ${name} time '${text}' is not a valid ISO 8601 time.`);
  return new Date(ms);
}

/** The string a queue or blob service SAS signs, by its version. */
function serviceStringToSign(
  service: "queue" | "blob",
  fields: Readonly<Record<string, string>>,
  canonical: string,
): string {
  const f = (name: string) => fields[name] ?? "";
  const head = [f("sp"), f("st"), f("se"), canonical, f("si"), f("sip"), f("spr"), f("sv")];
  if (service === "queue") return head.join("\n");
  const overrides = [f("rscc"), f("rscd"), f("rsce"), f("rscl"), f("rsct")];
  const version = f("sv");
  // A token for a snapshot (sr=bs) signs its time: the request's `snapshot`.
  const snapshot = fields.sr === "bs" ? f("snapshot") : "";
  if (version >= "2020-12-06") return [...head, f("sr"), snapshot, f("ses"), ...overrides].join("\n");
  if (version >= "2018-11-09") return [...head, f("sr"), snapshot, ...overrides].join("\n");
  return [...head, ...overrides].join("\n");
}

function serviceSas(
  ctx: RequestContext,
  fields: Readonly<Record<string, string>>,
  account: AccountKeys | undefined,
  options: StorageAuthOptions,
  now: () => number,
): StorageCaller {
  const sig = fields.sig;
  if (!sig || !fields.sv) throw authenticationFailed("The token has no signature or no version.");
  if (!account) throw authenticationFailed("The account is unknown.");
  const { container, blob } = options.resource;
  if (container === undefined) {
    throw new TableKitError(
      "AuthorizationResourceTypeMismatch",
      "A service SAS grants no service-level operation.",
    );
  }
  const containerLevel = options.service === "blob" && fields.sr === "c";
  if (options.service === "blob" && fields.sr !== "c" && fields.sr !== "b" && fields.sr !== "bs") {
    throw authenticationFailed(`The signed resource '${fields.sr ?? ""}' is not served (c, b or bs).`);
  }
  // The token names its resource only through the signature: sign for what the request addresses.
  const canonical =
    options.service === "queue"
      ? `/queue/${account.name}/${container}`
      : `/blob/${account.name}/${container}${containerLevel || blob === undefined ? "" : `/${blob}`}`;
  const delegated = isUserDelegationSas(fields);
  if (delegated) {
    verifyUserDelegationSas(fields, { account, canonical, now: now() });
  } else {
    const text = serviceStringToSign(options.service, fields, canonical);
    if (!account.keys.some((key) => sameSignature(signString(key, text), sig))) {
      throw authenticationFailed("Signature did not match.");
    }
  }
  checkProtocol(fields.spr, ctx.protocol);
  checkIp(fields.sip, ctx.clientIp);
  const { sp, st, se } = sasTerms(fields, (id) => options.storedPolicy(container, id));
  const startsOn = parseTime(st, "start");
  const expiresOn = parseTime(se, "expiry");
  inTime(startsOn, expiresOn, now());
  const times = { ...(startsOn ? { startsOn } : {}), ...(expiresOn ? { expiresOn } : {}) };
  const scope: AccessScope =
    options.service === "queue"
      ? { kind: "queue", queueName: container, permissions: sp, ...times }
      : {
          kind: "blob",
          containerName: container,
          // A blob SAS names its blob through the signature: the one the request addresses.
          ...(containerLevel ? {} : { blobName: blob ?? "" }),
          permissions: sp,
          ...times,
        };
  return caller(options.store, scope, now, options.service === "blob");
}
