/**
 * One Node story: `engines`, the README and the Node that runs this suite (CI's) agree, and every
 * package the lockfile installs accepts the oldest Node we support — but for the ones the README
 * names as not quiet on Node 20, and why — so `npm ci` there warns of nothing unannounced.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const json = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8")) as Record<string, unknown>;
// semver ships no types: the slice used here.
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const engines = (json("package.json").engines as { node: string }).node;
/**
 * Dev dependencies that want a newer Node than ours, each named in the README: the releases of
 * @azure/storage-queue that declare Node 20 (12.30 and older, with @azure/storage-common 12.4) drop
 * line breaks from message text (the queue conformance suite's round trip fails on them).
 */
const ANNOUNCED = ["node_modules/@azure/storage-queue", "node_modules/@azure/storage-common"];
const oldest = semver.minVersion(engines)!.version;

describe("the Node versions tablekit supports", () => {
  it("engines names a minimum with require(esm) (20.19), which CommonJS consumers need", () => {
    expect(semver.satisfies("20.19.0", engines)).toBe(true);
    expect(semver.satisfies("20.18.3", engines)).toBe(false);
  });

  it("the README states the same minimum", () => {
    const [major, minor] = oldest.split(".");
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain(`Node ${major}.${minor} or newer`);
  });

  it("the Node running this suite (CI's) is one engines accepts", () => {
    expect(semver.satisfies(process.versions.node, engines), process.version).toBe(true);
  });

  it("every package of the lockfile installs on the oldest supported Node without EBADENGINE, but those the README announces", () => {
    const packages = (json("package-lock.json").packages ?? {}) as Record<
      string,
      { version?: string; engines?: { node?: string } | string[] }
    >;
    const refusing = Object.entries(packages)
      .filter(([path, p]) => path !== "" && !Array.isArray(p.engines) && p.engines?.node)
      .filter(
        ([path, p]) =>
          !ANNOUNCED.includes(path) && !semver.satisfies(oldest, (p.engines as { node: string }).node),
      )
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
    const readme = readFileSync(join(root, "README.md"), "utf8");
    for (const path of ANNOUNCED) expect(readme).toContain(`\`${path.replace("node_modules/", "")}\``);
  });
});
