import { TableKitError } from "../../../model/index.js";
import type { Backend } from "../../backend.js";
import type { CallOptions } from "../../call-options.js";
import type { CommonStoreOptions } from "../../store-options.js";
import { responseError, toTableKitError } from "./errors.js";
import type { AzureRequest } from "./table-requests.js";
import type {
  AzureClientOptions,
  AzureHttpClient,
  AzureHttpHeaders,
  AzureSdk,
  AzureServiceClient,
  AzureTableClient,
} from "./table-sdk.js";

/**
 * How to reach an account, from `openStore("azure:…", options)`:
 * - `azure:<connection string>` or `{ connectionString }` (account key, SAS, `UseDevelopmentStorage=true`);
 * - `azure:<account URL with a SAS query>` or `{ url }`;
 * - `{ url, sasToken }`;
 * - `{ url, credential }` with any `@azure/core-auth` credential (AzureNamedKeyCredential,
 *   AzureSASCredential, or a TokenCredential such as DefaultAzureCredential).
 */
export interface AzureStoreOptions extends CommonStoreOptions {
  readonly connectionString?: string;
  readonly url?: string;
  readonly credential?: object;
  readonly sasToken?: string;
  /** The Queue service's URL, when `url` names only the Table service (docs/queues.md). */
  readonly queueUrl?: string;
  /**
   * Talking to Azurite (or another emulator): work around its departures from the service
   * (docs/azure.md). Default: true when the endpoint is on a loopback host or the
   * `devstoreaccount1` account.
   */
  readonly emulator?: boolean;
  /** Passed to the SDK's clients (retryOptions, userAgentOptions, allowInsecureConnection, …). */
  readonly clientOptions?: AzureClientOptions;
  /** The Blob service URL, when the URL or connection string names none (docs/blobs.md). */
  readonly blobUrl?: string;
}

/** Every option key (the compiler keeps this list equal to AzureStoreOptions' keys). */
export const AZURE_OPTION_KEYS: Backend<AzureStoreOptions>["optionKeys"] = {
  limits: true,
  connectionString: true,
  url: true,
  credential: true,
  sasToken: true,
  emulator: true,
  clientOptions: true,
  queueUrl: true,
  queues: true,
  tableQueue: true,
  blobUrl: true,
  s3: true,
};

/** A response: its status, headers and body text. */
export interface AzureResponse {
  readonly status: number;
  readonly headers: AzureHttpHeaders;
  readonly body: string;
}

/** The Table service's REST version this backend speaks. */
const API_VERSION = "2019-02-02";
/** Only a successful read is streamed, so the pipeline does not parse a body this backend parses itself. */
const STREAMED = new Set([200]);

type Target =
  | { readonly kind: "connectionString"; readonly connectionString: string }
  | { readonly kind: "url"; readonly url: string; readonly credential?: object };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** One account: the SDK's client (its pipeline signs, retries, logs) and how to send requests through it. */
export class AzureConnection {
  private readonly service: AzureServiceClient;
  private readonly httpClient: AzureHttpClient;
  /** The account URL without query string or trailing slash. */
  readonly accountUrl: string;
  /** The SAS of a URL given with one (`https://acct…/?sv=…&sig=…`), appended to every request. */
  private readonly sasQuery: string;
  readonly emulator: boolean;
  /** Cosmos DB's Table API (a merge is sent as `POST` with `X-HTTP-Method: MERGE`). */
  readonly cosmos: boolean;
  private readonly allowInsecureConnection: boolean;
  private readonly clientOptions: AzureClientOptions;

  private constructor(
    private readonly sdk: AzureSdk,
    private readonly target: Target,
    options: AzureStoreOptions,
  ) {
    const probe = createService(sdk, target, options.clientOptions ?? {});
    const url = new URL(probe.url);
    const loopback = LOOPBACK.has(url.hostname);
    // Signed requests over plain HTTP are refused by the SDK unless allowed; allow them for local emulators only.
    const clientOptions: AzureClientOptions = {
      ...(url.protocol === "http:" && loopback ? { allowInsecureConnection: true } : {}),
      ...options.clientOptions,
    };
    this.allowInsecureConnection = clientOptions.allowInsecureConnection === true;
    this.clientOptions = clientOptions;
    this.service = this.allowInsecureConnection ? createService(sdk, target, clientOptions) : probe;
    this.httpClient = sdk.rest.createDefaultHttpClient();
    this.sasQuery = url.search.replace(/^\?/, "");
    url.search = "";
    this.accountUrl = url.toString().replace(/\/$/, "");
    this.emulator = options.emulator ?? (loopback || url.pathname.startsWith("/devstoreaccount1"));
    this.cosmos = /\.table\.cosmos(db)?\./.test(url.hostname);
  }

