/** `tablekit explore [STORE]`: the web explorer over any store, on 127.0.0.1 with an access token. */
import type { Command } from "commander";
import { openStore } from "../../store/index.js";
import { loadModels } from "../advise/load-models.js";
import { startExplorer, writableByDefault } from "../explorer/start-explorer.js";
import { requireExistingFile, resolveStoreUrl, STORE_DEFAULTS } from "../options.js";
import { terminal } from "../output/terminal.js";
import { port } from "./serve.js";

interface ExploreOptions {
  host: string;
  port: number;
  write?: boolean;
  readOnly?: boolean;
  models?: string;
}

export function registerExplore(program: Command): void {
  program
    .command("explore")
    .description("browse, query, edit and advise on a store's tables in a web browser")
    .argument("[store]", `store URL (default: ${STORE_DEFAULTS})`)
    .option(
      "--host <host>",
      "interface to listen on (anything but loopback exposes the explorer)",
      "127.0.0.1",
    )
    .option("--port <port>", "port (0 picks a free one)", port, 0)
    .option(
      "--write",
      "allow writes: tables, entities, imports, queue messages, blob uploads (the default for file: and memory:)",
    )
    .option("--read-only", "refuse every write, whatever the store")
    .option("-m, --models <module>", "an ES module whose exported models decode the keys")
    .addHelpText(
      "after",
      "\nThe printed URL carries a random access token; every request checks it.\n\nExamples:\n  tablekit explore\n  tablekit explore file:./data/app.db --models ./dist/models.js",
    )
    .action(async (url: string | undefined, opts: ExploreOptions) => {
      const storeUrl = resolveStoreUrl(url);
      // A read-only explorer only reads: it opens no file: store that does not exist.
      if (opts.readOnly) requireExistingFile(storeUrl);
      const models = opts.models ? await loadModels(opts.models) : [];
      const store = await openStore(storeUrl);
      const writable = !opts.readOnly && (opts.write === true || writableByDefault(storeUrl));
      const explorer = await startExplorer({ store, host: opts.host, port: opts.port, writable, models });
      const out = terminal().out;
      out.line(`tablekit explorer${writable ? "" : " (read-only)"} at ${explorer.url}`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await explorer.stop();
      await store.close();
    });
}
