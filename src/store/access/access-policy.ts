import type { FilterNode } from "../../filter/index.js";
import { type EntityKeys, type ErrorCode, TableKitError } from "../../model/index.js";
import { inKeyRange, keyRangeFilter } from "./key-range.js";
import type { EntityKeyRange, TablePermissions } from "./sas-token.js";
import {
  BLOB_OPERATIONS,
  type BlobOperation,
  PUBLIC_READS,
  QUEUE_OPERATIONS,
  type QueueOperation,
  type StorageOperationNeeds,
} from "./storage-operations.js";

/**
 * What a shared access signature allows, checked by the core (`Store`, `Table`) before any backend
 * call. The one enforcement of tokens: the embedded engine opened with a token and `tablekit serve`
 * (per request) both go through it. Built by `verifySasToken` (verify-sas.ts).
 */

/** Every operation a token may allow or refuse. */
export type AccessOperation =
  | "query"
  | "insert"
  | "upsert"
  | "update"
  | "delete"
  | "listTables"
  | "createTable"
  | "deleteTable"
  | "getAcl"
  | "setAcl"
  | "getServiceProperties"
  | "setServiceProperties"
  | "getServiceStats";

/** A service SAS: one table's entities, by permission and key range. */
export interface TableAccessScope {
  readonly kind: "table";
  readonly tableName: string;
  readonly permissions: TablePermissions;
  readonly keyRange: EntityKeyRange;
  readonly startsOn?: Date;
  readonly expiresOn?: Date;
}

/** An account SAS: services (`ss`), resource types (`srt`) and permissions (`sp`) as letters. */
export interface AccountAccessScope {
  readonly kind: "account";
  readonly services: string;
  readonly resourceTypes: string;
  readonly permissions: string;
  readonly startsOn?: Date;
  readonly expiresOn?: Date;
}

/** A Queue service SAS: one queue, by permission letters (r, a, u, p). */
export interface QueueAccessScope {
  readonly kind: "queue";
  readonly queueName: string;
  readonly permissions: string;
  readonly startsOn?: Date;
  readonly expiresOn?: Date;
}

/** A Blob service SAS: a container (`sr=c`, no `blobName`) or one blob of it (`sr=b`), by permission letters. */
export interface BlobAccessScope {
  readonly kind: "blob";
  readonly containerName: string;
  readonly blobName?: string;
  readonly permissions: string;
  readonly startsOn?: Date;
  readonly expiresOn?: Date;
}

/** An Entra bearer token verified for one service: everything the account key may do there but ACLs. */
export interface BearerAccessScope {
  readonly kind: "bearer";
  readonly service: "table" | "queue" | "blob";
  readonly startsOn?: undefined;
  readonly expiresOn?: undefined;
}

/** No credential at all: only the reads a container's public access level allows (Blob service). */
export interface AnonymousAccessScope {
  readonly kind: "anonymous";
  readonly startsOn?: undefined;
  readonly expiresOn?: undefined;
}

export type AccessScope =
  | TableAccessScope
  | AccountAccessScope
  | QueueAccessScope
  | BlobAccessScope
  | BearerAccessScope
  | AnonymousAccessScope;

/** The service a scope reaches, as the account SAS's `ss` letters name them; undefined: any the token's letters list. */
function serviceOf(scope: AccessScope): "t" | "q" | "b" | undefined {
  switch (scope.kind) {
    case "table":
      return "t";
    case "queue":
      return "q";
    case "blob":
    case "anonymous":
      return "b";
    case "bearer":
      return scope.service === "table" ? "t" : scope.service === "queue" ? "q" : "b";
    case "account":
      return undefined;
  }
}

/** What a Blob service check is about: the container and blob addressed, and the container's public access level (anonymous callers). */
export interface BlobTarget {
  readonly container?: string;
  readonly blob?: string;
  readonly publicAccess?: "blob" | "container";
}

type Compare = (a: string, b: string) => number;

/** Table-token permissions each entity operation needs (all of them). */
const TABLE_NEEDS: Partial<Record<AccessOperation, readonly (keyof TablePermissions)[]>> = {
  query: ["query"],
  insert: ["add"],
  // Insert-or-replace and insert-or-merge need both Add and Update (service SAS documentation).
  upsert: ["add", "update"],
  update: ["update"],
  delete: ["delete"],
};

/**
 * Account-token needs: the resource type (`s`, `c`, `o`), then the permission sets of which one
 * must be held whole (create a table with `c` or `w`; upsert with both `a` and `u`).
 */
