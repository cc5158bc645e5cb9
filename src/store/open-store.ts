import { ownValue, TableKitError } from "../model/index.js";
import { checkDeletedNameHold } from "./access/deleted-name-hold.js";
import type { SasAccount } from "./access/sas-token.js";
import { accessOfToken, type StoredAccessPolicy } from "./access/verify-sas.js";
import type { Backend, BackendStore } from "./backend.js";
import type { AzureStoreOptions } from "./backends/azure/connection.js";
import type { DynamoDbStoreOptions } from "./backends/dynamodb/connection.js";
import type { EmbeddedStoreOptions } from "./backends/embedded/connection.js";
import { type S3BlobOptions, s3FromUrl } from "./backends/s3/connection.js";
import { Store } from "./store.js";
import type { CommonStoreOptions } from "./store-options.js";

/**
 * The options of each URL scheme, each the exported options type of its backend folder. A new
 * option goes into that type and its backend's `optionKeys`; a new scheme, here and in BACKENDS.
 */
export interface StoreOptionsByScheme {
  file: EmbeddedStoreOptions;
  memory: EmbeddedStoreOptions;
  azure: AzureStoreOptions;
  dynamodb: DynamoDbStoreOptions;
}

export type StoreScheme = keyof StoreOptionsByScheme;

/**
 * The options `openStore(url, options)` takes for a URL: its scheme's (`"dynamodb:…"` takes
 * DynamoDbStoreOptions), or any scheme's when the URL is only known at run time (a `string`).
 */
export type StoreOptions<Url extends string = string> = Url extends `${infer Scheme}:${string}`
  ? Lowercase<Scheme> extends StoreScheme
    ? StoreOptionsByScheme[Lowercase<Scheme>]
    : never
  : StoreOptionsByScheme[StoreScheme];

/**
 * Options every scheme takes beside its own: a shared access signature the core enforces, so the
 * store can do only what the token allows (docs/patterns/scoped-access.md).
 */
export interface AccessOptions {
  /** A table or account SAS (a query string), verified against `accessAccount` when the store opens. */
  readonly accessToken?: string;
  /** The account the token is signed for; default the development account `devstoreaccount1`. */
  readonly accessAccount?: SasAccount;
  /** Stored access policies by table and id, for tokens that name one (`si`). */
  readonly accessPolicies?: (tableName: string, id: string) => StoredAccessPolicy | undefined;
}

/** Options every scheme takes that the core applies itself. */
export interface CoreStoreOptions {
  /**
   * Seconds a deleted queue's or container's name stays refused: a create of it answers
   * QueueBeingDeleted / ContainerBeingDeleted (409), as Azure does for about 30 s. 0 to 3600;
   * default 0 (never). Only where capabilities.deletedNameHold (docs/queues.md#deleted-names).
   */
  readonly deletedNameHold?: number;
}

const ACCESS_OPTION_KEYS: { readonly [K in keyof Required<AccessOptions & CoreStoreOptions>]: true } = {
  accessToken: true,
  accessAccount: true,
  accessPolicies: true,
  deletedNameHold: true,
};

/**
 * Backends by URL scheme, loaded on demand so the embedded path never loads a cloud SDK.
 * `file:PATH` and `memory:` are the embedded engine.
 */
const BACKENDS: { readonly [S in StoreScheme]: () => Promise<Backend<StoreOptionsByScheme[S]>> } = {
  file: async () => (await import("./backends/embedded/index.js")).fileBackend,
  memory: async () => (await import("./backends/embedded/index.js")).memoryBackend,
  azure: async () => (await import("./backends/azure/index.js")).azureBackend,
  dynamodb: async () => (await import("./backends/dynamodb/index.js")).dynamodbBackend,
};

/** The default store when none is named: an embedded database in the working directory. */
export const DEFAULT_STORE_URL = "file:./tablekit.db";

/**
 * Opens a store: `file:./data/app.db` (embedded, on disk), `memory:` (embedded, in memory, for
 * tests), and the cloud backends' URLs (`azure:…`, `dynamodb:…`) when their SDKs are installed.
 * The options are typed by the URL's scheme; an option the scheme does not take is InvalidInput.
 *
 * @example openStore("dynamodb:", { region: "eu-west-1", tablePrefix: "app_" })
 */
