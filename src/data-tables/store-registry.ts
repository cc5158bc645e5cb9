import { TableKitError } from "../model/errors.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import type { NamedKeyCredential, SASCredential } from "./credentials.js";

/**
 * The stores behind the clients, one per URL: every `TableClient` and `TableServiceClient` made
 * from the same URL (and credential) shares one store, so a `memory:` table created by one client
 * is seen by the others. Open stores are closed when the process is about to exit, or by
 * `closeDataTablesStores()`.
 */
const stores = new Map<string, Promise<Store>>();
let exitHookInstalled = false;

/** Counts `closeDataTablesStores()` calls: a client's cached table of an earlier count is stale. */
export const registry = { generation: 0 };

/** What a client was made from: a tablekit store URL, an Azure connection string, or an account URL. */
export interface StoreTarget {
  /** The registry key. */
  readonly key: string;
  /** The `openStore` URL. */
  readonly url: string;
  readonly options?: { url: string; credential?: object };
  /** The account endpoint, as the SDK's `url` and in `odata.metadata`. */
  readonly endpoint: string;
}

const STORE_SCHEME = /^(file|memory|dynamodb|azure):/i;

/** The target of `fromConnectionString(text)`: a tablekit store URL, or an Azure connection string. */
export function connectionStringTarget(text: string, service: StorageService = "table"): StoreTarget {
  if (typeof text !== "string" || text.trim() === "") {
    throw new TableKitError("InvalidStoreUrl", "A connection string or store URL is required");
  }
  if (STORE_SCHEME.test(text)) return { key: text, url: text, endpoint: storeEndpoint(text) };
  return { key: `azure:${text}`, url: `azure:${text}`, endpoint: connectionStringEndpoint(text, service) };
}

/** The target of `new TableClient(url, …, credential)`: a store URL, or an account URL with its credential. */
export function urlTarget(
  url: string,
  credential?: NamedKeyCredential | SASCredential | object,
): StoreTarget {
  if (typeof url === "string" && /^https?:\/\//i.test(url)) {
    const endpoint = url.replace(/[?#].*$/, "").replace(/\/$/, "");
    const who = credentialKey(credential);
    return {
      key: `${url}\n${who}`,
      url: "azure:",
      options: credential ? { url, credential } : { url },
      endpoint,
    };
  }
  return connectionStringTarget(url);
}

function credentialKey(credential: unknown): string {
  if (!credential || typeof credential !== "object") return "";
  const c = credential as Partial<NamedKeyCredential & SASCredential>;
  if (typeof c.name === "string" && typeof c.key === "string") return `key:${c.name}:${c.key}`;
  if (typeof c.signature === "string") return `sas:${c.signature}`;
  return `object:${objectId(credential)}`;
}

const ids = new WeakMap<object, number>();
let lastId = 0;
function objectId(o: object): number {
  const known = ids.get(o);
  if (known !== undefined) return known;
  ids.set(o, ++lastId);
  return lastId;
}

/** The shared store of a target, opened on first use. */
export function storeFor(target: StoreTarget): Promise<Store> {
  let store = stores.get(target.key);
  if (!store) {
    store = openStore(target.url, target.options as never);
    stores.set(target.key, store);
    // A failed open is not kept: the next call tries again.
    store.catch(() => stores.delete(target.key));
    installExitHook();
  }
  return store;
}

/**
 * Closes every store the data-tables clients opened (the embedded database, the cloud clients).
 * Clients used afterwards open their store again.
 */
export async function closeDataTablesStores(): Promise<void> {
  const open = [...stores.values()];
  stores.clear();
  registry.generation++;
  await Promise.all(open.map(async (s) => (await s.catch(() => undefined))?.close()));
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // `beforeExit` comes when nothing else is left to do: the stores close, and the process ends.
  process.on("beforeExit", () => {
    if (stores.size > 0) void closeDataTablesStores();
  });
}

function storeEndpoint(url: string): string {
  return url
    .replace(/(AccountKey|SharedAccessSignature|sig|secretAccessKey|password)=([^;&]*)/gi, "$1=***")
    .replace(/[?].*$/, "")
    .replace(/\/$/, "");
}

/** The service a client speaks to: its endpoint in a connection string. */
export type StorageService = "table" | "queue" | "blob";

const DEV_PORTS: Record<StorageService, number> = { blob: 10000, queue: 10001, table: 10002 };

/** A service's endpoint a connection string names, as the SDKs compute it. */
function connectionStringEndpoint(text: string, service: StorageService): string {
  const fields = new Map<string, string>();
  for (const part of text.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) fields.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  if (fields.get("usedevelopmentstorage") === "true")
    return `http://127.0.0.1:${DEV_PORTS[service]}/devstoreaccount1`;
  const explicit = fields.get(`${service}endpoint`);
  if (explicit) return explicit.replace(/\/$/, "");
  const account = fields.get("accountname") ?? "";
  const protocol = fields.get("defaultendpointsprotocol") ?? "https";
  const suffix = fields.get("endpointsuffix") ?? "core.windows.net";
  return `${protocol}://${account}.${service}.${suffix}`;
}