const ACCOUNT_NEEDS: Record<AccessOperation, { type: string; anyOf: readonly string[] }> = {
  query: { type: "o", anyOf: ["r"] },
  insert: { type: "o", anyOf: ["a"] },
  upsert: { type: "o", anyOf: ["au"] },
  update: { type: "o", anyOf: ["u"] },
  delete: { type: "o", anyOf: ["d"] },
  listTables: { type: "c", anyOf: ["l"] },
  createTable: { type: "c", anyOf: ["c", "w"] },
  deleteTable: { type: "c", anyOf: ["d"] },
  // Table ACLs need the account key: no token grants them.
  getAcl: { type: "c", anyOf: [] },
  setAcl: { type: "c", anyOf: [] },
  getServiceProperties: { type: "s", anyOf: ["r"] },
  setServiceProperties: { type: "s", anyOf: ["w"] },
  getServiceStats: { type: "s", anyOf: ["r"] },
};

function refuse(code: ErrorCode, message: string, details?: Record<string, unknown>): TableKitError {
  return new TableKitError(code, message, details ? { details } : {});
}

function permissionMismatch(operation: string): TableKitError {
  return refuse(
    "AuthorizationPermissionMismatch",
    `This token does not have the permission ${operation} needs.`,
    {
      operation,
    },
  );
}

function keyOnlyRefusal(): TableKitError {
  return refuse(
    "AuthorizationFailure",
    "This request is not authorized to perform this operation: it needs the account key.",
  );
}

function serviceName(letter: "q" | "b"): string {
  return letter === "q" ? "Queue" : "Blob";
}

