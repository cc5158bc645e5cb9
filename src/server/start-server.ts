import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { TableKitError } from "../model/index.js";
import { type AccountKeys, DEVELOPMENT_ACCOUNT, openStore, type Store } from "../store/index.js";
import { checkAccountNames, parseAccounts, type ServedAccount } from "./accounts.js";
import type { OAuthLevel } from "./auth/bearer-token.js";
import { blobService } from "./blobs/blob-service.js";
import { queueService } from "./queues/queue-service.js";
import {
  type HandlerOptions,
  type Mount,
  type ServiceDeps,
  type StorageService,
  serviceRequestHandler,
} from "./service-handler.js";
import { tableService } from "./tables/table-service.js";

/** The three services `tablekit serve` speaks. */
export type ServiceName = "table" | "queue" | "blob";

/** How `tablekit serve` runs: Azurite's options, plus what a library caller may set. */
export interface ServerOptions {
  /** Interface the Table service listens on; default 127.0.0.1. */
  readonly host?: string;
  /** The Table service's port; default 10002; 0 picks a free one (and makes 0 the other services' default too). */
  readonly port?: number;
  /** The Queue service's interface and port; default 127.0.0.1:10001. */
  readonly queueHost?: string;
  readonly queuePort?: number;
  /** The Blob service's interface and port; default 127.0.0.1:10000. */
  readonly blobHost?: string;
  readonly blobPort?: number;
  /** The services to start; default all three. */
  readonly services?: readonly ServiceName[];
  /**
   * Directory everything is kept in: tables, queues and blob rows in one database per account
   * (`<location>/tablekit-tables.db` for the development account, `tablekit-tables-<account>.db`
   * for any other), blob bytes beside it; service properties, ACLs and metadata in the same database;
   * absent: in memory.
   */
  readonly location?: string;
  /**
   * The store to serve instead of one in `location` or memory (any `openStore` URL); with several
   * accounts, a function giving each account's own store URL (accounts share no tables).
   */
  readonly storeUrl?: string | ((account: string) => string);
  /**
   * Where a query page ends on the embedded engine: `"fill"` (the default) fills pages across
   * partitions as the service usually does; `"partition"` also ends one at every partition
   * boundary, as the service may, for clients that want their paging exercised (docs/embedded.md).
   */
  readonly pages?: "fill" | "partition";
  /**
   * Seconds a deleted queue's or container's name answers 409 QueueBeingDeleted /
   * ContainerBeingDeleted to a create, as Azure does (the store option `deletedNameHold`);
   * default 30, 0 disables (docs/server.md).
   */
  readonly deletedNameHold?: number;
  /** Accounts and keys; default `AZURITE_ACCOUNTS` from the environment, else the development account. */
  readonly accounts?: readonly AccountKeys[];
  /** PEM certificate and key files (or a PFX file as `cert` with `pwd`): serve HTTPS. */
  readonly cert?: string;
  readonly key?: string;
  readonly pwd?: string;
  /**
   * `basic`: accept Microsoft Entra bearer tokens as Azurite's `--oauth basic` does (audience,
   * issuer, not-before and expiry checked, no signature), over HTTPS only; absent: refuse them.
   */
  readonly oauth?: OAuthLevel;
  /** Accept any x-ms-version (by default it must be a service version, YYYY-MM-DD). */
  readonly skipApiVersionCheck?: boolean;
  /** Accepted for Azurite compatibility: relaxes nothing (docs/server.md). */
  readonly loose?: boolean;
  /** Largest request body of the Table and Queue services; default 32 MiB (the Table service's own 4 MiB applies beneath it). */
  readonly maxBodyBytes?: number;
  /** How long a client may take: to send headers, a whole request, and idle between requests. */
  readonly timeouts?: {
    readonly headersMs?: number;
    readonly requestMs?: number;
    readonly keepAliveMs?: number;
  };
  /** Other applications served under path prefixes of the first service (the web explorer), or a function of the store that makes them. */
  readonly mounts?: readonly Mount[] | ((store: Store) => readonly Mount[]);
  /** One line per request (method, path, status, error code): the `--debug` log. */
  readonly log?: (line: string) => void;
}

/** Where one service listens. */
export interface ServiceEndpoint {
  readonly host: string;
  readonly port: number;
  /** The endpoint of the first account: `http://127.0.0.1:10001/devstoreaccount1`. */
  readonly url: string;
}

/** A running server. */
export interface RunningServer {
  /** The Table service's interface and port (of the first service started when the Table service is off). */
  readonly host: string;
  readonly port: number;
  /** The Table service's endpoint of the first account (or the first service's): `http://127.0.0.1:10002/devstoreaccount1`. */
  readonly url: string;
  /** Each started service's endpoint. */
  readonly endpoints: Readonly<Partial<Record<ServiceName, ServiceEndpoint>>>;
  /** A connection string for the first account naming every started service, as the SDKs take it. */
  readonly connectionString: string;
  /** The first account's store (for tests and embedding). */
  readonly store: Store;
  /** Each account's store, by account name (accounts share no tables, queues or containers). */
  readonly stores: ReadonlyMap<string, Store>;
  /** Stops accepting connections, finishes the requests in flight, closes the store. */
  stop(): Promise<void>;
}

