import type { FilterNode } from "../../filter/index.js";
import { type EntityKeys, type ErrorCode, TableKitError } from "../../model/index.js";
import type { EntityKeyRange, TablePermissions } from "./sas-token.js";

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

export type AccessScope = TableAccessScope | AccountAccessScope;

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

/**
 * True when (PartitionKey, RowKey) lies in the inclusive range, compared as a pair in key order: a
 * missing RowKey bound leaves the bounding partition open at that end.
 */
export function inKeyRange(range: EntityKeyRange, keys: EntityKeys, compare: Compare): boolean {
  const { startPartitionKey: spk, startRowKey: srk, endPartitionKey: epk, endRowKey: erk } = range;
  if (spk !== undefined) {
    const c = compare(keys.partitionKey, spk);
    if (c < 0 || (c === 0 && srk !== undefined && compare(keys.rowKey, srk) < 0)) return false;
  }
  if (epk !== undefined) {
    const c = compare(keys.partitionKey, epk);
    if (c > 0 || (c === 0 && erk !== undefined && compare(keys.rowKey, erk) > 0)) return false;
  }
  return true;
}

function str(property: string, op: "eq" | "gt" | "ge" | "lt" | "le", value: string): FilterNode {
  return { kind: "compare", op, property, value: { type: "String", value }, position: -1 };
}

/** The key range as a `$filter` tree, so every backend's query planner narrows to it. */
export function keyRangeFilter(range: EntityKeyRange): FilterNode | undefined {
  const { startPartitionKey: spk, startRowKey: srk, endPartitionKey: epk, endRowKey: erk } = range;
  const parts: FilterNode[] = [];
  if (spk !== undefined) {
    parts.push(
      srk === undefined
        ? str("PartitionKey", "ge", spk)
        : {
            kind: "or",
            left: str("PartitionKey", "gt", spk),
            right: { kind: "and", left: str("PartitionKey", "eq", spk), right: str("RowKey", "ge", srk) },
          },
    );
  }
  if (epk !== undefined) {
    parts.push(
      erk === undefined
        ? str("PartitionKey", "le", epk)
        : {
            kind: "or",
            left: str("PartitionKey", "lt", epk),
            right: { kind: "and", left: str("PartitionKey", "eq", epk), right: str("RowKey", "le", erk) },
          },
    );
  }
  if (parts.length === 0) return undefined;
  return parts.reduce((left, right) => ({ kind: "and", left, right }));
}
