/**
 * The packed tarball as a user installs it: `npm pack`, then fresh consumer projects — a CommonJS
 * program (plain `require` and TypeScript compiled to CommonJS) and a strict TypeScript ESM program
 * checked without skipLibCheck — each installing only what `npm install tablekit` installs.
 *
 * The install reuses the npm cache (`--prefer-offline`) and copies better-sqlite3's native build
 * from this checkout (same version, same Node) instead of compiling it again; nothing else is
 * borrowed from the repository, so a declaration that needs a dev-only package fails here.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newestMtime } from "./support/newest-mtime.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
};
const installed = (name: string) =>
  (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string })
    .version;
const TSC = join(root, "node_modules", "typescript", "bin", "tsc");
/** TypeScript 7 (what `npm install typescript` brings now), installed beside the consumers, not ours. */
const TYPESCRIPT_7 = "^7.0.2";
/** Every entry point a consumer can import, as specifiers (`tablekit`, `tablekit/keys`, …). */
const ENTRIES = Object.keys(pkg.exports)
  .filter((subpath) => !subpath.endsWith(".json"))
  .map((subpath) => posix.join(pkg.name, subpath));

let work: string;
let files: string[];
/** The packed files' modes, by path. */
let modes: Map<string, number>;
let tsc7: string;

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A strict compiler configuration as a careful consumer writes it: no skipLibCheck. */
function tsconfig(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      types: ["node"],
      outDir: "out",
      ...extra,
    },
    include: ["*.ts", "*.cts", "*.mts"],
  });
}

/**
 * Writes a consumer project of module type `type` around `source`, compiles it with the strict
 * configuration, and runs it: its stdout, parsed, and the compiled text.
 */
function compileAndRun(
  name: string,
  type: "commonjs" | "module",
  source: string,
  compilerOptions: Record<string, unknown> = {},
): { out: unknown; js: string } {
  const dir = join(work, name);
  write(join(dir, "package.json"), JSON.stringify({ type }));
  write(join(dir, "tsconfig.json"), tsconfig(compilerOptions));
  write(join(dir, "main.ts"), source);
  run(process.execPath, [TSC, "-p", "."], dir);
  const out = JSON.parse(run(process.execPath, ["out/main.js"], dir)) as unknown;
  return { out, js: readFileSync(join(dir, "out", "main.js"), "utf8") };
}

/** What both TypeScript consumers print. */
const STORE_OUTPUT = { total: 12.5, code: "ResourceNotFound" };

const USE_THE_STORE = `
  const store = await openStore("memory:");
  const orders = store.table("Orders");
  await orders.createTable();
  await orders.createEntity({ partitionKey: "customer-42", rowKey: paddedInt({ max: 999_999 }).encode(1), total: 12.5 });
  const order = await orders.getEntity<{ total: number }>("customer-42", "000001");
  let code = "";
  try {
    await orders.getEntity("customer-42", "000002");
  } catch (err) {
    if (err instanceof TableKitError) code = err.code;
  }
  await store.close();
  console.log(JSON.stringify({ total: order.total, code }));
`;