  /** The SDK's own clients, for the calls this backend does not send itself (policies, service properties). */
  sdkClients(): { service: AzureServiceClient; table(name: string): AzureTableClient } {
    const { TableClient } = this.sdk.tables;
    const { target, clientOptions } = this;
    return {
      service: this.service,
      table: (name) =>
        target.kind === "connectionString"
          ? TableClient.fromConnectionString(target.connectionString, name, clientOptions)
          : target.credential
            ? new TableClient(target.url, name, target.credential, clientOptions)
            : new TableClient(target.url, name, clientOptions),
    };
  }

  /** Reads the location (text after `azure:`) and options; InvalidStoreUrl when neither names an account. */
  static open(sdk: AzureSdk, location: string, options: AzureStoreOptions): AzureConnection {
    return new AzureConnection(sdk, targetOf(sdk, location.trim(), options), options);
  }

  /**
   * Sends a request through the client's pipeline; an error status is thrown as the service's
   * error, anything else the sending threw (the network, an abort) as BackendError or Aborted.
   */
  async send(request: AzureRequest, call: CallOptions): Promise<AzureResponse> {
    const { rest } = this.sdk;
    const separator = request.path.includes("?") ? "&" : "?";
    const pipelineRequest = rest.createPipelineRequest({
      url: `${this.accountUrl}${request.path}${this.sasQuery ? separator + this.sasQuery : ""}`,
      method: request.method,
      headers: rest.createHttpHeaders({
        "x-ms-version": API_VERSION,
        DataServiceVersion: "3.0",
        ...request.headers,
      }),
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(call.abortSignal ? { abortSignal: call.abortSignal } : {}),
      allowInsecureConnection: this.allowInsecureConnection,
      streamResponseStatusCodes: STREAMED,
    });
    let status: number;
    let headers: AzureHttpHeaders;
    let body: string;
    try {
      const response = await this.service.pipeline.sendRequest(this.httpClient, pipelineRequest);
      status = response.status;
      headers = response.headers;
      body = response.readableStreamBody
        ? await readText(response.readableStreamBody)
        : (response.bodyAsText ?? "");
    } catch (err) {
      throw toTableKitError(err, call.abortSignal);
    }
    if (status >= 400) throw responseError(status, headers.get("x-ms-error-code"), body);
    return { status, headers, body };
  }
}

function createService(sdk: AzureSdk, target: Target, clientOptions: AzureClientOptions): AzureServiceClient {
  const { TableServiceClient } = sdk.tables;
  try {
    if (target.kind === "connectionString") {
      return TableServiceClient.fromConnectionString(target.connectionString, clientOptions);
    }
    return target.credential
      ? new TableServiceClient(target.url, target.credential, clientOptions)
      : new TableServiceClient(target.url, clientOptions);
  } catch (cause) {
    throw new TableKitError(
      "InvalidStoreUrl",
      `Cannot use these Azure settings: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
}

async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function targetOf(sdk: AzureSdk, location: string, options: AzureStoreOptions): Target {
  const url = options.url ?? (/^https?:\/\//i.test(location) ? location : undefined);
  if (url !== undefined) {
    const credential =
      options.credential ??
      (options.sasToken ? new sdk.tables.AzureSASCredential(options.sasToken) : undefined);
    return credential ? { kind: "url", url, credential } : { kind: "url", url };
  }
  const connectionString = options.connectionString ?? location;
  if (connectionString === "") {
    throw new TableKitError(
      "InvalidStoreUrl",
      "An azure: store needs a connection string (azure:<connection string>) or { connectionString }, { url, credential } or { url, sasToken }",
    );
  }
  return { kind: "connectionString", connectionString };
}
