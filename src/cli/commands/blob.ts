/** `tablekit blob put|get|ls|rm|containers`: the blobs of a store (docs/cli.md). */
import { createReadStream, createWriteStream, rmSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Command, InvalidArgumentError } from "commander";
import { isTableKitError } from "../../model/index.js";
import type { BlobRequestConditions, Store } from "../../store/index.js";
import { jsonOption, outputOption, positiveInt, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";
import { progressWanted, startProgress } from "../transfer/progress.js";

/** `--metadata name=value`, repeatable. */
function metadataPair(text: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new InvalidArgumentError("expected name=value");
  return { ...previous, [text.slice(0, eq)]: text.slice(eq + 1) };
}

function nonNegativeInt(text: string): number {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError("expected an integer >= 0");
  return Number(text);
}

interface PutOptions {
  store?: string;
  contentType?: string;
  metadata?: Record<string, string>;
  ifNoneMatch?: boolean;
  ifMatch?: string;
  createContainer?: boolean;
  progress?: boolean;
}

interface GetOptions {
  store?: string;
  offset?: number;
  count?: number;
  progress?: boolean;
}

export function registerBlob(program: Command): void {
  const blob = program
    .command("blob")
    .description("put, get, list and delete blobs (and their containers)")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  tablekit blob put logs 2026/01/02/app.log ./app.log",
        "  tablekit blob get logs 2026/01/02/app.log ./copy.log",
        "  tablekit blob ls logs --prefix 2026/01/ --delimiter /",
        "  tablekit blob rm logs 2026/01/02/app.log",
        "  tablekit blob containers",
      ].join("\n"),
    );

  withStoreOption(
    blob
      .command("put")
      .description("upload a file (or standard input) as a block blob, streamed")
      .argument("<container>", "container name")
      .argument("<name>", "blob name")
      .argument("[file]", "file to upload; - or nothing: standard input", "-")
      .option("--content-type <type>", "the blob's content type (default application/octet-stream)")
      .option("--metadata <name=value>", "a metadata pair (repeatable)", metadataPair)
      .option("--if-none-match", "create only: fail with BlobAlreadyExists when the blob exists")
      .option("--if-match <etag>", "replace only this version: fail with ConditionNotMet otherwise")
      .option("--create-container", "create the container when it does not exist")
      .option("--no-progress", "no progress bar"),
  ).action(async (container: string, name: string, file: string, opts: PutOptions) => {
    await usingStore(opts.store, async (store) => {
      const handle = store.container(container);
      if (opts.createContainer) await handle.createIfNotExists();
      const size = file === "-" ? undefined : statSync(file).size;
      const progress = startProgress({
        enabled: progressWanted(opts.progress),
        label: `put ${name}`,
        unit: "bytes",
        ...(size === undefined ? {} : { total: size }),
      });
      const conditions: BlobRequestConditions = opts.ifNoneMatch
        ? { ifNoneMatch: "*" }
        : opts.ifMatch
          ? { ifMatch: opts.ifMatch }
          : {};
      let done = false;
      let etag: string;
      try {
        const source = file === "-" ? process.stdin : createReadStream(file);
        const result = await handle.getBlockBlobClient(name).uploadStream(source, undefined, undefined, {
          ...(opts.contentType ? { blobHTTPHeaders: { blobContentType: opts.contentType } } : {}),
          ...(opts.metadata ? { metadata: opts.metadata } : {}),
          conditions,
          onProgress: (p) => progress.update(p.loadedBytes),
        });
        done = true;
        etag = result.etag;
      } finally {
        progress.stop(done);
      }
      terminal().out.line(JSON.stringify({ container, name, etag }));
    });
  });

  withStoreOption(
    blob
      .command("get")
      .description("download a blob (or a byte range) to a file or standard output, streamed")
      .argument("<container>", "container name")
      .argument("<name>", "blob name")
      .argument("[file]", "file to write; - or nothing: standard output", "-")
      .option("--offset <bytes>", "start at this byte", nonNegativeInt)
      .option("--count <bytes>", "at most this many bytes", positiveInt())
      .option("--no-progress", "no progress bar"),
  ).action(async (container: string, name: string, file: string, opts: GetOptions) => {
    await usingStore(
      opts.store,
      async (store) => {
        await download(store, container, name, file, opts);
      },
      { readOnly: true },
    );
  });

  withStoreOption(
    blob
      .command("ls")
      .description("list blobs in name order, by prefix, optionally rolled up into virtual directories")
      .argument("<container>", "container name")
      .option("--prefix <text>", "only blobs whose name starts with this text")
      .option("--delimiter <text>", "roll names up at this delimiter into directories (e.g. /)")
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption()),
  ).action(
    async (
      container: string,
      opts: { store?: string; prefix?: string; delimiter?: string; output: string },
    ) => {
      await usingStore(
        opts.store,
        async (store) => {
          const out = terminal().out;
          const handle = store.container(container);
          const options = { ...(opts.prefix ? { prefix: opts.prefix } : {}) };
          const items = opts.delimiter
            ? handle.listBlobsByHierarchy(opts.delimiter, options)
            : handle.listBlobsFlat(options);
          for await (const item of items) {
            const isPrefix = "kind" in item && item.kind === "prefix";
            if (opts.output === "json") {
              out.line(
                JSON.stringify(
                  isPrefix
                    ? { prefix: item.name }
                    : {
                        name: item.name,
                        size: "properties" in item ? item.properties.contentLength : 0,
                        lastModified:
                          "properties" in item ? item.properties.lastModified.toISOString() : undefined,
                        etag: "properties" in item ? item.properties.etag : undefined,
                      },
                ),
              );
            } else if (isPrefix || !("properties" in item)) {
              out.line(`${"DIR".padStart(12)}  ${"".padEnd(24)}  ${item.name}`);
            } else {
              const p = item.properties;
              out.line(
                `${String(p.contentLength).padStart(12)}  ${p.lastModified.toISOString().padEnd(24)}  ${item.name}`,
              );
            }
          }
        },
        { readOnly: true },
      );
    },
  );

  withStoreOption(
    blob
      .command("rm")
      .description("delete blobs")
      .argument("<container>", "container name")
      .argument("<names...>", "blob names")
      .option("--if-exists", "succeed for blobs that do not exist"),
  ).action(async (container: string, names: string[], opts: { store?: string; ifExists?: boolean }) => {
    await usingStore(opts.store, async (store) => {
      const handle = store.container(container);
      for (const name of names) {
        try {
          await handle.deleteBlob(name);
          terminal().err.line(`deleted ${name}`);
        } catch (err) {
          if (!(opts.ifExists && isTableKitError(err, "BlobNotFound"))) throw err;
          terminal().err.line(`${name} does not exist`);
        }
      }
    });
  });

  registerContainers(blob);
}

