import { TableKitError } from "../../../model/index.js";
import type { Backend } from "../../backend.js";
import type { CommonStoreOptions } from "../../store-options.js";
import { type DynamoClient, DynamoDbApi, loadDynamoSdk } from "./table-sdk.js";

/**
 * Options of a `dynamodb:` store, given to `openStore(url, options)`. Options win over the URL.
 *
 * @example openStore("dynamodb:", { region: "eu-west-1", tablePrefix: "app_" })
 */
export interface DynamoDbStoreOptions extends CommonStoreOptions {
  /** A `DynamoDBClient` to use as is (tablekit does not destroy it on close). */
  readonly client?: DynamoClient;
  /** Endpoint URL, e.g. `http://127.0.0.1:8000` for DynamoDB Local; default: the region's. */
  readonly endpoint?: string;
  /** Default: the SDK's (AWS_REGION, the shared config file). */
  readonly region?: string;
  /** Credentials or a provider, as the SDK takes them; default: the SDK's default chain. */
  readonly credentials?: unknown;
  /** Prepended to every DynamoDB table name tablekit creates or lists (letters, digits, `_ - .`). */
  readonly tablePrefix?: string;
}

/** Every option key (the compiler keeps this list equal to DynamoDbStoreOptions' keys). */
export const DYNAMODB_OPTION_KEYS: Backend<DynamoDbStoreOptions>["optionKeys"] = {
  limits: true,
  s3: true,
  client: true,
  endpoint: true,
  region: true,
  credentials: true,
  tablePrefix: true,
  queues: true,
  tableQueue: true,
};

/** Where and how to connect, resolved from the URL and the options. */
export interface DynamoDbLocation {
  readonly client?: DynamoClient;
  readonly endpoint?: string;
  readonly region?: string;
  readonly credentials?: unknown;
  readonly tablePrefix: string;
}

/**
 * DynamoDB Local accepts any credentials; fixed ones keep its per-credential databases stable.
 * A fresh object each time: the SDK writes into the credentials object it is given.
 */
const loopbackCredentials = () => ({ accessKeyId: "tablekit", secretAccessKey: "tablekit" });
const LOOPBACK_REGION = "us-east-1";

/**
 * Parses the part of a store URL after `dynamodb:`:
 * - `` (nothing): the SDK's default endpoint, region and credential chain;
 * - `?region=eu-west-1&prefix=app_`: the same, with settings;
 * - `//127.0.0.1:8000?prefix=tk_`: an endpoint over http (DynamoDB Local), `&tls=true` for https.
 * On a loopback endpoint with no credentials given, fixed dummy credentials and region us-east-1
 * are used, as DynamoDB Local needs some and checks none.
 */
export function parseLocation(location: string, options: DynamoDbStoreOptions): DynamoDbLocation {
  const [rest = "", query = ""] = splitOnce(location, "?");
  const params = new URLSearchParams(query);
  for (const key of params.keys()) {
    if (!["region", "prefix", "tls"].includes(key)) throw invalid(location, `unknown parameter '${key}'`);
  }
  let endpoint: string | undefined;
  let host: string | undefined;
  if (rest !== "") {
    if (!rest.startsWith("//")) throw invalid(location, "expected dynamodb://host:port or dynamodb:?…");
    const scheme = params.get("tls") === "true" ? "https" : "http";
    let url: URL;
    try {
      url = new URL(`${scheme}:${rest}`);
    } catch (cause) {
      throw invalid(location, "the endpoint is not a valid host[:port]", cause);
    }
    if (url.pathname !== "/" && url.pathname !== "") throw invalid(location, "the endpoint takes no path");
    endpoint = `${url.protocol}//${url.host}`;
    host = url.hostname;
  }
  endpoint = options.endpoint ?? endpoint;
  if (options.endpoint) host = new URL(options.endpoint).hostname;
  const loopback = host !== undefined && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host);
  const tablePrefix = options.tablePrefix ?? params.get("prefix") ?? "";
  if (!/^[A-Za-z0-9_.-]*$/.test(tablePrefix) || tablePrefix.length > 150) {
    throw invalid(location, "the table prefix may hold only letters, digits, '_', '-' and '.'");
  }
  const region = options.region ?? params.get("region") ?? (loopback ? LOOPBACK_REGION : undefined);
  const credentials =
    options.credentials ?? (loopback && !options.client ? loopbackCredentials() : undefined);
  return { client: options.client, endpoint, region, credentials, tablePrefix };
}

function splitOnce(text: string, separator: string): [string, string?] {
  const i = text.indexOf(separator);
  return i < 0 ? [text] : [text.slice(0, i), text.slice(i + 1)];
}

function invalid(location: string, why: string, cause?: unknown): TableKitError {
  return new TableKitError("InvalidStoreUrl", `Invalid store URL dynamodb:${location}: ${why}`, { cause });
}

/**
 * The SDK's logger middleware runs the sensitive-data filter over every request and response —
 * each attribute of each item — and hands the result to the client's logger, even to the default
 * one that discards it: about half the client CPU of reading a page of items. tablekit's own
 * clients have no logger, so they leave it out; a caller's `client` is used as it is.
 */
const LOGGER_MIDDLEWARE = "loggerMiddleware";

/** The SDK client for a location (the caller's, or a new one the store owns), the SDK loaded on first use. */
export async function connect(
  where: DynamoDbLocation,
): Promise<{ readonly api: DynamoDbApi; readonly ownsClient: boolean }> {
  const sdk = await loadDynamoSdk();
  if (where.client) return { api: new DynamoDbApi(sdk, where.client), ownsClient: false };
  const client = new sdk.DynamoDBClient({
    ...(where.region ? { region: where.region } : {}),
    ...(where.endpoint ? { endpoint: where.endpoint } : {}),
    ...(where.credentials ? { credentials: where.credentials } : {}),
  });
  client.middlewareStack?.remove(LOGGER_MIDDLEWARE);
  return { api: new DynamoDbApi(sdk, client), ownsClient: true };
}
