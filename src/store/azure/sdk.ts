import { TableKitError } from "../../model/index.js";

/**
 * The slice of `@azure/data-tables` this backend uses, declared structurally so nothing here
 * depends on the SDK's own types: the SDK is an optional peer dependency, loaded only by
 * `loadAzureSdk()` when an `azure:` store is opened.
 */

/** Headers as the SDK's pipeline exposes them. */
export interface AzureHeaders {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): void;
}

export interface AzurePipelineRequest {
  url: string;
  method: string;
  body?: unknown;
  headers: AzureHeaders;
}

export interface AzurePipelineResponse {
  readonly status: number;
  readonly headers: Pick<AzureHeaders, "get">;
  readonly bodyAsText?: string | null;
}

/** A policy of the SDK's HTTP pipeline (`@azure/core-rest-pipeline`'s PipelinePolicy). */
export interface AzurePipelinePolicy {
  readonly name: string;
  sendRequest(
    request: AzurePipelineRequest,
    next: (request: AzurePipelineRequest) => Promise<AzurePipelineResponse>,
  ): Promise<AzurePipelineResponse>;
}

export interface AzurePipeline {
  addPolicy(
    policy: AzurePipelinePolicy,
    options?: { phase?: "Serialize" | "Deserialize" | "Retry" | "Sign" },
  ): void;
}

/** Options every SDK call takes (`@azure/core-client`'s OperationOptions). */
export interface AzureOperationOptions {
  abortSignal?: AbortSignal;
  /** Called with the raw HTTP response, its body text included. */
  onResponse?: (response: AzurePipelineResponse) => void;
}

/** Client options (`TableServiceClientOptions`); anything else is passed through to the SDK. */
export interface AzureClientOptions {
  allowInsecureConnection?: boolean;
  [option: string]: unknown;
}

/** What the SDK's page iterators yield. */
export type AzurePage<T> = T[] & { continuationToken?: string };

export interface AzurePaged<T> {
  byPage(settings?: {
    maxPageSize?: number;
    continuationToken?: string;
  }): AsyncIterableIterator<AzurePage<T>>;
}

/** The keys of an entity, which is all this backend ever hands the SDK's serializer. */
export interface AzureEntityKeys {
  partitionKey: string;
  rowKey: string;
}

export interface AzureWriteResponse {
  etag?: string;
  date?: Date;
}

export interface AzureServiceClient {
  readonly url: string;
  readonly pipeline: AzurePipeline;
  createTable(name: string, options?: AzureOperationOptions): Promise<void>;
  deleteTable(name: string, options?: AzureOperationOptions): Promise<void>;
  listTables(
    options?: AzureOperationOptions & { queryOptions?: { filter?: string } },
  ): AzurePaged<{ name?: string }>;
}

export interface AzureTableClient {
  readonly url: string;
  readonly tableName: string;
  readonly pipeline: AzurePipeline;
  createEntity(entity: AzureEntityKeys, options?: AzureOperationOptions): Promise<AzureWriteResponse>;
  updateEntity(
    entity: AzureEntityKeys,
    mode: "Merge" | "Replace",
    options?: AzureOperationOptions & { etag?: string },
  ): Promise<AzureWriteResponse>;
  upsertEntity(
    entity: AzureEntityKeys,
    mode: "Merge" | "Replace",
    options?: AzureOperationOptions,
  ): Promise<AzureWriteResponse>;
  deleteEntity(
    partitionKey: string,
    rowKey: string,
    options?: AzureOperationOptions & { etag?: string },
  ): Promise<unknown>;
  getEntity(
    partitionKey: string,
    rowKey: string,
    options?: AzureOperationOptions & {
      disableTypeConversion?: boolean;
      queryOptions?: { select?: string[] };
    },
  ): Promise<unknown>;
  listEntities(
    options?: AzureOperationOptions & {
      disableTypeConversion?: boolean;
      queryOptions?: { filter?: string; select?: string[] };
    },
  ): AzurePaged<unknown>;
  submitTransaction(
    actions: ["delete", AzureEntityKeys][],
    options?: AzureOperationOptions,
  ): Promise<{ status: number; subResponses: { status: number; etag?: string }[] }>;
}

export interface AzureSdk {
  readonly TableServiceClient: {
    new (url: string, credential: object, options?: AzureClientOptions): AzureServiceClient;
    new (url: string, options?: AzureClientOptions): AzureServiceClient;
    fromConnectionString(connectionString: string, options?: AzureClientOptions): AzureServiceClient;
  };
  readonly TableClient: {
    new (url: string, tableName: string, credential: object, options?: AzureClientOptions): AzureTableClient;
    new (url: string, tableName: string, options?: AzureClientOptions): AzureTableClient;
    fromConnectionString(
      connectionString: string,
      tableName: string,
      options?: AzureClientOptions,
    ): AzureTableClient;
  };
  readonly AzureSASCredential: new (signature: string) => object;
}

/**
 * Loads `@azure/data-tables`; NotSupported (with what to install) when it is missing. `load` is
 * the import itself, replaceable so the missing-package path can be tested where it is installed.
 */
export async function loadAzureSdk(
  load: () => Promise<unknown> = () => import("@azure/data-tables"),
): Promise<AzureSdk> {
  try {
    return (await load()) as AzureSdk;
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new TableKitError(
        "NotSupported",
        "The azure: backend needs the optional peer dependency @azure/data-tables: run `npm install @azure/data-tables`",
        { cause },
      );
    }
    throw cause;
  }
}
