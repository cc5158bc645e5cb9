import { ownValue, TableKitError } from "../model/index.js";
import type { BackendFactory, OpenStoreOptions } from "./backend.js";
import { Store } from "./store.js";
import { accessOfToken } from "./verify-sas.js";

/**
 * Backends by URL scheme, loaded on demand so the embedded path never loads a cloud SDK.
 * `file:PATH` and `memory:` are the embedded engine.
 */
const BACKENDS: Record<string, () => Promise<BackendFactory>> = {
  file: async () => (await import("./embedded/index.js")).embeddedBackend,
  memory: async () => (await import("./embedded/index.js")).embeddedBackend,
  azure: async () => (await import("./azure/index.js")).azureBackend,
  dynamodb: async () => (await import("./dynamodb/index.js")).dynamodbBackend,
};

/** The default store when none is named: an embedded database in the working directory. */
export const DEFAULT_STORE_URL = "file:./tablekit.db";

/**
 * Opens a store: `file:./data/app.db` (embedded, on disk), `memory:` (embedded, in memory, for
 * tests), and the cloud backends' URLs (`azure:…`, `dynamodb:…`) when their SDKs are installed.
 */
export async function openStore(
  url: string = DEFAULT_STORE_URL,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const match = typeof url === "string" ? /^([a-z][a-z0-9+.-]*):(.*)$/is.exec(url) : null;
  const scheme = match?.[1]?.toLowerCase();
  const load = scheme ? ownValue(BACKENDS, scheme) : undefined;
  if (!match || !load) {
    throw new TableKitError(
      "InvalidStoreUrl",
      `Unknown store URL ${JSON.stringify(url)}: use file:PATH, memory:, ${Object.keys(BACKENDS)
        .filter((s) => s !== "file" && s !== "memory")
        .map((s) => `${s}:…`)
        .join(", ")}`,
    );
  }
  const access =
    options.accessToken === undefined
      ? undefined
      : accessOfToken(options.accessToken, {
          ...(options.accessAccount ? { account: options.accessAccount } : {}),
          ...(options.accessPolicies ? { policies: options.accessPolicies } : {}),
        });
  const factory = await load();
  const location = match[2]!;
  const backend =
    scheme === "memory"
      ? await factory(location, { ...options, memory: true })
      : await factory(location, options);
  return new Store(backend, redact(url), access);
}

/** Strips secrets (account keys, SAS signatures, passwords) from a URL shown in messages. */
function redact(url: string): string {
  return url
    .replace(/(AccountKey|SharedAccessSignature|sig|secretAccessKey|password)=([^;&]*)/gi, "$1=***")
    .replace(/\/\/([^:/@]+):([^@/]+)@/, "//$1:***@");
}
