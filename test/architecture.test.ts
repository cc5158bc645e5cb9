/** The layering rules of docs/architecture.md, checked on the sources. */
import { readdirSync, readFileSync } from "node:fs";
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
      const m = /^store\/([a-z]+)\//.exec(f.rel);
      if (!m) continue;
      for (const spec of staticImports(f.code)) {
        const target = relative(src, resolve(dirname(f.path), spec));
        const targetBackend = /^store\/([a-z]+)\//.exec(target)?.[1];
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
});