/** One verified token's rights. Immutable; `check` reads the clock so an expiring token stops working. */
export class AccessPolicy {
  constructor(
    readonly scope: AccessScope,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws the service's 403 code unless the token allows `operation` on `tableName` now; entity
   * operations then check the entity's keys with `checkKeys`.
   */
  check(operation: AccessOperation, tableName?: string): void {
    this.checkTime();
    const scope = this.scope;
    if (scope.kind === "bearer" && scope.service === "table") {
      if (operation === "getAcl" || operation === "setAcl") throw keyOnlyRefusal();
      return;
    }
    if (scope.kind !== "account" && scope.kind !== "table") {
      throw refuse("AuthorizationServiceMismatch", "This token does not cover the Table service.");
    }
    if (scope.kind === "account") {
      if (!scope.services.includes("t")) {
        throw refuse("AuthorizationServiceMismatch", "This token does not cover the Table service.");
      }
      const need = ACCOUNT_NEEDS[operation];
      if (!scope.resourceTypes.includes(need.type)) {
        throw refuse(
          "AuthorizationResourceTypeMismatch",
          `This token does not cover the resource type '${need.type}' that ${operation} needs.`,
        );
      }
      if (!need.anyOf.some((set) => [...set].every((p) => scope.permissions.includes(p)))) {
        throw refuse(
          "AuthorizationPermissionMismatch",
          `This token does not have the permission ${operation} needs.`,
          { operation },
        );
      }
      return;
    }
    const needs = TABLE_NEEDS[operation];
    if (!needs) {
      throw refuse(
        "AuthorizationResourceTypeMismatch",
        `A table token grants entity operations only, not ${operation}.`,
        { operation },
      );
    }
    if (tableName === undefined || tableName.toLowerCase() !== scope.tableName.toLowerCase()) {
      throw refuse("AuthorizationFailure", `This token is for the table '${scope.tableName}' only.`, {
        tableName,
      });
    }
    if (!needs.every((p) => scope.permissions[p])) {
      throw refuse(
        "AuthorizationPermissionMismatch",
        `This token does not have the permission ${operation} needs.`,
        { operation },
      );
    }
  }

  /** The service a token reaches ("t", "q", "b"), or undefined for an account SAS (its `ss` letters decide). */
  get service(): "t" | "q" | "b" | undefined {
    return serviceOf(this.scope);
  }

  /** True when this is no credential at all: checks then need the container's public access level. */
  get anonymous(): boolean {
    return this.scope.kind === "anonymous";
  }

  /** Throws the service's 403 code unless the token allows the Queue service `operation` on `queueName` now. */
  checkQueue(operation: QueueOperation, queueName?: string): void {
    this.checkTime();
    const scope = this.scope;
    if (scope.kind === "queue" && queueName !== undefined && queueName !== scope.queueName) {
      throw refuse("AuthorizationFailure", `This token is for the queue '${scope.queueName}' only.`);
    }
    this.checkStorage("q", QUEUE_OPERATIONS[operation], operation);
  }

  /**
   * Throws unless the token allows the Blob service `operation` on `target` now. An anonymous
   * caller may only read what the container's public access level opens (`target.publicAccess`);
   * anything else is refused as the service refuses it, as if nothing were there.
   */
  checkBlob(operation: BlobOperation, target: BlobTarget = {}): void {
    this.checkTime();
    const scope = this.scope;
    if (scope.kind === "anonymous") {
      const level = PUBLIC_READS[operation];
      const granted = target.publicAccess;
      if (level && granted && (granted === "container" || level === "blob")) return;
      throw level
        ? refuse("ResourceNotFound", "The specified resource does not exist.")
        : refuse(
            "AuthenticationFailed",
            "Server failed to authenticate the request. The request carries no Authorization header and no shared access signature.",
          );
    }
    const needs = BLOB_OPERATIONS[operation];
    if (scope.kind === "blob") {
      if (target.container !== undefined && target.container !== scope.containerName) {
        throw refuse(
          "AuthorizationFailure",
          `This token is for the container '${scope.containerName}' only.`,
        );
      }
      const containerLevel = scope.blobName === undefined;
      if ("containerLevel" in needs && needs.containerLevel && !containerLevel) {
        throw refuse("AuthorizationResourceTypeMismatch", "A blob SAS does not grant container operations.");
      }
      if (!containerLevel && target.blob !== undefined && target.blob !== scope.blobName) {
        throw refuse("AuthorizationFailure", `This token is for the blob '${scope.blobName}' only.`);
      }
    }
    this.checkStorage("b", needs, operation);
  }

  /**
   * How the token may write a blob: `write` (any blob) or `createOnly` (a token with `c` and no `w`:
   * only a blob that does not exist yet, so the caller must make its write conditional on that).
   * Throws when it may do neither.
   */
  blobWriteGrant(target: BlobTarget): "write" | "createOnly" {
    try {
      this.checkBlob("writeBlob", target);
      return "write";
    } catch (err) {
      if (!(err instanceof TableKitError) || err.code !== "AuthorizationPermissionMismatch") throw err;
      this.checkBlob("createBlob", target);
      return "createOnly";
    }
  }

  /** The account SAS, service SAS and bearer rules every Queue and Blob operation shares. */
  private checkStorage(service: "q" | "b", needs: StorageOperationNeeds, operation: string): void {
    const scope = this.scope;
    const own = serviceOf(scope);
    if (own !== undefined && own !== service) {
      throw refuse(
        "AuthorizationServiceMismatch",
        `This token does not cover the ${serviceName(service)} service.`,
      );
    }
    if (scope.kind === "bearer") {
      if (needs.keyOnly) throw keyOnlyRefusal();
      return;
    }
    if (scope.kind === "account") {
      if (!scope.services.includes(service)) {
        throw refuse(
          "AuthorizationServiceMismatch",
          `This token does not cover the ${serviceName(service)} service.`,
        );
      }
      if (!scope.resourceTypes.includes(needs.account.type)) {
        throw refuse(
          "AuthorizationResourceTypeMismatch",
          `This token does not cover the resource type '${needs.account.type}' that ${operation} needs.`,
        );
      }
      if (![...needs.account.anyOf].some((p) => scope.permissions.includes(p))) {
        throw permissionMismatch(operation);
      }
      return;
    }
    if (scope.kind !== "queue" && scope.kind !== "blob") {
      throw refuse(
        "AuthorizationServiceMismatch",
        `This token does not cover the ${serviceName(service)} service.`,
      );
    }
    if (needs.service === undefined) {
      throw refuse("AuthorizationResourceTypeMismatch", `A service SAS does not grant ${operation}.`, {
        operation,
      });
    }
    if (![...needs.service].some((p) => scope.permissions.includes(p))) throw permissionMismatch(operation);
  }

  /** Throws AuthorizationFailure unless the entity with `keys` is inside the token's key range (in the backend's key order). */
  checkKeys(keys: EntityKeys, compare: Compare): void {
    if (this.scope.kind !== "table" || inKeyRange(this.scope.keyRange, keys, compare)) return;
    throw refuse("AuthorizationFailure", "The entity is outside the key range this token allows.", {
      partitionKey: keys.partitionKey,
      rowKey: keys.rowKey,
    });
  }

  /** The filter a query of `tableName` is restricted to (the token's key range), if any. */
  queryRestriction(): FilterNode | undefined {
    return this.scope.kind === "table" ? keyRangeFilter(this.scope.keyRange) : undefined;
  }

  private checkTime(): void {
    const { startsOn, expiresOn } = this.scope;
    const now = this.now();
    if ((startsOn && now < startsOn.getTime()) || (expiresOn && now > expiresOn.getTime())) {
      throw refuse(
        "AuthenticationFailed",
        `Signature not valid in the specified time frame: Start [${startsOn?.toUTCString() ?? ""}] - Expiry [${
          expiresOn?.toUTCString() ?? ""
        }] - Current [${new Date(now).toUTCString()}]`,
      );
    }
  }
}
