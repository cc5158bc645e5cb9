import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { TableKitError } from "../../model/index.js";

/**
 * Azure Table shared access signatures, written and read exactly as the service defines them, so a
 * token made here works against Azure, Azurite and `tablekit serve`, and the embedded engine accepts
 * the tokens the Azure SDKs make. Enforcement lives in access-policy.ts; verification in verify-sas.ts.
 */

/** The service version tokens are signed for when none is given (the Azure SDKs' default). */
export const DEFAULT_SAS_VERSION = "2019-02-02";

/** What a table token allows: r (query), a (add), u (update), d (delete). */
export interface TablePermissions {
  readonly query?: boolean;
  readonly add?: boolean;
  readonly update?: boolean;
  readonly delete?: boolean;
}

/** An inclusive range of entities in key order: from (startPartitionKey, startRowKey) to (endPartitionKey, endRowKey). */
export interface EntityKeyRange {
  readonly startPartitionKey?: string;
  readonly startRowKey?: string;
  readonly endPartitionKey?: string;
  readonly endRowKey?: string;
}

/** Addresses a token may be used from: one IPv4 address, or `start`-`end` inclusive. */
export interface SasIpRange {
  readonly start: string;
  readonly end?: string;
}

export type SasProtocol = "https" | "https,http";

/** An account's name and base64 key (the key signs; it never appears in a token). */
export interface SasAccount {
  readonly name: string;
  readonly key: string;
}

export interface TableSasOptions extends EntityKeyRange {
  readonly account: SasAccount;
  readonly tableName: string;
  /** Required unless `identifier` names a stored access policy that sets them. */
  readonly permissions?: TablePermissions;
  readonly startsOn?: Date;
  readonly expiresOn?: Date;
  readonly ipRange?: SasIpRange;
  readonly protocol?: SasProtocol;
  /** A stored access policy of the table (`si`), which then supplies permissions and times. */
  readonly identifier?: string;
  readonly version?: string;
}

/** The fields of a token, as parsed from its query string (values decoded). */
export type SasFields = Readonly<Record<string, string>>;

const TABLE_PERMISSION_ORDER = [
  ["query", "r"],
  ["add", "a"],
  ["update", "u"],
  ["delete", "d"],
] as const;

/** `{ query: true, add: true }` → `"ra"`, in the service's order. */
export function tablePermissionsToString(permissions: TablePermissions): string {
  return TABLE_PERMISSION_ORDER.filter(([name]) => permissions[name])
    .map(([, letter]) => letter)
    .join("");
}

/** `"raud"` → permissions; an unknown letter is InvalidInput. */
export function tablePermissionsFromString(text: string): TablePermissions {
  const out: Record<string, boolean> = {};
  for (const letter of text) {
    const entry = TABLE_PERMISSION_ORDER.find(([, l]) => l === letter);
    if (!entry) throw new TableKitError("InvalidInput", `'${letter}' is not a table permission (r, a, u, d)`);
    out[entry[0]] = true;
  }
  return out;
}

/** A time as the service writes it in tokens: ISO 8601 to the second, UTC. */
export function sasTime(date: Date): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new TableKitError("InvalidInput", "A token time must be a valid Date");
  }
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function ipRangeToString(range: SasIpRange | undefined): string {
  if (!range) return "";
  return range.end ? `${range.start}-${range.end}` : range.start;
}

/**
 * The HMAC keys of account keys, decoded once: a server signs with the same few keys on every
 * request, and decoding one (base64, then a key import) cost as much as the HMAC of a short string.
 */
const hmacKeys = new Map<string, KeyObject>();
const MAX_HMAC_KEYS = 1000;

function hmacKey(key: string): KeyObject {
  let secret = hmacKeys.get(key);
  if (secret === undefined) {
    if (hmacKeys.size >= MAX_HMAC_KEYS) hmacKeys.clear();
    secret = createSecretKey(Buffer.from(key, "base64"));
    hmacKeys.set(key, secret);
  }
  return secret;
}

/** base64(HMAC-SHA256(base64decode(key), text)). */
export function signString(key: string, text: string): string {
  return createHmac("sha256", hmacKey(key)).update(text, "utf8").digest("base64");
}

/** The string a table token signs, newline-joined in the service's order. */
export function tableStringToSign(accountName: string, fields: SasFields): string {
  return [
    fields.sp ?? "",
    fields.st ?? "",
    fields.se ?? "",
    `/table/${accountName}/${(fields.tn ?? "").toLowerCase()}`,
    fields.si ?? "",
    fields.sip ?? "",
    fields.spr ?? "",
    fields.sv ?? "",
    fields.spk ?? "",
    fields.srk ?? "",
    fields.epk ?? "",
    fields.erk ?? "",
  ].join("\n");
}

/** The string an account token signs (with the encryption-scope line from version 2020-12-06). */
export function accountStringToSign(accountName: string, fields: SasFields): string {
  const lines = [
    accountName,
    fields.sp ?? "",
    fields.ss ?? "",
    fields.srt ?? "",
    fields.st ?? "",
    fields.se ?? "",
    fields.sip ?? "",
    fields.spr ?? "",
    fields.sv ?? "",
  ];
  if ((fields.sv ?? "") >= "2020-12-06") lines.push(fields.ses ?? "");
  return `${lines.join("\n")}\n`;
}

/**
 * A service SAS for one table, as a query string without the leading `?`
 * (`sv=…&tn=…&sp=…&se=…&sig=…`): append it to the table endpoint, or pass it as `sasToken`.
 *
 * @example generateTableSas({ account, tableName: "Orders", permissions: { query: true }, expiresOn })
 */
