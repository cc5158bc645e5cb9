/** `tablekit serve`: the Azure Table, Queue and Blob services over the embedded engine, with Azurite's flags. */
import { appendFileSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import { type OAuthLevel, parseAccounts, startServer } from "../../server/index.js";
import type { Store } from "../../store/index.js";
import { createExplorer, type Explorer } from "../explorer/explorer-app.js";
import { isLoopback } from "../explorer/explorer-auth.js";
import { terminal } from "../output/terminal.js";

interface ServeOptions {
  tableHost: string;
  tablePort: number;
  queueHost: string;
  queuePort?: number;
  blobHost: string;
  blobPort?: number;
  table: boolean;
  queue: boolean;
  blob: boolean;
  location?: string;
  inMemoryPersistence?: boolean;
  cert?: string;
  key?: string;
  pwd?: string;
  oauth?: OAuthLevel;
  loose?: boolean;
  skipApiVersionCheck?: boolean;
  silent?: boolean;
  debug?: string;
  explorer?: boolean;
  pages?: "fill" | "partition";
  deletedNameHold?: number;
}

/** `--oauth`: the one level Azurite has, `basic`. */
function oauthLevel(text: string): OAuthLevel {
  if (text !== "basic") throw new InvalidArgumentError("the only OAuth level is basic");
  return text;
}

/** `--pages`: where a query page ends, `fill` (the default) or `partition`. */
function pagePolicy(text: string): "fill" | "partition" {
  if (text !== "fill" && text !== "partition") throw new InvalidArgumentError("pages are fill or partition");
  return text;
}

/** `--deleted-name-hold`: whole seconds, 0 to 3600 (0 disables). */
function holdSeconds(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 3600) {
    throw new InvalidArgumentError("expected whole seconds from 0 to 3600");
  }
  return Number(text);
}

/** A port number option: 0 to 65535. */
export function port(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new InvalidArgumentError("expected a port from 0 to 65535");
  return Number(text);
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "serve the Azure Table, Queue and Blob REST protocols over the embedded engine (a drop-in for Azurite)",
    )
    .option("--tableHost <host>", "interface to listen on", "127.0.0.1")
    .option("--tablePort <port>", "port to listen on (0 picks a free one)", port, 10002)
    .option("--queueHost <host>", "interface the Queue service listens on", "127.0.0.1")
    .option(
      "--queuePort <port>",
      "the Queue service's port (default 10001; 0, or --tablePort 0, picks a free one)",
      port,
    )
    .option("--blobHost <host>", "interface the Blob service listens on", "127.0.0.1")
    .option(
      "--blobPort <port>",
      "the Blob service's port (default 10000; 0, or --tablePort 0, picks a free one)",
      port,
    )
    .option("--no-table", "do not start the Table service")
    .option("--no-queue", "do not start the Queue service")
    .option("--no-blob", "do not start the Blob service")
    .option("-l, --location <dir>", "directory to keep the tables in (default: in memory)")
    .option("--inMemoryPersistence", "keep the tables in memory (the default without --location)")
    .option(
      "--pages <mode>",
      "where query pages end: fill (default: across partitions, as the service usually pages) or partition (also at every partition boundary)",
      pagePolicy,
    )
    .option(
      "--deleted-name-hold <seconds>",
      "seconds a deleted queue's or container's name answers 409 QueueBeingDeleted / ContainerBeingDeleted to a create, as Azure does (default 30; 0 disables)",
      holdSeconds,
    )
    .option("--cert <file>", "certificate (PEM, or PFX with --pwd): serve HTTPS")
    .option("--key <file>", "private key of a PEM certificate")
    .option("--pwd <password>", "password of a PFX certificate")
    .option(
      "--oauth <level>",
      "accept Microsoft Entra bearer tokens: basic (audience, issuer and lifetime checked, no signature; HTTPS only)",
      oauthLevel,
    )
    .option("-L, --loose", "accepted for Azurite compatibility (its table service relaxes nothing with it)")
    .option("--skipApiVersionCheck", "accept any x-ms-version")
    .option("-s, --silent", "print nothing but errors")
    .option("-d, --debug <file>", "append one line per request to this file")
    .option("--disableTelemetry", "accepted for Azurite compatibility (tablekit sends no telemetry)")
    .option("--disableProductStyleUrl", "accepted for Azurite compatibility")
    .option("--no-explorer", "do not serve the web explorer under /_explorer")
    .addHelpText(
      "after",
      "\nAccounts come from AZURITE_ACCOUNTS (name:key1[:key2];…), by default devstoreaccount1.\n\nExamples:\n  tablekit serve\n  tablekit serve --location ./data --tablePort 0",
    )
    .action(async (opts: ServeOptions) => {
      if (opts.location && opts.inMemoryPersistence) {
        throw new InvalidArgumentError("--location and --inMemoryPersistence exclude each other");
      }
      if (opts.oauth && !opts.cert) {
        terminal().err.line(
          "warning: --oauth without --cert: bearer tokens are accepted over HTTPS only, so all are refused",
        );
      }
      const debug = opts.debug;
      let explorer: Explorer | undefined;
      const accounts = parseAccounts(process.env.AZURITE_ACCOUNTS, (message) => {
        if (!opts.silent) terminal().err.line(`warning: ${message}`);
      });
      const server = await startServer({
        accounts,
        host: opts.tableHost,
        port: opts.tablePort,
        queueHost: opts.queueHost,
        ...(opts.queuePort === undefined ? {} : { queuePort: opts.queuePort }),
        blobHost: opts.blobHost,
        ...(opts.blobPort === undefined ? {} : { blobPort: opts.blobPort }),
        services: (["table", "queue", "blob"] as const).filter((s) => opts[s] !== false),
        ...(opts.location ? { location: opts.location } : {}),
        ...(opts.pages ? { pages: opts.pages } : {}),
        ...(opts.deletedNameHold === undefined ? {} : { deletedNameHold: opts.deletedNameHold }),
        ...(opts.cert ? { cert: opts.cert } : {}),
        ...(opts.key ? { key: opts.key } : {}),
        ...(opts.pwd ? { pwd: opts.pwd } : {}),
        ...(opts.oauth ? { oauth: opts.oauth } : {}),
        loose: opts.loose ?? false,
        skipApiVersionCheck: opts.skipApiVersionCheck ?? false,
        ...(debug ? { log: (line: string) => appendFileSync(debug, `${line}\n`) } : {}),
        ...(opts.explorer === false
          ? {}
          : {
              mounts: (store: Store) => {
                explorer = createExplorer({
                  store,
                  base: "/_explorer",
                  writable: true,
                  loopbackOnly: isLoopback(opts.tableHost),
                });
                return [explorer];
              },
            }),
      });
      if (!opts.silent) {
        const out = terminal().out;
        for (const [name, endpoint] of Object.entries(server.endpoints)) {
          const title = `${name[0]!.toUpperCase()}${name.slice(1)}`;
          out.line(
            `tablekit ${title} service is successfully listening at ${endpoint.url.replace(/\/[^/]*$/, "")}`,
          );
        }
        out.line(`Connection string: ${server.connectionString}`);
        if (explorer)
          out.line(`Explorer: ${server.url.replace(/\/[^/]*$/, "")}/_explorer/?token=${explorer.token}`);
      }
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          void server.stop().then(resolve);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      if (!opts.silent) terminal().out.line("tablekit services stopped");
    });
}
