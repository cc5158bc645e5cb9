import { isTableKitError } from "../../model/index.js";
import type { Store, StoredAccessPolicy } from "../../store/index.js";
import type { RequestContext } from "../http/request-context.js";

/** Finds a stored access policy by resource and id, for a token's `si` (the verification is synchronous). */
export type StoredPolicyLookup = (resource: string, id: string) => StoredAccessPolicy | undefined;

const NONE: StoredPolicyLookup = () => undefined;

/**
 * Reads, through the port, the stored policies a request's token may name: only when it carries
 * `si`, and only of the resource it addresses (a table SAS names its table with `tn`). A resource
 * that does not exist, or a store that keeps no policies, has none.
 */
export async function storedPolicyLookup(
  ctx: RequestContext,
  store: Store | undefined,
  kind: "table" | "queue" | "container",
  name: string | undefined,
): Promise<StoredPolicyLookup> {
  if (!store || !ctx.query.has("si") || !ctx.query.has("sig") || name === undefined || name === "")
    return NONE;
  let policies: StoredAccessPolicy[];
  try {
    const identifiers =
      kind === "table"
        ? (await store.table(name).getAccessPolicy()).map((i) => ({
            id: i.id,
            start: i.accessPolicy?.start,
            expiry: i.accessPolicy?.expiry,
            permission: i.accessPolicy?.permission,
          }))
        : (kind === "queue"
            ? (await store.queue(name).getAccessPolicy()).signedIdentifiers
            : (await store.container(name).getAccessPolicy()).signedIdentifiers
          ).map((i) => ({
            id: i.id,
            start: i.accessPolicy.startsOn,
            expiry: i.accessPolicy.expiresOn,
            permission: i.accessPolicy.permissions,
          }));
    policies = identifiers.map((i) => ({
      id: i.id,
      ...(i.start ? { start: i.start.toISOString() } : {}),
      ...(i.expiry ? { expiry: i.expiry.toISOString() } : {}),
      ...(i.permission ? { permission: i.permission } : {}),
    }));
  } catch (err) {
    if (isTableKitError(err) && (err.status === 404 || err.status === 400 || err.code === "NotSupported"))
      return NONE;
    throw err;
  }
  const key = kind === "table" ? name.toLowerCase() : name;
  return (resource, id) =>
    (kind === "table" ? resource.toLowerCase() : resource) === key
      ? policies.find((p) => p.id === id)
      : undefined;
}