export function generateTableSas(options: TableSasOptions): string {
  const { account, tableName } = options;
  if (typeof tableName !== "string" || tableName === "") {
    throw new TableKitError("InvalidInput", "A table token needs a tableName");
  }
  if (!options.identifier && (!options.permissions || !options.expiresOn)) {
    throw new TableKitError(
      "InvalidInput",
      "A table token needs permissions and expiresOn unless it names a stored access policy (identifier)",
    );
  }
  if (options.startRowKey !== undefined && options.startPartitionKey === undefined) {
    throw new TableKitError("InvalidInput", "startRowKey needs startPartitionKey");
  }
  if (options.endRowKey !== undefined && options.endPartitionKey === undefined) {
    throw new TableKitError("InvalidInput", "endRowKey needs endPartitionKey");
  }
  // An empty bound signs exactly as no bound, so a token cannot carry one: leave it out instead.
  for (const name of ["startPartitionKey", "startRowKey", "endPartitionKey", "endRowKey"] as const) {
    if (options[name] === "") {
      throw new TableKitError("InvalidInput", `An empty ${name} cannot be told from no bound in a token`);
    }
  }
  const fields: Record<string, string> = { sv: options.version ?? DEFAULT_SAS_VERSION, tn: tableName };
  if (options.permissions) fields.sp = tablePermissionsToString(options.permissions);
  if (options.startsOn) fields.st = sasTime(options.startsOn);
  if (options.expiresOn) fields.se = sasTime(options.expiresOn);
  if (options.ipRange) fields.sip = ipRangeToString(options.ipRange);
  if (options.protocol) fields.spr = options.protocol;
  if (options.identifier) fields.si = options.identifier;
  if (options.startPartitionKey !== undefined) fields.spk = options.startPartitionKey;
  if (options.startRowKey !== undefined) fields.srk = options.startRowKey;
  if (options.endPartitionKey !== undefined) fields.epk = options.endPartitionKey;
  if (options.endRowKey !== undefined) fields.erk = options.endRowKey;
  fields.sig = signString(checkKey(account), tableStringToSign(account.name, fields));
  return formatSasFields(fields);
}

/** Account permissions for the Table service (`sp` of an account token). */
export interface AccountPermissions {
  readonly read?: boolean;
  readonly write?: boolean;
  readonly delete?: boolean;
  readonly list?: boolean;
  readonly add?: boolean;
  readonly create?: boolean;
  readonly update?: boolean;
  readonly process?: boolean;
}

export interface AccountSasOptions {
  readonly account: SasAccount;
  readonly permissions: AccountPermissions;
  /** `s` service (properties, stats), `c` container (tables), `o` object (entities). */
  readonly resourceTypes: {
    readonly service?: boolean;
    readonly container?: boolean;
    readonly object?: boolean;
  };
  /** Services the token covers; default the Table service only (`t`). */
  readonly services?: string;
  readonly startsOn?: Date;
  readonly expiresOn: Date;
  readonly ipRange?: SasIpRange;
  readonly protocol?: SasProtocol;
  readonly version?: string;
}

const ACCOUNT_PERMISSION_ORDER = [
  ["read", "r"],
  ["write", "w"],
  ["delete", "d"],
  ["list", "l"],
  ["add", "a"],
  ["create", "c"],
  ["update", "u"],
  ["process", "p"],
] as const;

/** An account SAS (every table of the account), as a query string without the leading `?`. */
export function generateAccountSas(options: AccountSasOptions): string {
  const sp = ACCOUNT_PERMISSION_ORDER.filter(([name]) => options.permissions[name])
    .map(([, l]) => l)
    .join("");
  const rt = options.resourceTypes;
  const srt = `${rt.service ? "s" : ""}${rt.container ? "c" : ""}${rt.object ? "o" : ""}`;
  const fields: Record<string, string> = {
    sv: options.version ?? DEFAULT_SAS_VERSION,
    ss: options.services ?? "t",
    srt,
    sp,
  };
  if (options.startsOn) fields.st = sasTime(options.startsOn);
  fields.se = sasTime(options.expiresOn);
  if (options.ipRange) fields.sip = ipRangeToString(options.ipRange);
  if (options.protocol) fields.spr = options.protocol;
  fields.sig = signString(checkKey(options.account), accountStringToSign(options.account.name, fields));
  return formatSasFields(fields);
}

/** The names a token may carry (others are the request's own query parameters). */
export const SAS_FIELD_NAMES: ReadonlySet<string> = new Set([
  "sv",
  "ss",
  "srt",
  "sp",
  "st",
  "se",
  "sip",
  "spr",
  "ses",
  "tn",
  "si",
  "spk",
  "srk",
  "epk",
  "erk",
  "sig",
]);

/** Reads a token (`?` optional); fields are URL-decoded. Unknown parameters are left out. */
export function parseSasToken(token: string): SasFields {
  if (typeof token !== "string") throw new TableKitError("InvalidInput", "A SAS token must be a string");
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(token.replace(/^\?/, ""))) {
    if (SAS_FIELD_NAMES.has(name)) fields[name] = value;
  }
  return fields;
}

function formatSasFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("&");
}

function checkKey(account: SasAccount): string {
  if (!account || typeof account.name !== "string" || typeof account.key !== "string" || account.key === "") {
    throw new TableKitError("InvalidInput", "A token needs an account { name, key }");
  }
  return account.key;
}
