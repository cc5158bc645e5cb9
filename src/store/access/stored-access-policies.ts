import { TableKitError } from "../../model/index.js";
import type { StoredAccessPolicy } from "./verify-sas.js";

/**
 * Stored access policies (`?comp=acl`), checked once by the core for every port and backend: at
 * most five per resource, ids of 1–64 characters, permissions from the resource's own letters,
 * start and expiry valid times. The services answer a refused policy list as InvalidXmlDocument.
 */

/** The most stored access policies a table, queue or container may hold. */
export const MAX_STORED_POLICIES = 5;
/** The longest policy id. */
export const MAX_POLICY_ID_LENGTH = 64;

/** The permission letters a stored policy of each resource may hold (the service SAS documentation). */
export const POLICY_LETTERS = { table: "raud", queue: "raup", container: "racwdxltmeop" } as const;

export type PolicyResource = keyof typeof POLICY_LETTERS;

/** A table's stored access policy, as `@azure/data-tables` shapes it. */
export interface TableSignedIdentifier {
  id: string;
  accessPolicy?: { start?: Date; expiry?: Date; permission?: string };
}

/** A queue's or container's stored access policy, as `@azure/storage-queue` and `@azure/storage-blob` shape it. */
export interface SignedIdentifier {
  id: string;
  accessPolicy: { startsOn?: Date; expiresOn?: Date; permissions?: string };
}

function refuse(message: string, details?: Record<string, unknown>): TableKitError {
  return new TableKitError("InvalidXmlDocument", message, details ? { details } : undefined);
}

function checkTime(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "" || Number.isNaN(Date.parse(value))) {
    throw refuse(`The ${what} of a stored access policy is not a time: ${JSON.stringify(value)}`);
  }
  return value.trim();
}

function checkDate(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw refuse(`The ${what} of a stored access policy must be a valid Date`);
  }
  return value.toISOString();
}

/** Checks a policy list against the service's rules; returns it as stored. */
export function checkStoredPolicies(
  policies: readonly StoredAccessPolicy[],
  resource: PolicyResource,
): StoredAccessPolicy[] {
  if (policies.length > MAX_STORED_POLICIES) {
    throw refuse(`At most ${MAX_STORED_POLICIES} stored access policies may be set; got ${policies.length}`, {
      count: policies.length,
      limit: MAX_STORED_POLICIES,
    });
  }
  const letters = POLICY_LETTERS[resource];
  const seen = new Set<string>();
  return policies.map((p) => {
    const { id, permission } = p;
    if (typeof id !== "string" || id.length === 0 || id.length > MAX_POLICY_ID_LENGTH) {
      throw refuse(`A stored access policy id has 1 to ${MAX_POLICY_ID_LENGTH} characters`, { id });
    }
    if (/[\x00-\x1f\x7f]/.test(id))
      throw refuse("A stored access policy id holds a control character", { id });
    if (seen.has(id))
      throw refuse(`The stored access policy id ${JSON.stringify(id)} is given twice`, { id });
    seen.add(id);
    if (
      permission !== undefined &&
      (typeof permission !== "string" || [...permission].some((c) => !letters.includes(c)))
    ) {
      throw refuse(
        `A ${resource}'s stored access policy takes the permissions ${letters}; got ${JSON.stringify(permission)}`,
        {
          id,
        },
      );
    }
    const start = checkTime(p.start, "start");
    const expiry = checkTime(p.expiry, "expiry");
    return {
      id,
      ...(start ? { start } : {}),
      ...(expiry ? { expiry } : {}),
      ...(permission ? { permission } : {}),
    };
  });
}

/** A table's identifiers (data-tables shape) as stored policies; checked. */
export function tablePolicies(identifiers: unknown): StoredAccessPolicy[] {
  if (!Array.isArray(identifiers)) throw refuse("setAccessPolicy takes an array of signed identifiers");
  return checkStoredPolicies(
    identifiers.map((i: TableSignedIdentifier) => {
      const start = checkDate(i?.accessPolicy?.start, "start");
      const expiry = checkDate(i?.accessPolicy?.expiry, "expiry");
      const permission = i?.accessPolicy?.permission;
      return {
        id: i?.id,
        ...(start ? { start } : {}),
        ...(expiry ? { expiry } : {}),
        ...(permission !== undefined ? { permission } : {}),
      };
    }),
    "table",
  );
}

export function tableIdentifiers(policies: readonly StoredAccessPolicy[]): TableSignedIdentifier[] {
  return policies.map((p) => ({
    id: p.id,
    accessPolicy: {
      ...(p.start ? { start: new Date(p.start) } : {}),
      ...(p.expiry ? { expiry: new Date(p.expiry) } : {}),
      ...(p.permission ? { permission: p.permission } : {}),
    },
  }));
}

/** A queue's or container's identifiers (storage SDK shape, Dates) as stored policies; checked. */
export function datedPolicies(identifiers: unknown, resource: "queue" | "container"): StoredAccessPolicy[] {
  if (identifiers === undefined) return [];
  if (!Array.isArray(identifiers)) throw refuse("setAccessPolicy takes an array of signed identifiers");
  return checkStoredPolicies(
    identifiers.map((i: SignedIdentifier) => {
      const start = checkDate(i?.accessPolicy?.startsOn, "start");
      const expiry = checkDate(i?.accessPolicy?.expiresOn, "expiry");
      const permission = i?.accessPolicy?.permissions;
      return {
        id: i?.id,
        ...(start ? { start } : {}),
        ...(expiry ? { expiry } : {}),
        ...(permission !== undefined ? { permission } : {}),
      };
    }),
    resource,
  );
}

export function datedIdentifiers(policies: readonly StoredAccessPolicy[]): SignedIdentifier[] {
  return policies.map((p) => ({
    id: p.id,
    accessPolicy: {
      ...(p.start ? { startsOn: new Date(p.start) } : {}),
      ...(p.expiry ? { expiresOn: new Date(p.expiry) } : {}),
      ...(p.permission ? { permissions: p.permission } : {}),
    },
  }));
}