async function download(store: Store, container: string, name: string, file: string, opts: GetOptions) {
  const response = await store.container(container).getBlobClient(name).download(opts.offset, opts.count);
  const progress = startProgress({
    enabled: progressWanted(opts.progress),
    label: `get ${name}`,
    unit: "bytes",
    total: response.contentLength,
  });
  let loaded = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const chunk of response.readableStreamBody) {
        loaded += (chunk as Buffer).length;
        progress.update(loaded);
        yield chunk as Buffer;
      }
    })(),
  );
  let done = false;
  try {
    if (file === "-") await pipeline(counted, process.stdout, { end: false });
    else await pipeline(counted, createWriteStream(file));
    done = true;
  } catch (err) {
    if (file !== "-") rmSync(file, { force: true });
    throw err;
  } finally {
    progress.stop(done);
  }
}

function registerContainers(blob: Command): void {
  const containers = blob.command("containers").description("list, create and delete containers");
  withStoreOption(
    containers
      .command("list", { isDefault: true })
      .description("list the containers of the store, in name order")
      .option("--prefix <text>", "only containers whose name starts with this text"),
  ).action(async (opts: { store?: string; prefix?: string }) => {
    await usingStore(
      opts.store,
      async (store) => {
        for await (const c of store.listContainers(opts.prefix ? { prefix: opts.prefix } : {})) {
          terminal().out.line(c.name);
        }
      },
      { readOnly: true },
    );
  });
  withStoreOption(
    containers
      .command("create")
      .description("create a container")
      .argument("<name>", "3-63 lowercase letters, digits and single hyphens")
      .option("--if-not-exists", "succeed when the container already exists"),
  ).action(async (name: string, opts: { store?: string; ifNotExists?: boolean }) => {
    await usingStore(opts.store, async (store) => {
      const handle = store.container(name);
      let succeeded = true;
      if (opts.ifNotExists) succeeded = (await handle.createIfNotExists()).succeeded;
      else await handle.create();
      terminal().err.line(succeeded ? `created container ${name}` : `container ${name} already exists`);
    });
  });
  withStoreOption(
    containers
      .command("delete")
      .description("delete a container and every blob in it")
      .argument("<name>", "container name")
      .option("--if-exists", "succeed when the container does not exist"),
  ).action(async (name: string, opts: { store?: string; ifExists?: boolean }) => {
    await usingStore(opts.store, async (store) => {
      const handle = store.container(name);
      let succeeded = true;
      if (opts.ifExists) succeeded = (await handle.deleteIfExists()).succeeded;
      else await handle.delete();
      terminal().err.line(succeeded ? `deleted container ${name}` : `container ${name} does not exist`);
    });
  });
}