export async function openStore<Url extends string>(
  url: Url = DEFAULT_STORE_URL as Url,
  options?: StoreOptions<Url> & AccessOptions & CoreStoreOptions,
): Promise<Store> {
  const match = typeof url === "string" ? /^([a-z][a-z0-9+.-]*):(.*)$/is.exec(url) : null;
  const scheme = match?.[1]?.toLowerCase();
  // Each loader is typed by its scheme; here the scheme is a run-time string.
  const loaders = BACKENDS as unknown as Readonly<Record<string, () => Promise<Backend<CommonStoreOptions>>>>;
  const load = scheme ? ownValue(loaders, scheme) : undefined;
  if (!match || !load) {
    throw new TableKitError(
      "InvalidStoreUrl",
      `Unknown store URL ${JSON.stringify(url)}: use file:PATH, memory:, ${Object.keys(BACKENDS)
        .filter((s) => s !== "file" && s !== "memory")
        .map((s) => `${s}:…`)
        .join(", ")}`,
    );
  }
  const backend = await load();
  const checked = checkOptions(scheme!, options ?? {}, { ...backend.optionKeys, ...ACCESS_OPTION_KEYS });
  const {
    s3: s3Option,
    accessToken,
    accessAccount,
    accessPolicies,
    deletedNameHold,
    ...own
  } = checked as CommonStoreOptions & AccessOptions & CoreStoreOptions;
  const holdSeconds = checkDeletedNameHold(deletedNameHold);
  // A token that does not verify fails before anything is opened.
  const access =
    accessToken === undefined
      ? undefined
      : accessOfToken(accessToken, {
          ...(accessAccount ? { account: accessAccount } : {}),
          ...(accessPolicies ? { policies: accessPolicies } : {}),
        });
  // `s3` is the core's, common to every scheme: it gives the store S3 blobs (docs/blobs.md).
  const { location, s3, region } = s3FromUrl(scheme!, match[2]!, s3Option);
  const opened = await backend.open(location, own);
  const shownUrl = redact(url);
  let bundle = opened;
  try {
    if (s3) bundle = await withS3Blobs(opened, s3, region);
    const ported = await withQueuePort(bundle, own, shownUrl);
    const held: BackendStore =
      holdSeconds === 0
        ? ported
        : {
            tables: ported.tables,
            ...(ported.queues ? { queues: ported.queues } : {}),
            ...(ported.blobs ? { blobs: ported.blobs } : {}),
            deletedNameHoldSeconds: holdSeconds,
            close: () => ported.close(),
          };
    return new Store(held, shownUrl, access);
  } catch (err) {
    await bundle.close();
    throw err;
  }
}

/** Gives a store S3 as its blob port; closing the store closes both. */
async function withS3Blobs(
  store: BackendStore,
  s3: S3BlobOptions,
  region: string | undefined,
): Promise<BackendStore> {
  const blobs = await (await import("./backends/s3/index.js")).openS3Store(s3, region ? { region } : {});
  return {
    tables: store.tables,
    ...(store.queues ? { queues: store.queues } : {}),
    blobs: blobs.blobs,
    close: async () => {
      await store.close();
      await blobs.close();
    },
  };
}

/** The options, if every key is one the scheme takes; InvalidInput naming the first that is not. */
function checkOptions(scheme: string, options: unknown, keys: object): CommonStoreOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TableKitError("InvalidInput", "Store options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(keys, key)) {
      throw new TableKitError(
        "InvalidInput",
        `Unknown option '${key}' for a ${scheme}: store; it takes ${Object.keys(keys).join(", ")}`,
        { details: { option: key, scheme } },
      );
    }
  }
  return options;
}

/** Strips secrets (account keys, SAS signatures, passwords) from a URL shown in messages. */
function redact(url: string): string {
  return url
    .replace(/(AccountKey|SharedAccessSignature|sig|secretAccessKey|password)=([^;&]*)/gi, "$1=***")
    .replace(/\/\/([^:/@]+):([^@/]+)@/, "//$1:***@");
}

/**
 * The store's bundle with the queue port `CommonStoreOptions.queues` asks for: the backend's own,
 * the table-backed queue built on the store's tables (the default where a backend has none, e.g.
 * DynamoDB), or none.
 */
export async function withQueuePort(
  opened: BackendStore,
  options: CommonStoreOptions,
  url: string,
): Promise<BackendStore> {
  const choice = options.queues ?? (opened.queues ? "native" : "table");
  const bundle = (queues: BackendStore["queues"]): BackendStore => ({
    tables: opened.tables,
    ...(queues ? { queues } : {}),
    ...(opened.blobs ? { blobs: opened.blobs } : {}),
    close: () => opened.close(),
  });
  switch (choice) {
    case "none":
      return bundle(undefined);
    case "native":
      if (!opened.queues) {
        throw new TableKitError(
          "NotSupported",
          `The ${opened.tables.capabilities.backend} backend has no queue service of its own; use queues: "table"`,
        );
      }
      return opened;
    case "table": {
      const { tableQueueStore } = await import("./backends/table-queue/index.js");
      // A queue-less view of the same tables (closing it closes nothing): the table-backed queue
      // uses only the public table port.
      const tablesOnly = new Store({ tables: opened.tables, close: async () => {} }, url);
      return bundle(tableQueueStore(tablesOnly, options.tableQueue ?? {}));
    }
    default:
      throw new TableKitError(
        "InvalidInput",
        `queues must be "native", "table" or "none", got ${JSON.stringify(choice)}`,
      );
  }
}
