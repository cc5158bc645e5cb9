import { TableKitError } from "../../../model/index.js";
import type { SdkSignedIdentifier } from "./state-codec.js";

/**
 * The slice of `@azure/data-tables` and `@azure/core-rest-pipeline` this backend uses, declared
 * structurally so nothing here depends on the SDK's own types: both are optional peer
 * dependencies, loaded only by `loadAzureSdk()` when an `azure:` store is opened.
 *
 * The Tables SDK builds the client: its HTTP pipeline signs requests (shared key, SAS or token),
 * retries and logs. This backend builds its own requests (the service's REST protocol, exact to
 * the bit: -0, Int64, a `__proto__` property, an ETag on a delete inside a batch) and sends them
 * through that pipeline with `pipeline.sendRequest(httpClient, createPipelineRequest(…))`, the
 * documented way to send a request of one's own through an Azure SDK client's pipeline.
 */

/** Headers as `@azure/core-rest-pipeline` exposes them. */
export interface AzureHttpHeaders {
  get(name: string): string | undefined;
}

export interface AzurePipelineRequest {
  readonly url: string;
  readonly method: string;
}

export interface AzurePipelineResponse {
  readonly status: number;
  readonly headers: AzureHttpHeaders;
  /** The body of a response not streamed. */
  readonly bodyAsText?: string | null;
  /** The body of a response whose status is in the request's `streamResponseStatusCodes`. */
  readonly readableStreamBody?: NodeJS.ReadableStream;
}

/** `@azure/core-rest-pipeline`'s HttpClient (what sends a request on the wire). */
export type AzureHttpClient = object;

/** The client's HTTP pipeline. */
export interface AzurePipeline {
  sendRequest(httpClient: AzureHttpClient, request: AzurePipelineRequest): Promise<AzurePipelineResponse>;
}

/** The exports of `@azure/core-rest-pipeline` this backend uses. */
export interface AzureRestPipelineModule {
  createPipelineRequest(options: {
    url: string;
    method: string;
    headers?: AzureHttpHeaders;
    body?: string;
    abortSignal?: AbortSignal;
    allowInsecureConnection?: boolean;
    streamResponseStatusCodes?: Set<number>;
  }): AzurePipelineRequest;
  createHttpHeaders(raw?: Record<string, string>): AzureHttpHeaders;
  createDefaultHttpClient(): AzureHttpClient;
}

/** Client options (`TableServiceClientOptions`); anything else is passed through to the SDK. */
export interface AzureClientOptions {
  allowInsecureConnection?: boolean;
  [option: string]: unknown;
}

/** A `TableServiceClient`: its URL and pipeline, and the service properties calls. */
export interface AzureServiceClient {
  readonly url: string;
  readonly pipeline: AzurePipeline;
  getProperties(options?: { abortSignal?: AbortSignal }): Promise<object>;
  setProperties(properties: object, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

/** A `TableClient`, for the stored access policies calls only. */
export interface AzureTableClient {
  getAccessPolicy(options?: { abortSignal?: AbortSignal }): Promise<SdkSignedIdentifier[]>;
  setAccessPolicy(
    identifiers: SdkSignedIdentifier[],
    options?: { abortSignal?: AbortSignal },
  ): Promise<unknown>;
}

/** The exports of `@azure/data-tables` this backend uses. */
export interface AzureTablesModule {
  readonly TableServiceClient: {
    new (url: string, credential: object, options?: AzureClientOptions): AzureServiceClient;
    new (url: string, options?: AzureClientOptions): AzureServiceClient;
    fromConnectionString(connectionString: string, options?: AzureClientOptions): AzureServiceClient;
  };
  readonly AzureSASCredential: new (signature: string) => object;
  readonly TableClient: {
    new (url: string, tableName: string, credential: object, options?: AzureClientOptions): AzureTableClient;
    new (url: string, tableName: string, options?: AzureClientOptions): AzureTableClient;
    fromConnectionString(
      connectionString: string,
      tableName: string,
      options?: AzureClientOptions,
    ): AzureTableClient;
  };
}

export interface AzureSdk {
  readonly tables: AzureTablesModule;
  readonly rest: AzureRestPipelineModule;
}

/**
 * Loads the SDK; NotSupported (with what to install) when it is missing. `load` is the import
 * itself, replaceable so the missing-package path can be tested where it is installed.
 */
export async function loadAzureSdk(
  load: () => Promise<[unknown, unknown]> = () =>
    Promise.all([import("@azure/data-tables"), import("@azure/core-rest-pipeline")]),
): Promise<AzureSdk> {
  try {
    const [tables, rest] = await load();
    return { tables: tables as AzureTablesModule, rest: rest as AzureRestPipelineModule };
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new TableKitError(
        "NotSupported",
        "The azure: backend needs the optional peer dependencies @azure/data-tables and @azure/core-rest-pipeline: run `npm install @azure/data-tables @azure/core-rest-pipeline`",
        { cause },
      );
    }
    throw cause;
  }
}
