import { ownValue, TableKitError } from "../model/index.js";
import type { BackendFactory, BackendStore, OpenStoreOptions } from "./backend.js";
import { type S3BlobOptions, s3FromUrl } from "./blob-options.js";
import { Store } from "./store.js";

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
  const factory = await load();
  const { location, s3, region } = s3FromUrl(scheme!, match[2]!, options);
  const backend =
    scheme === "memory"
      ? await factory(location, { ...options, memory: true })
      : await factory(location, options);
  return new Store(s3 ? await withS3Blobs(backend, s3, region) : backend, redact(url));
}

/** Gives a store S3 as its blob port (docs/blobs.md); closing the store closes both. */
async function withS3Blobs(
  backend: BackendStore,
  s3: S3BlobOptions,
  region: string | undefined,
): Promise<BackendStore> {
  try {
    const blobs = await (await import("./s3/index.js")).openS3Blobs(s3, region ? { region } : {});
    const closeTables = backend.close.bind(backend);
    return Object.assign(backend, {
      blobs,
      close: async () => {
        await closeTables();
        await blobs.close();
      },
    });
  } catch (err) {
    await backend.close();
    throw err;
  }
}

/** Strips secrets (account keys, SAS signatures, passwords) from a URL shown in messages. */
function redact(url: string): string {
  return url
    .replace(/(AccountKey|SharedAccessSignature|sig|secretAccessKey|password)=([^;&]*)/gi, "$1=***")
    .replace(/\/\/([^:/@]+):([^@/]+)@/, "//$1:***@");
}