const DEFAULT_PORTS: Readonly<Record<ServiceName, number>> = { blob: 10000, queue: 10001, table: 10002 };
const ALL_SERVICES: readonly ServiceName[] = ["blob", "queue", "table"];
const ENDPOINT_NAMES: Readonly<Record<ServiceName, string>> = {
  blob: "BlobEndpoint",
  queue: "QueueEndpoint",
  table: "TableEndpoint",
};
const FACTORIES: Readonly<Record<ServiceName, (deps: ServiceDeps) => StorageService<never>>> = {
  table: tableService as (deps: ServiceDeps) => StorageService<never>,
  queue: queueService as (deps: ServiceDeps) => StorageService<never>,
  blob: blobService as (deps: ServiceDeps) => StorageService<never>,
};

type AnyServer = http.Server | https.Server;

/** Starts `tablekit serve` in this process and resolves once every service listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const accounts = options.accounts ?? parseAccounts(process.env.AZURITE_ACCOUNTS);
  const names = ALL_SERVICES.filter((s) => (options.services ?? ALL_SERVICES).includes(s));
  checkAccountNames(accounts);
  if (accounts.length === 0) throw new TableKitError("InvalidInput", "A server needs at least one account.");
  const served = await openAccountStores(accounts, options);
  const store = served[0]!.store;
  const closeStores = () => Promise.all(served.map((a) => a.store.close()));
  const servedMap = new Map(served.map((a) => [a.name, a]));
  const storeOf = (account: string): Store => {
    const found = servedMap.get(account);
    if (!found)
      throw new TableKitError("AuthenticationFailed", `The account '${account}' is not served here.`);
    return found.store;
  };
  const tls = options.cert !== undefined;
  const protocol = tls ? "https" : "http";
  const mounts = options.mounts
    ? typeof options.mounts === "function"
      ? options.mounts(store)
      : options.mounts
    : undefined;
  const servers: AnyServer[] = [];
  const services: StorageService<never>[] = [];
  const endpoints: Partial<Record<ServiceName, ServiceEndpoint>> = {};
  try {
    // The first service in the order table, queue, blob carries the mounts (the explorer).
    const mountOn = (["table", "queue", "blob"] as const).find((s) => names.includes(s));
    for (const name of names) {
      const service = FACTORIES[name]({
        store: storeOf,
        accounts: servedMap,
        maxBodyBytes: options.maxBodyBytes ?? 32 * 1024 * 1024,
        ...(options.location ? { location: options.location } : {}),
        ...(options.oauth ? { oauth: checkOAuthLevel(options.oauth) } : {}),
      });
      services.push(service);
      const handlerOptions: HandlerOptions = {
        protocol,
        skipApiVersionCheck: options.skipApiVersionCheck ?? false,
        ...(mounts && name === mountOn ? { mounts } : {}),
        ...(options.log ? { log: logger(options.log) } : {}),
      };
      const server = createServer(serviceRequestHandler(service, handlerOptions), options);
      servers.push(server);
      const host = hostOf(name, options);
      const address = await listen(server, portOf(name, options), host);
      const urlHost = address.family === "IPv6" ? `[${address.address}]` : host;
      endpoints[name] = {
        host,
        port: address.port,
        url: `${protocol}://${urlHost}:${address.port}/${accounts[0]!.name}`,
      };
    }
  } catch (err) {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    for (const service of services) service.close?.();
    await closeStores();
    throw err;
  }
  const first = accounts[0]!;
  const main = endpoints.table ?? endpoints[names[0]!]!;
  let stopped: Promise<void> | undefined;
  return {
    host: main.host,
    port: main.port,
    url: main.url,
    endpoints,
    connectionString: `DefaultEndpointsProtocol=${protocol};AccountName=${first.name};AccountKey=${first.keys[0]};${names
      .map((n) => `${ENDPOINT_NAMES[n]}=${endpoints[n]!.url};`)
      .join("")}`,
    store,
    stores: new Map(served.map((a) => [a.name, a.store])),
    stop() {
      stopped ??= (async () => {
        await Promise.all(servers.map(closeServer));
        for (const service of services) service.close?.();
        await closeStores();
      })();
      return stopped;
    },
  };
}

function hostOf(name: ServiceName, options: ServerOptions): string {
  const given = name === "table" ? options.host : name === "queue" ? options.queueHost : options.blobHost;
  return given ?? "127.0.0.1";
}

function portOf(name: ServiceName, options: ServerOptions): number {
  const given = name === "table" ? options.port : name === "queue" ? options.queuePort : options.blobPort;
  if (given !== undefined) return given;
  return options.port === 0 ? 0 : DEFAULT_PORTS[name];
}

function createServer(listener: http.RequestListener, options: ServerOptions): AnyServer {
  const timeouts = options.timeouts ?? {};
  const serverOptions = {
    headersTimeout: timeouts.headersMs ?? 20_000,
    requestTimeout: timeouts.requestMs ?? 120_000,
    keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs ?? 1_000),
  };
  const server =
    options.cert !== undefined
      ? https.createServer({ ...serverOptions, ...tlsOptions(options) }, listener)
      : http.createServer(serverOptions, listener);
  server.keepAliveTimeout = serverOptions.keepAliveTimeout;
  // A connection silent both ways this long is dropped (a client that stopped reading a response).
  server.setTimeout(serverOptions.requestTimeout);
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => answerClientError(err, socket));
  return server;
}

/** How long the answer to a broken request may take to leave before its socket is destroyed anyway. */
const CLIENT_ERROR_LINGER_MS = 1_000;
/** How long a client that sent bytes past its request may go on sending them after the answer. */
const EXTRA_BYTES_LINGER_MS = 30_000;

