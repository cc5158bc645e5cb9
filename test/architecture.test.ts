/** The layering rules of docs/architecture.md, checked on the sources. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");
// The CLI starts the server (`tablekit serve`), so the server sits beneath it.
const LAYERS = ["model", "keys", "filter", "store", "patterns", "server", "cli"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    return d.isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

function staticImports(code: string): string[] {
  return [...code.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

const files = sources(src).map((path) => ({
  path,
  rel: relative(src, path),
  code: readFileSync(path, "utf8"),
}));

describe("architecture", () => {
  it("each module imports only from its own layer or layers beneath it", () => {
    const violations: string[] = [];
    for (const f of files) {
      const layer = LAYERS.indexOf(f.rel.split("/")[0]!);
      if (layer < 0) continue; // src/index.ts re-exports everything
      for (const spec of staticImports(f.code)) {
        if (!spec.startsWith(".")) continue;
        const target = relative(src, resolve(dirname(f.path), spec)).split("/")[0]!;
        const targetLayer = LAYERS.indexOf(target);
        if (targetLayer > layer)
          violations.push(`${f.rel} imports ${spec} (${target} is above ${LAYERS[layer]})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("backends do not import each other", () => {
    const violations: string[] = [];
    for (const f of files) {
      const m = /^store\/([a-z-]+)\//.exec(f.rel);
      if (!m) continue;
      for (const spec of staticImports(f.code)) {
        const target = relative(src, resolve(dirname(f.path), spec));
        const targetBackend = /^store\/([a-z-]+)\//.exec(target)?.[1];
        if (spec.startsWith(".") && targetBackend && targetBackend !== m[1])
          violations.push(`${f.rel} imports ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("cloud SDKs are only ever imported dynamically (the embedded path installs neither)", () => {
    const offenders = files.filter(
      (f) =>
        staticImports(f.code).some((s) => s.startsWith("@azure/") || s.startsWith("@aws-sdk/")) &&
        !/^\s*import\s+type\s/m.test(f.code.split("\n").find((l) => /@azure\/|@aws-sdk\//.test(l)) ?? ""),
    );
    expect(offenders.map((f) => f.rel)).toEqual([]);
  });

  it("each backend folder has the role files of every port it serves (docs/architecture.md)", () => {
    const violations: string[] = [];
    for (const backend of backendFolders()) {
      const has = (file: string) => existsSync(join(src, "store", backend, file));
      const ports = Object.entries(PORT_FILES).filter(([, files]) => files(backend).some(has));
      if (ports.length === 0) violations.push(`store/${backend} serves no port`);
      const required = [...COMMON_FILES(backend), ...ports.flatMap(([, files]) => files(backend))];
      for (const file of required) if (!has(file)) violations.push(`store/${backend}/${file} is missing`);
    }
    expect(violations).toEqual([]);
  });

  it("the classes of a backend folder share one prefix, the backend's name", () => {
    const violations: string[] = [];
    for (const backend of backendFolders()) {
      const prefix = backend.replaceAll("-", "");
      const spellings = new Set<string>();
      for (const f of files.filter((f) => f.rel.startsWith(`store/${backend}/`))) {
        for (const [, name] of f.code.matchAll(/^export (?:abstract )?class (\w+)/gm)) {
          if (!name!.toLowerCase().startsWith(prefix)) violations.push(`${f.rel}: ${name} lacks the prefix`);
          else spellings.add(name!.slice(0, prefix.length));
        }
      }
      if (spellings.size > 1) violations.push(`store/${backend}: prefixes ${[...spellings].join(", ")}`);
    }
    expect(violations).toEqual([]);
  });

  it("src/filter/ names no backend: translators live in their backend's folder", () => {
    const offenders = files
      .filter((f) => f.rel.startsWith("filter/"))
      .filter(
        (f) =>
          BACKEND_NAMES.test(f.rel) ||
          BACKEND_NAMES.test(f.code) ||
          staticImports(f.code).some((s) => s.includes("/store/")),
      )
      .map((f) => f.rel);
    expect(offenders).toEqual([]);
  });
});

/** The role files every backend folder has. */
const COMMON_FILES = (b: string) => [
  "index.ts",
  `${b}-store.ts`,
  "capabilities.ts",
  "connection.ts",
  "errors.ts",
];
/** The role files of each port a backend serves; a port is served when any of its files exists. */
const PORT_FILES: Record<string, (b: string) => string[]> = {
  table: (b) => [
    `${b}-tables.ts`,
    `${b}-table.ts`,
    "entity-codec.ts",
    "filter-translator.ts",
    "continuation.ts",
  ],
  queue: (b) => [`${b}-queues.ts`, `${b}-queue.ts`],
  blob: (b) => [`${b}-containers.ts`, `${b}-container.ts`],
};
const BACKEND_NAMES = /dynamo|embedded|sqlite|azurite|cosmos|\bs3\b/i;

function backendFolders(): string[] {
  return readdirSync(join(src, "store"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
}
