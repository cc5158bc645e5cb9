import { TableKitError } from "../model/errors.js";
import {
  type SasIpRange,
  type SasProtocol,
  generateAccountSas as signAccountSas,
  generateTableSas as signTableSas,
} from "../store/access/sas-token.js";

/** An account name and key, as `@azure/core-auth`'s (the SDK checks credentials by shape). */
export class AzureNamedKeyCredential {
  #name: string;
  #key: string;
  constructor(name: string, key: string) {
    if (!name || !key) throw new TypeError("name and key must be non-empty strings");
    this.#name = name;
    this.#key = key;
  }
  get name(): string {
    return this.#name;
  }
  get key(): string {
    return this.#key;
  }
  /** Replaces the name and key (key rotation), as the SDK's credential does. */
  update(newName: string, newKey: string): void {
    if (!newName || !newKey) throw new TypeError("newName and newKey must be non-empty strings");
    this.#name = newName;
    this.#key = newKey;
  }
}

/** A shared access signature, as `@azure/core-auth`'s. */
export class AzureSASCredential {
  #signature: string;
  constructor(signature: string) {
    if (!signature) throw new Error("shared access signature must be a non-empty string");
    this.#signature = signature;
  }
  get signature(): string {
    return this.#signature;
  }
  update(newSignature: string): void {
    if (!newSignature) throw new Error("shared access signature must be a non-empty string");
    this.#signature = newSignature;
  }
}

export interface NamedKeyCredential {
  readonly name: string;
  readonly key: string;
}

export interface SASCredential {
  readonly signature: string;
}

export interface TableSasPermissions {
  query?: boolean;
  add?: boolean;
  update?: boolean;
  delete?: boolean;
}

export interface TableSasSignatureValues {
  version?: string;
  protocol?: SasProtocol;
  startsOn?: Date;
  expiresOn?: Date;
  permissions?: TableSasPermissions;
  ipRange?: SasIPRange;
  identifier?: string;
  startPartitionKey?: string;
  endPartitionKey?: string;
  startRowKey?: string;
  endRowKey?: string;
}

export type SasIPRange = SasIpRange;

export interface AccountSasPermissions {
  query?: boolean;
  write?: boolean;
  delete?: boolean;
  list?: boolean;
  add?: boolean;
  update?: boolean;
}

export interface AccountSasServices {
  blob?: boolean;
  queue?: boolean;
  file?: boolean;
  table?: boolean;
}

export interface AccountSasOptions {
  expiresOn?: Date;
  permissions?: AccountSasPermissions;
  /** `s`, `c`, `o` in any combination; default `sco`. */
  resourceTypes?: string;
  version?: string;
  protocol?: SasProtocol;
  startsOn?: Date;
  ipRange?: SasIPRange;
  services?: AccountSasServices;
}

const HOUR_MS = 3_600_000;

function checkCredential(credential: NamedKeyCredential): { name: string; key: string } {
  if (typeof credential?.name !== "string" || typeof credential?.key !== "string") {
    throw new RangeError(
      "Can only generate the account SAS when the client is initialized with a shared key credential",
    );
  }
  return { name: credential.name, key: credential.key };
}

/**
 * A table SAS as the SDK's `generateTableSas(tableName, credential, options)`: read-only for an
 * hour by default unless a stored access policy (`identifier`) is named. Signed by tablekit's
 * signer, so the token is the one the service, Azurite and `tablekit serve` verify.
 */
export function generateTableSas(
  tableName: string,
  credential: NamedKeyCredential,
  options: TableSasSignatureValues = {},
): string {
  const account = checkCredential(credential);
  const defaults = options.identifier
    ? {}
    : {
        permissions: options.permissions ?? { query: true },
        expiresOn: options.expiresOn ?? new Date(Date.now() + HOUR_MS),
      };
  return signTableSas({ ...options, ...defaults, tableName, account });
}

/** An account SAS as the SDK's `generateAccountSas(credential, options)`: list and read of the Table service for an hour by default. */
export function generateAccountSas(credential: NamedKeyCredential, options: AccountSasOptions = {}): string {
  const account = checkCredential(credential);
  const permissions = options.permissions ?? { query: true, list: true };
  const resourceTypes = options.resourceTypes ?? "sco";
  if (!/^[sco]*$/.test(resourceTypes)) {
    throw new TableKitError("InvalidInput", `resourceTypes must be made of s, c and o, got ${resourceTypes}`);
  }
  const services = options.services ?? { table: true };
  return signAccountSas({
    account,
    permissions: {
      read: permissions.query,
      write: permissions.write,
      delete: permissions.delete,
      list: permissions.list,
      add: permissions.add,
      update: permissions.update,
    },
    resourceTypes: {
      service: resourceTypes.includes("s"),
      container: resourceTypes.includes("c"),
      object: resourceTypes.includes("o"),
    },
    services: `${services.blob ? "b" : ""}${services.file ? "f" : ""}${services.queue ? "q" : ""}${services.table ? "t" : ""}`,
    expiresOn: options.expiresOn ?? new Date(Date.now() + HOUR_MS),
    ...(options.startsOn ? { startsOn: options.startsOn } : {}),
    ...(options.ipRange ? { ipRange: options.ipRange } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    ...(options.version ? { version: options.version } : {}),
  });
}