/**
 * Answers a request Node could not parse, or that timed out, then destroys its socket: ending it
 * alone leaves it half open for as long as the client keeps its side (a descriptor pinned per client).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const response = (socket as { _httpMessage?: http.ServerResponse })._httpMessage;
  if (socket.writable && response && !response.headersSent && err.code !== "ERR_HTTP_REQUEST_TIMEOUT") {
    // Bytes past a request's declared body (a client that sent more than its Content-Length):
    // the request in flight is answered, then the connection closed; the extra bytes are no request.
    response.shouldKeepAlive = false;
    // The client may still be writing them: drain and drop them, so its writes do not fail with a
    // reset before it reads the answer; the socket goes when it ends its side (or after a while).
    socket.on("data", () => {});
    socket.resume();
    response.once("close", () => {
      socket.end();
      socket.once("end", () => socket.destroy());
      setTimeout(() => socket.destroy(), EXTRA_BYTES_LINGER_MS).unref();
    });
    return;
  }
  if (!socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const timedOut = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const code = timedOut ? "OperationTimedOut" : tooLarge ? "InvalidHeaderValue" : "InvalidInput";
  const status = timedOut ? "408 Request Timeout" : "400 Bad Request";
  const message = timedOut
    ? "The request was not received in time."
    : tooLarge
      ? "The request's headers are too large."
      : "The request is not valid HTTP.";
  const body = JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: message } } });
  const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  linger.unref();
  socket.end(
    `HTTP/1.1 ${status}\r\nx-ms-error-code: ${code}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => {
      clearTimeout(linger);
      socket.destroy();
    },
  );
}

function listen(server: AnyServer, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

async function closeServer(server: AnyServer): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 5_000);
  await closed;
  clearTimeout(force);
}

function checkOAuthLevel(level: string): OAuthLevel {
  if (level !== "basic") {
    throw new TableKitError("InvalidInput", `The OAuth level '${level}' is not supported (only 'basic').`);
  }
  return level;
}

/** How long the service refuses a just-deleted queue's or container's name (about 30 s on Azure). */
export const SERVED_DELETED_NAME_HOLD_SECONDS = 30;

/** The URL of an account's store: its own database under `location`, or its own memory. */
function accountStoreUrl(account: string, options: ServerOptions, several: boolean): string {
  const { storeUrl, location } = options;
  if (typeof storeUrl === "function") return storeUrl(account);
  if (storeUrl !== undefined) {
    if (several) {
      throw new TableKitError(
        "InvalidInput",
        "storeUrl names one store, and accounts share no tables: give a function of the account name.",
      );
    }
    return storeUrl;
  }
  if (!location) return "memory:";
  const file = account === DEVELOPMENT_ACCOUNT.name ? "tablekit-tables.db" : `tablekit-tables-${account}.db`;
  return `file:${join(location, file)}`;
}

/** Opens every account's store; if one fails, closes those already open. */
async function openAccountStores(
  accounts: readonly AccountKeys[],
  options: ServerOptions,
): Promise<ServedAccount[]> {
  const served: ServedAccount[] = [];
  try {
    for (const account of accounts) {
      const url = accountStoreUrl(account.name, options, accounts.length > 1);
      const store = await openStore(url, {
        ...(options.pages === undefined ? {} : { pages: options.pages }),
        deletedNameHold: options.deletedNameHold ?? SERVED_DELETED_NAME_HOLD_SECONDS,
      });
      served.push({ ...account, store });
    }
  } catch (err) {
    await Promise.all(served.map((a) => a.store.close()));
    throw err;
  }
  return served;
}

function tlsOptions(options: ServerOptions): https.ServerOptions {
  const cert = readFileSync(options.cert!);
  if (options.key) return { cert, key: readFileSync(options.key) };
  return { pfx: cert, ...(options.pwd ? { passphrase: options.pwd } : {}) };
}

function logger(write: (line: string) => void): NonNullable<HandlerOptions["log"]> {
  return (ctx, req, status, error) => {
    const code = error ? ` ${(error as { code?: string }).code ?? "InternalError"}` : "";
    write(`${new Date().toISOString()} ${ctx?.requestId ?? "-"} ${req.method} ${req.url} ${status}${code}`);
  };
}
