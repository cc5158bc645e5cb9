import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { TableKitError } from "../../model/index.js";
import { AccessPolicy } from "./access-policy.js";
import { DEVELOPMENT_ACCOUNT } from "./development-account.js";
import {
  accountStringToSign,
  type EntityKeyRange,
  parseSasToken,
  type SasAccount,
  type SasFields,
  signString,
  type TablePermissions,
  tablePermissionsFromString,
  tableStringToSign,
} from "./sas-token.js";

/** An account a verifier knows: its name and keys (key1, optionally key2), base64. */
export interface AccountKeys {
  readonly name: string;
  readonly keys: readonly string[];
}

/** A stored access policy of a table (`?comp=acl`), which a token names with `si`. */
export interface StoredAccessPolicy {
  readonly id: string;
  readonly start?: string;
  readonly expiry?: string;
  readonly permission?: string;
}

export interface VerifySasOptions {
  /** The account the request addresses; the token must be signed with one of its keys. */
  readonly account: AccountKeys | undefined;
  /** Where the caller is: the client's address and the protocol it came over. */
  readonly clientIp: string;
  readonly protocol: "http" | "https";
  /** A table's stored access policy by id (for `si`); absent means none exist. */
  readonly storedPolicy?: (tableName: string, id: string) => StoredAccessPolicy | undefined;
  /** The clock, for tests; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A service SAS's permissions, start and expiry: the token's own, or those of the stored access
 * policy its `si` names — each field from one of them, never both, as the service requires.
 */
export function sasTerms(
  fields: { readonly sp?: string; readonly st?: string; readonly se?: string; readonly si?: string },
  storedPolicy: (id: string) => StoredAccessPolicy | undefined,
): { sp: string; st: string | undefined; se: string } {
  let { sp, st, se } = fields;
  if (fields.si !== undefined) {
    const policy = storedPolicy(fields.si);
    if (!policy) {
      throw new TableKitError(
        "AuthorizationFailure",
        `The stored access policy '${fields.si}' does not exist.`,
      );
    }
    if ((sp && policy.permission) || (st && policy.start) || (se && policy.expiry)) {
      throw authenticationFailed(
        "Access policy fields can be associated with signature or SAS identifier but not both.",
      );
    }
    sp = sp || policy.permission;
    st = st || policy.start;
    se = se || policy.expiry;
  }
  if (!sp || !se) throw authenticationFailed("The token lacks its permissions or expiry.");
  return { sp, st, se };
}

/** AuthenticationFailed with the service's message and `detail`. */
export function authenticationFailed(detail: string): TableKitError {
  return new TableKitError(
    "AuthenticationFailed",
    `Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. ${detail}`,
    // The Queue and Blob services write the detail in its own XML element.
    { details: { authenticationErrorDetail: detail } },
  );
}

export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseTime(text: string | undefined, name: string): Date | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw authenticationFailed(`The ${name} time '${text}' is not a valid ISO 8601 time.`);
  return new Date(ms);
}

/**
 * Checks a token's signature, protocol and IP range, resolves its stored access policy, and returns
 * what it allows; start and expiry are checked again on every call the policy guards. Throws the
 * service's 403 codes: AuthenticationFailed for a bad or missing signature or time,
 * AuthorizationProtocolMismatch, AuthorizationSourceIPMismatch, AuthorizationFailure for an
 * unknown stored policy.
 */
/** The fields only a user delegation SAS carries (the key it was signed with, the user it acts for). */
const USER_DELEGATION_FIELDS = [
  "skoid",
  "sktid",
  "skt",
  "ske",
  "sks",
  "skv",
  "skdutid",
  "saoid",
  "suoid",
  "scid",
  "sduoid",
];

/**
 * A token with user-delegation fields is a user delegation SAS, signed with a key from Get User
 * Delegation Key, which is not served: refused whatever it was signed with (the account key signs
 * none of these fields, so accepting them would grant what they claim to limit).
 */
export function refuseUserDelegation(fields: Readonly<Record<string, string | undefined>>): void {
  const found = USER_DELEGATION_FIELDS.find((name) => fields[name] !== undefined);
  if (found !== undefined) {
    throw authenticationFailed(
      `The token carries '${found}': user delegation SAS are not served (only tokens signed with an account key).`,
    );
  }
}