beforeAll(() => {
  const dist = join(root, "dist", "index.js");
  if (!existsSync(dist) || statSync(dist).mtimeMs < newestMtime(join(root, "src")))
    throw new Error("dist/ is older than src/: run `npm run build` first (`npm test` does)");
  work = mkdtempSync(join(tmpdir(), "tablekit-tarball-"));
  const [packed] = JSON.parse(
    run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], root),
  ) as { filename: string; files: { path: string; mode: number }[] }[];
  files = packed!.files.map((f) => f.path);
  modes = new Map(packed!.files.map((f) => [f.path, f.mode]));

  // One install shared by the consumers below (Node finds it from their sub-folders).
  write(
    join(work, "package.json"),
    JSON.stringify({
      private: true,
      dependencies: {
        tablekit: `file:./${packed!.filename}`,
        // Pinned to this checkout's version so its native build can be copied in.
        "better-sqlite3": installed("better-sqlite3"),
      },
      devDependencies: { "@types/node": installed("@types/node") },
    }),
  );
  run("npm", ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"], work);
  cpSync(
    join(root, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"),
    join(work, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"),
  );
  const ts7 = join(work, "typescript-7");
  write(join(ts7, "package.json"), JSON.stringify({ private: true }));
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `typescript@${TYPESCRIPT_7}`], ts7);
  tsc7 = join(ts7, "node_modules", "typescript", "bin", "tsc");
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// Each TypeScript consumer is a full strict compile: seconds on a quiet machine, more on a busy one.
describe("the packed tarball", { timeout: 180_000 }, () => {
  it("carries the LICENSE the package declares", () => {
    expect(files).toContain("LICENSE");
    expect(readFileSync(join(work, "node_modules", "tablekit", "LICENSE"), "utf8")).toMatch(/^MIT License/);
  });

  it("ships every file its source maps point at, and no tests", () => {
    const shipped = new Set(files);
    const maps = files.filter((f) => f.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(work, "node_modules", "tablekit", map), "utf8")) as {
        sources: string[];
      };
      for (const source of sources) {
        const target = posix.normalize(posix.join(posix.dirname(map), source));
        if (!shipped.has(target)) missing.push(`${map} -> ${target}`);
      }
    }
    expect(missing).toEqual([]);
    expect(files.filter((f) => /\.test\.ts$|^test\//.test(f))).toEqual([]);
  });

  it("packs the CLI executable, and its bin link runs it", () => {
    const bin = (pkg as unknown as { bin: Record<string, string> }).bin;
    for (const target of Object.values(bin)) {
      expect(modes.get(posix.normalize(target)), target).toBeDefined();
      expect((modes.get(posix.normalize(target))! & 0o111).toString(8), target).toBe("111");
    }
    const version = run(join(work, "node_modules", ".bin", "tablekit"), ["--version"], work);
    expect(version.trim()).toBe(pkg.version);
  });

  it("installs no cloud SDK with the embedded path", () => {
    expect(existsSync(join(work, "node_modules", "@azure"))).toBe(false);
    expect(existsSync(join(work, "node_modules", "@aws-sdk"))).toBe(false);
  });

  it("a CommonJS program requires every entry point", () => {
    write(
      join(work, "cjs", "require-all.cjs"),
      `const loaded = ${JSON.stringify(ENTRIES)}.map((entry) => [entry, Object.keys(require(entry)).length]);
       const { openStore, TableKitError } = require("tablekit");
       console.log(JSON.stringify({ loaded, openStore: typeof openStore, error: typeof TableKitError }));`,
    );
    const out = JSON.parse(run(process.execPath, ["require-all.cjs"], join(work, "cjs"))) as {
      loaded: [string, number][];
      openStore: string;
      error: string;
    };
    expect(out.loaded.map(([entry]) => entry)).toEqual(ENTRIES);
    for (const [entry, names] of out.loaded) expect(names, entry).toBeGreaterThan(0);
    expect(out).toMatchObject({ openStore: "function", error: "function" });
  });

  it("a TypeScript program compiled to CommonJS type-checks strictly and runs", () => {
    const { out, js } = compileAndRun(
      "cts",
      "commonjs",
      `import { openStore, TableKitError } from "tablekit";
       import { paddedInt } from "tablekit/keys";
       async function main(): Promise<void> {${USE_THE_STORE}}
       main().catch((err: unknown) => { console.error(err); process.exitCode = 1; });`,
    );
    expect(js).toContain('require("tablekit")');
    expect(out).toEqual(STORE_OUTPUT);
  });

  it("a TypeScript CommonJS program on module node16 loads it with import(); a static import there is TS1479", () => {
    // node16 predates require(esm) in TypeScript: the README sends such projects to nodenext, or import().
    const { out, js } = compileAndRun(
      "cts-node16",
      "commonjs",
      `async function main(): Promise<void> {
         const { openStore, TableKitError } = await import("tablekit");
         const { paddedInt } = await import("tablekit/keys");
         ${USE_THE_STORE}
       }
       main().catch((err: unknown) => { console.error(err); process.exitCode = 1; });`,
      { module: "node16", moduleResolution: "node16" },
    );
    expect(js).toContain('import("tablekit")');
    expect(js).not.toContain('require("tablekit")');
    expect(out).toEqual(STORE_OUTPUT);
    expect(() =>
      compileAndRun(
        "cts-node16-static",
        "commonjs",
        `import { openStore } from "tablekit";\nvoid openStore;`,
        {
          module: "node16",
          moduleResolution: "node16",
        },
      ),
    ).toThrow(/TS1479/);
  });

  it("a strict TypeScript ESM program type-checks without skipLibCheck and runs", () => {
    const { out } = compileAndRun(
      "esm",
      "module",
      `import { openStore, TableKitError, type TableEntityResult } from "tablekit";
       import * as advisor from "tablekit/advisor";
       import { TableClient, type TableEntityResult as SdkEntity } from "tablekit/data-tables";
       import * as filter from "tablekit/filter";
       import { paddedInt } from "tablekit/keys";
       import * as patterns from "tablekit/patterns";
       import * as server from "tablekit/server";
       import { QueueServiceClient, type ReceivedMessageItem } from "tablekit/storage-queue";
       import { BlobServiceClient, type BlobItem } from "tablekit/storage-blob";
       // The declarations are real types, not any: a misspelt option does not compile.
       // @ts-expect-error tablePrefx is not an option of a dynamodb: store
       void (() => openStore("dynamodb:", { tablePrefx: "app-" }));
       const row: TableEntityResult<{ total: number }> | undefined = undefined;
       void row;
       const sdkRow: SdkEntity<{ total: number }> | undefined = undefined;
       void sdkRow;
       const message: ReceivedMessageItem | undefined = undefined;
       void message;
       void QueueServiceClient.fromConnectionString;
       const item: BlobItem | undefined = undefined;
       void item;
       // @ts-expect-error uploadData takes the bytes, not a file name and a length
       void (() => BlobServiceClient.fromConnectionString("memory:").getContainerClient("c").getBlockBlobClient("b").uploadData("x", 1));
       void [advisor.adviseModel, filter.odata, patterns, server.startServer, TableClient.fromConnectionString];
       ${USE_THE_STORE}`,
    );
    expect(out).toEqual(STORE_OUTPUT);
  });

  describe('in a strict project without "types" (TypeScript 7\'s default loads no @types)', () => {
    const importAll = ENTRIES.map((entry, i) => `import * as entry${i} from "${entry}";`).join("\n");
    const useAll = `void [${ENTRIES.map((_, i) => `entry${i}`).join(", ")}];`;

    /** Type-checks `source` in a consumer folder with `compiler`; the compiler's output on failure. */
    function typecheck(name: string, compiler: string, source: string): void {
      const dir = join(work, name);
      write(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      write(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "nodenext",
            moduleResolution: "nodenext",
            strict: true,
            noUncheckedIndexedAccess: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            noEmit: true,
          },
          include: ["*.ts"],
        }),
      );
      write(join(dir, "main.ts"), source);
      run(process.execPath, [compiler, "-p", "."], dir);
    }

    it("TypeScript 5.9 type-checks every entry point", () => {
      expect(installed("typescript")).toMatch(/^5\.9\./);
      typecheck("no-types-ts5", TSC, `${importAll}\n${useAll}\n`);
    });

    it("TypeScript 7 type-checks every entry point, each one alone too", () => {
      expect(run(process.execPath, [tsc7, "--version"], work)).toMatch(/Version 7\./);
      typecheck("no-types-ts7", tsc7, `${importAll}\n${useAll}\n`);
      // Alone: an entry whose declarations name a Node type must load Node's types itself.
      ENTRIES.forEach((entry, i) => {
        typecheck(`no-types-ts7-${i}`, tsc7, `import * as entry from "${entry}";\nvoid entry;\n`);
      });
    });
  });
});
