import { TableKitError } from "../../model/index.js";
import type { OpenStoreOptions } from "../backend.js";
import { installExchangePolicy } from "./exchange.js";
import type { AzureClientOptions, AzureSdk, AzureServiceClient, AzureTableClient } from "./sdk.js";

/**
 * How to reach an account, from `openStore("azure:…", options)`:
 * - `azure:<connection string>` or `{ connectionString }` (account key, SAS, `UseDevelopmentStorage=true`);
 * - `azure:<account URL with a SAS query>` or `{ url }`;
 * - `{ url, sasToken }`;
 * - `{ url, credential }` with any `@azure/core-auth` credential (AzureNamedKeyCredential,
 *   AzureSASCredential, or a TokenCredential such as DefaultAzureCredential).
 */
export interface AzureStoreOptions extends OpenStoreOptions {
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
}

type Target =
  | { readonly kind: "connectionString"; readonly connectionString: string }
  | { readonly kind: "url"; readonly url: string; readonly credential?: object };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The SDK's clients for one account, configured once and shared by every table. */
export class AzureConnection {
  readonly service: AzureServiceClient;
  /** The account URL without query string or trailing slash. */
  readonly accountUrl: string;
  readonly emulator: boolean;
  /** Cosmos DB's Table API (merges in a batch are sent as `X-HTTP-Method: MERGE`). */
  readonly cosmos: boolean;
  private readonly clientOptions: AzureClientOptions;

  private constructor(
    private readonly sdk: AzureSdk,
    private readonly target: Target,
    options: AzureStoreOptions,
  ) {
    const probe = this.createService(options.clientOptions ?? {});
    const url = new URL(probe.url);
    const loopback = LOOPBACK.has(url.hostname);
    // Signed requests over plain HTTP are refused by the SDK unless allowed; allow them for local emulators only.
    this.clientOptions = {
      ...(url.protocol === "http:" && loopback ? { allowInsecureConnection: true } : {}),
      ...options.clientOptions,
    };
    this.service = this.clientOptions.allowInsecureConnection
      ? this.createService(this.clientOptions)
      : probe;
    installExchangePolicy(this.service.pipeline);
    url.search = "";
    this.accountUrl = url.toString().replace(/\/$/, "");
    this.emulator = options.emulator ?? (loopback || url.pathname.startsWith("/devstoreaccount1"));
    this.cosmos = /\.table\.cosmos(db)?\./.test(url.hostname);
  }

  /** Reads the location (text after `azure:`) and options; InvalidStoreUrl when neither names an account. */
  static open(sdk: AzureSdk, location: string, options: AzureStoreOptions): AzureConnection {
    return new AzureConnection(sdk, targetOf(sdk, location.trim(), options), options);
  }

  /** A client for one table, with the exchange policy installed. */
  tableClient(tableName: string): AzureTableClient {
    const { TableClient } = this.sdk;
    const client =
      this.target.kind === "connectionString"
        ? TableClient.fromConnectionString(this.target.connectionString, tableName, this.clientOptions)
        : this.target.credential
          ? new TableClient(this.target.url, tableName, this.target.credential, this.clientOptions)
          : new TableClient(this.target.url, tableName, this.clientOptions);
    installExchangePolicy(client.pipeline);
    return client;
  }

  private createService(clientOptions: AzureClientOptions): AzureServiceClient {
    const { TableServiceClient } = this.sdk;
    try {
      if (this.target.kind === "connectionString") {
        return TableServiceClient.fromConnectionString(this.target.connectionString, clientOptions);
      }
      return this.target.credential
        ? new TableServiceClient(this.target.url, this.target.credential, clientOptions)
        : new TableServiceClient(this.target.url, clientOptions);
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
}

function targetOf(sdk: AzureSdk, location: string, options: AzureStoreOptions): Target {
  const url = options.url ?? (/^https?:\/\//i.test(location) ? location : undefined);
  if (url !== undefined) {
    const credential =
      options.credential ?? (options.sasToken ? new sdk.AzureSASCredential(options.sasToken) : undefined);
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