export function verifySasToken(fields: SasFields, options: VerifySasOptions): AccessPolicy {
  const { account } = options;
  refuseUserDelegation(fields as Readonly<Record<string, string | undefined>>);
  const sig = fields.sig;
  if (!sig || !fields.sv) throw authenticationFailed("The token has no signature or no version.");
  if (!account) throw authenticationFailed("The account is unknown.");
  const isAccount = fields.ss !== undefined || fields.srt !== undefined;
  if (!isAccount && !fields.tn) throw authenticationFailed("A table token must name its table (tn).");
  const stringToSign = isAccount
    ? accountStringToSign(account.name, fields)
    : tableStringToSign(account.name, fields);
  if (!account.keys.some((key) => sameSignature(signString(key, stringToSign), sig))) {
    throw authenticationFailed("Signature did not match.");
  }
  checkProtocol(fields.spr, options.protocol);
  checkIp(fields.sip, options.clientIp);
  const now = options.now ?? Date.now;
  if (isAccount) {
    if (!fields.sp || !fields.se || !fields.ss || !fields.srt)
      throw authenticationFailed("The token lacks sp, se, ss or srt.");
    return new AccessPolicy(
      withTimes(
        { kind: "account", services: fields.ss, resourceTypes: fields.srt, permissions: fields.sp },
        fields.st,
        fields.se,
      ),
      now,
    );
  }
  const { sp, st, se } = sasTerms(fields, (id) => options.storedPolicy?.(fields.tn!, id));
  let permissions: TablePermissions;
  try {
    permissions = tablePermissionsFromString(sp);
  } catch {
    throw authenticationFailed(`The permissions '${sp}' are not valid.`);
  }
  return new AccessPolicy(
    withTimes({ kind: "table", tableName: fields.tn!, permissions, keyRange: keyRangeOf(fields) }, st, se),
    now,
  );
}

/**
 * A token's key range. A bound signs as its value or as an empty line when absent, so an empty
 * value is no bound (it cannot be told from none). A row bound is a row within its partition bound:
 * one without the other (`srk` without `spk`, `erk` without `epk`) bounds nothing the service
 * defines, and the token is refused rather than read with the row bound dropped.
 */
function keyRangeOf(fields: SasFields): EntityKeyRange {
  const bound = (name: "spk" | "srk" | "epk" | "erk") => (fields[name] === "" ? undefined : fields[name]);
  const [spk, srk, epk, erk] = [bound("spk"), bound("srk"), bound("epk"), bound("erk")];
  if ((srk !== undefined && spk === undefined) || (erk !== undefined && epk === undefined)) {
    throw authenticationFailed(
      "Signature fields not well formed: a row key bound (srk, erk) needs its partition key bound (spk, epk).",
    );
  }
  return {
    ...(spk !== undefined ? { startPartitionKey: spk } : {}),
    ...(srk !== undefined ? { startRowKey: srk } : {}),
    ...(epk !== undefined ? { endPartitionKey: epk } : {}),
    ...(erk !== undefined ? { endRowKey: erk } : {}),
  };
}

function withTimes<T extends object>(scope: T, st: string | undefined, se: string | undefined): T {
  const startsOn = parseTime(st, "start");
  const expiresOn = parseTime(se, "expiry");
  return { ...scope, ...(startsOn ? { startsOn } : {}), ...(expiresOn ? { expiresOn } : {}) };
}

export function checkProtocol(spr: string | undefined, protocol: "http" | "https"): void {
  if (spr === undefined || spr === "" || spr === "https,http" || spr === "http,https") return;
  if (spr !== "https") throw authenticationFailed(`The protocol '${spr}' is not valid.`);
  if (protocol !== "https") {
    throw new TableKitError(
      "AuthorizationProtocolMismatch",
      "This request is not authorized to perform this operation using this protocol.",
    );
  }
}

function ipv4Number(ip: string): number | undefined {
  const plain = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  if (isIP(plain) !== 4) return undefined;
  return plain.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

export function checkIp(sip: string | undefined, clientIp: string): void {
  if (sip === undefined || sip === "") return;
  const [startText, endText] = sip.split("-");
  const start = ipv4Number(startText ?? "");
  const end = endText === undefined ? start : ipv4Number(endText);
  if (start === undefined || end === undefined)
    throw authenticationFailed(`The IP range '${sip}' is not valid.`);
  const client = ipv4Number(clientIp);
  if (client === undefined || client < start || client > end) {
    throw new TableKitError(
      "AuthorizationSourceIPMismatch",
      `This request is not authorized to perform this operation using this source IP ${clientIp}.`,
    );
  }
}

/** Options of a store opened with an access token (`openStore(url, { accessToken })`, `store.withAccessToken`). */
export interface AccessTokenOptions {
  /** The account the token is signed for; default the development account `devstoreaccount1`. */
  readonly account?: SasAccount;
  /** Stored access policies by table and id, for tokens that name one (`si`). */
  readonly policies?: (tableName: string, id: string) => StoredAccessPolicy | undefined;
}

/**
 * The rights of a token for an in-process caller (counted as 127.0.0.1 over HTTPS: no network lies
 * between it and the store), verified against `options.account`.
 */
export function accessOfToken(token: string, options: AccessTokenOptions = {}): AccessPolicy {
  if (typeof token !== "string") {
    throw new TableKitError(
      "InvalidInput",
      "An access token must be a shared access signature (a query string)",
    );
  }
  const account = options.account ?? DEVELOPMENT_ACCOUNT;
  return verifySasToken(parseSasToken(token), {
    account: { name: account.name, keys: [account.key] },
    clientIp: "127.0.0.1",
    protocol: "https",
    ...(options.policies ? { storedPolicy: options.policies } : {}),
  });
}
