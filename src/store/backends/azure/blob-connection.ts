import type { AzureBlobTarget } from "./azure-containers.js";
import type { AzureStoreOptions } from "./connection.js";

/**
 * The Blob service an `azure:` store's settings name, if any: a connection string with a
 * `BlobEndpoint`, `UseDevelopmentStorage=true`, or an account whose endpoints all derive from its
 * name (no explicit `*Endpoint`); a table URL of the public cloud (`<account>.table.core.…`); or
 * `blobUrl`. Undefined means the store has no blob port.
 */
export function blobTargetOf(
  location: string,
  options: AzureStoreOptions,
  credential: object | undefined,
): AzureBlobTarget | undefined {
  if (options.blobUrl) return { url: options.blobUrl, ...(credential ? { credential } : {}) };
  const url = options.url ?? (/^https?:\/\//i.test(location) ? location : undefined);
  if (url !== undefined) {
    const parsed = new URL(url);
    if (!/\.table\.core\./i.test(parsed.hostname)) return undefined;
    parsed.hostname = parsed.hostname.replace(/\.table\.core\./i, ".blob.core.");
    return { url: parsed.toString(), ...(credential ? { credential } : {}) };
  }
  const connectionString = options.connectionString ?? location;
  const keys = new Map(
    connectionString
      .split(";")
      .map((part) => part.split("=", 1)[0]!.trim().toLowerCase())
      .map((k) => [k, true] as const),
  );
  const named =
    keys.has("blobendpoint") ||
    /usedevelopmentstorage\s*=\s*true/i.test(connectionString) ||
    (keys.has("accountname") && ![...keys.keys()].some((k) => k.endsWith("endpoint")));
  return named ? { connectionString } : undefined;
}
