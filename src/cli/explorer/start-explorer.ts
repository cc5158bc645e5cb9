/** The explorer on a server of its own (`tablekit explore`): 127.0.0.1 and a free port unless asked. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Model } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import { createExplorer } from "./explorer-app.js";
import { isLoopback } from "./explorer-auth.js";

export interface StartExplorerOptions {
  readonly store: Store;
  /** Default 127.0.0.1: nothing beyond this machine can reach it unless asked. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  readonly writable: boolean;
  /** The largest upload (import file or blob, with its form) in bytes; default 64 MiB. */
  readonly maxUploadBytes?: number;
  // biome-ignore lint/suspicious/noExplicitAny: any model, whatever its fields.
  readonly models?: readonly Model<any, any, any, any, any>[];
}

export interface RunningExplorer {
  /** The URL to open: it carries the access token. */
  readonly url: string;
  stop(): Promise<void>;
}

/** Whether a store may be edited by default: the embedded engine yes, cloud stores only with --write. */
export function writableByDefault(storeUrl: string): boolean {
  return /^(file|memory):/.test(storeUrl);
}

export async function startExplorer(options: StartExplorerOptions): Promise<RunningExplorer> {
  const host = options.host ?? "127.0.0.1";
  const explorer = createExplorer({
    store: options.store,
    writable: options.writable,
    loopbackOnly: isLoopback(host),
    ...(options.models ? { models: options.models } : {}),
    ...(options.maxUploadBytes === undefined ? {} : { maxUploadBytes: options.maxUploadBytes }),
  });
  const server = http.createServer((req, res) => void explorer.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port, family } = server.address() as AddressInfo;
  const shownHost = family === "IPv6" ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${explorer.token}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
