/** The published package as a user imports it: every `exports` entry resolves to built files. */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; default: string }>;
  bin?: Record<string, string>;
};

describe("package exports (built dist/, as `npm test` builds first)", () => {
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue;
    it(`${subpath} resolves to JavaScript and declarations`, async () => {
      expect(existsSync(join(root, target.types)), target.types).toBe(true);
      const mod = await import(pathToFileURL(join(root, target.default)).href);
      expect(Object.keys(mod).length).toBeGreaterThan(0);
    });
  }

  it("the root export is reachable by the package's own name", async () => {
    const require = createRequire(join(root, "package.json"));
    const resolved = require.resolve("tablekit/package.json");
    expect(resolved).toBe(join(root, "package.json"));
    const mod = await import(
      pathToFileURL(
        join(root, pkg.exports["."] && typeof pkg.exports["."] !== "string" ? pkg.exports["."].default : ""),
      ).href
    );
    expect(typeof mod.openStore).toBe("function");
  });

  it("tablekit/data-tables runs a program on memory: with every cloud SDK unresolvable", async () => {
    // A resolve hook that refuses @azure/* and @aws-sdk/*, as on a machine that installed none.
    const hook = `data:text/javascript,${encodeURIComponent(
      'export async function resolve(s, c, next) { if (/^@(azure|aws-sdk)\\//.test(s)) throw new Error("no SDK: " + s); return next(s, c); }',
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from "node:module"; register(${JSON.stringify(hook)});`,
    )}`;
    const program = [
      'import { TableClient, closeDataTablesStores } from "tablekit/data-tables";',
      'const client = TableClient.fromConnectionString("memory:", "Orders");',
      "await client.createTable();",
      'await client.createEntity({ partitionKey: "p", rowKey: "r", when: new Date(0), n: 5n });',
      'const e = await client.getEntity("p", "r");',
      "console.log(e.when instanceof Date, typeof e.n);",
      "await closeDataTablesStores();",
    ].join("\n");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", register, "--input-type=module", "-e", program],
      { cwd: root },
    );
    expect(stdout.trim()).toBe("true bigint");
  });

  it("tablekit/storage-queue runs a program on memory: with every cloud SDK unresolvable", async () => {
    const hook = `data:text/javascript,${encodeURIComponent(
      'export async function resolve(s, c, next) { if (/^@(azure|aws-sdk)\\//.test(s)) throw new Error("no SDK: " + s); return next(s, c); }',
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from "node:module"; register(${JSON.stringify(hook)});`,
    )}`;
    const program = [
      'import { QueueServiceClient, closeStorageQueueStores } from "tablekit/storage-queue";',
      'const queue = QueueServiceClient.fromConnectionString("memory:").getQueueClient("jobs");',
      "await queue.create();",
      'await queue.sendMessage("hello");',
      "const [m] = (await queue.receiveMessages()).receivedMessageItems;",
      "console.log(m.messageText, m.nextVisibleOn instanceof Date);",
      "await closeStorageQueueStores();",
    ].join("\n");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", register, "--input-type=module", "-e", program],
      { cwd: root },
    );
    expect(stdout.trim()).toBe("hello true");
  });

  it("tablekit/storage-blob runs a program on memory: with every cloud SDK unresolvable", async () => {
    const hook = `data:text/javascript,${encodeURIComponent(
      'export async function resolve(s, c, next) { if (/^@(azure|aws-sdk)\\//.test(s)) throw new Error("no SDK: " + s); return next(s, c); }',
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from "node:module"; register(${JSON.stringify(hook)});`,
    )}`;
    const program = [
      'import { BlobServiceClient, closeStorageBlobStores } from "tablekit/storage-blob";',
      'const { containerClient } = await BlobServiceClient.fromConnectionString("memory:").createContainer("docs");',
      'const blob = containerClient.getBlockBlobClient("a.txt");',
      'const { etag } = await blob.uploadData(Buffer.from("hello"));',
      "const text = (await blob.downloadToBuffer()).toString();",
      "console.log(text, typeof etag, (await blob.getProperties()).blobType);",
      "await closeStorageBlobStores();",
    ].join("\n");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", register, "--input-type=module", "-e", program],
      { cwd: root },
    );
    expect(stdout.trim()).toBe("hello string BlockBlob");
  });

  it("declares every bin as a built file with a shebang", () => {
    for (const file of Object.values(pkg.bin ?? {})) {
      const path = join(root, file);
      expect(existsSync(path), file).toBe(true);
      expect(readFileSync(path, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    }
  });
});
