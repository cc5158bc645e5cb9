import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { TableKitError } from "../model/index.js";
import { type AccountKeys, DEVELOPMENT_ACCOUNT, openStore, type Store } from "../store/index.js";
import { checkAccountNames, parseAccounts, type ServedAccount } from "./accounts.js";
import type { OAuthLevel } from "./auth/bearer-token.js";
import { type HandlerOptions, type Mount, tableRequestHandler } from "./request-handler.js";
import { ServiceState } from "./service-state.js";

/** How `tablekit serve` runs: Azurite's table options, plus what a library caller may set. */
export interface ServerOptions {
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 10002; 0 picks a free one. */
  readonly port?: number;
  /**
   * Directory the tables are kept in, one database per account (`<location>/tablekit-tables.db`
   * for the development account, `tablekit-tables-<account>.db` for any other); absent: in memory.
   */
  readonly location?: string;
  /**
   * The store to serve instead of one in `location` or memory (any `openStore` URL); with several
   * accounts, a function giving each account's own store URL (accounts share no tables).
   */
  readonly storeUrl?: string | ((account: string) => string);
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
  /** Accepted for Azurite compatibility: Azurite's table service relaxes nothing with it, nor does this one. */
  readonly loose?: boolean;
  /** Largest request body of any service; default 32 MiB (the Table service's own 4 MiB applies beneath it). */
  readonly maxBodyBytes?: number;
  /** How long a client may take: to send headers, a whole request, and idle between requests. */
  readonly timeouts?: {
    readonly headersMs?: number;
    readonly requestMs?: number;
    readonly keepAliveMs?: number;
  };
  /** Other applications served under path prefixes (the web explorer), or a function of the first account's store that makes them. */
  readonly mounts?: readonly Mount[] | ((store: Store) => readonly Mount[]);
  /** One line per request (method, path, status, error code): the `--debug` log. */
  readonly log?: (line: string) => void;
}

/** A running server. */
export interface RunningServer {
  readonly host: string;
  readonly port: number;
  /** The table endpoint of the first account: `http://127.0.0.1:10002/devstoreaccount1`. */
  readonly url: string;
  /** A connection string for the first account, as the SDKs take it. */
  readonly connectionString: string;
  /** The first account's store (for tests and embedding). */
  readonly store: Store;
  /** Each account's store, by account name. */
  readonly stores: ReadonlyMap<string, Store>;
  /** Stops accepting connections, finishes the requests in flight, closes the stores. */
  stop(): Promise<void>;
}

const DEFAULT_PORT = 10002;

/** Starts `tablekit serve` in this process and resolves once it listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const accounts = options.accounts ?? parseAccounts(process.env.AZURITE_ACCOUNTS);
  checkAccountNames(accounts);
  if (accounts.length === 0) throw new TableKitError("InvalidInput", "A server needs at least one account.");
  const served = await openAccountStores(accounts, options);
  const store = served[0]!.store;
  const closeStores = () => Promise.all(served.map((a) => a.store.close()));
  const state = new ServiceState(
    options.location ? join(options.location, "tablekit-service.json") : undefined,
  );
  const tls = options.cert !== undefined;
  const handlerOptions: HandlerOptions = {
    accounts: new Map(served.map((a) => [a.name, a])),
    state,
    protocol: tls ? "https" : "http",
    skipApiVersionCheck: options.skipApiVersionCheck ?? false,
    ...(options.oauth ? { oauth: checkOAuthLevel(options.oauth) } : {}),
    maxBodyBytes: options.maxBodyBytes ?? 32 * 1024 * 1024,
    ...(options.mounts
      ? { mounts: typeof options.mounts === "function" ? options.mounts(store) : options.mounts }
      : {}),
    ...(options.log ? { log: logger(options.log) } : {}),
  };
  const listener = tableRequestHandler(handlerOptions);
  const timeouts = options.timeouts ?? {};
  const serverOptions = {
    headersTimeout: timeouts.headersMs ?? 20_000,
    requestTimeout: timeouts.requestMs ?? 120_000,
    keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs ?? 1_000),
  };
  const server = tls
    ? https.createServer({ ...serverOptions, ...tlsOptions(options) }, listener)
    : http.createServer(serverOptions, listener);
  server.keepAliveTimeout = serverOptions.keepAliveTimeout;
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const code = tooLarge ? "InvalidHeaderValue" : "InvalidInput";
    const message = tooLarge ? "The request's headers are too large." : "The request is not valid HTTP.";
    const body = JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: message } } });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nx-ms-error-code: ${code}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? DEFAULT_PORT, options.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    await closeStores();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : host;
  const first = accounts[0]!;
  const url = `${tls ? "https" : "http"}://${urlHost}:${address.port}/${first.name}`;
  let stopped: Promise<void> | undefined;
  return {
    host,
    port: address.port,
    url,
    connectionString: `DefaultEndpointsProtocol=${tls ? "https" : "http"};AccountName=${first.name};AccountKey=${first.keys[0]};TableEndpoint=${url};`,
    store,
    stores: new Map(served.map((a) => [a.name, a.store])),
    stop() {
      stopped ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 5_000);
        await closed;
        clearTimeout(force);
        await closeStores();
      })();
      return stopped;
    },
  };
}

function checkOAuthLevel(level: string): OAuthLevel {
  if (level !== "basic") {
    throw new TableKitError("InvalidInput", `The OAuth level '${level}' is not supported (only 'basic').`);
  }
  return level;
}

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
      const store = await openStore(accountStoreUrl(account.name, options, accounts.length > 1));
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
