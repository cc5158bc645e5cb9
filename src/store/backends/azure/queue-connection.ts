import type { AzureStoreOptions } from "./connection.js";
import { type AzureQueueSdk, type AzureQueueServiceClient, loadQueueSdk } from "./queue-sdk.js";

/** How to reach the account's Queue service; undefined when the settings name none. */
export type QueueTarget =
  | { readonly kind: "connectionString"; readonly connectionString: string }
  | { readonly kind: "url"; readonly url: string; readonly credential?: object };

/**
 * The Queue service of the account an `azure:` location names, found without loading any SDK:
 * `QueueEndpoint=…`, `UseDevelopmentStorage=true`, or an account connection string without
 * explicit endpoints (the queue endpoint follows from AccountName and EndpointSuffix); with a URL,
 * `options.queueUrl` or a `*.table.*` host turned into `*.queue.*`. A connection string that names
 * only a TableEndpoint (Cosmos DB's Table API, an emulator's table port) has no queue service.
 */
export function queueTargetOf(location: string, options: AzureStoreOptions): QueueTarget | undefined {
  const credential = options.credential;
  if (options.queueUrl) return { kind: "url", url: options.queueUrl, ...(credential ? { credential } : {}) };
  const url = options.url ?? (/^https?:\/\//i.test(location.trim()) ? location.trim() : undefined);
  if (url !== undefined) {
    const parsed = new URL(url);
    if (!/\.table\./.test(parsed.hostname)) return undefined;
    parsed.hostname = parsed.hostname.replace(".table.", ".queue.");
    return { kind: "url", url: parsed.toString(), ...(credential ? { credential } : {}) };
  }
  const connectionString = options.connectionString ?? location.trim();
  const settings = new Map(
    connectionString
      .split(";")
      .map((part) => part.split("="))
      .filter((kv) => kv.length >= 2)
      .map(([k, ...v]) => [k!.trim().toLowerCase(), v.join("=").trim()]),
  );
  const hasQueue =
    settings.has("queueendpoint") ||
    settings.get("usedevelopmentstorage")?.toLowerCase() === "true" ||
    (settings.has("accountname") && !settings.has("tableendpoint"));
  return hasQueue ? { kind: "connectionString", connectionString } : undefined;
}

/** Creates the SDK's service client for a queue target (the SDK loaded on first use). */
export async function openQueueService(
  target: QueueTarget,
  options: AzureStoreOptions,
  load: () => Promise<AzureQueueSdk> = loadQueueSdk,
): Promise<AzureQueueServiceClient> {
  const sdk = await load();
  const clientOptions = options.clientOptions ?? {};
  if (target.kind === "connectionString") {
    return sdk.QueueServiceClient.fromConnectionString(target.connectionString, clientOptions);
  }
  const credential = target.credential as { name?: string; key?: string; signature?: string } | undefined;
  // The Table SDK's credentials, turned into what the storage SDK takes.
  if (credential && typeof credential.name === "string" && typeof credential.key === "string") {
    return new sdk.QueueServiceClient(
      target.url,
      new sdk.StorageSharedKeyCredential(credential.name, credential.key),
      clientOptions,
    );
  }
  const sas = options.sasToken ?? credential?.signature;
  if (sas !== undefined) {
    const url = new URL(target.url);
    url.search = sas.replace(/^\?/, "");
    return new sdk.QueueServiceClient(url.toString(), undefined, clientOptions);
  }
  return new sdk.QueueServiceClient(target.url, credential, clientOptions);
}
