import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, ndjson, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const store = ["--store", `file:${join(dir, "blobs.db")}`];

describe("tablekit blob", { timeout: 120_000 }, () => {
  it("puts files and standard input, lists by prefix and delimiter, gets whole and ranged, removes", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
    writeFileSync(join(dir, "big.bin"), big);
    const created = await cli(["blob", "containers", "create", "logs", ...store], { cwd: dir });
    expect(created.code, created.stderr).toBe(0);
    const put = await cli(
      ["blob", "put", "logs", "2026/01/big.bin", "big.bin", "--content-type", "application/x-test", ...store],
      {
        cwd: dir,
      },
    );
    expect(put.code, put.stderr).toBe(0);
    expect(ndjson(put.stdout)[0]).toMatchObject({ container: "logs", name: "2026/01/big.bin" });
    const piped = await cli(["blob", "put", "logs", "2026/02/note.txt", "--metadata", "by=cli", ...store], {
      cwd: dir,
      input: "from stdin\n",
    });
    expect(piped.code, piped.stderr).toBe(0);
    const createOnly = await cli(["blob", "put", "logs", "2026/02/note.txt", "--if-none-match", ...store], {
      cwd: dir,
      input: "again",
    });
    expect(createOnly.code).toBe(1);
    expect(createOnly.stderr).toMatch(/^error BlobAlreadyExists: /m);

    const flat = await cli(["blob", "ls", "logs", "--prefix", "2026/", "-o", "json", ...store], { cwd: dir });
    expect(ndjson(flat.stdout).map((r) => [r.name, r.size])).toEqual([
      ["2026/01/big.bin", big.length],
      ["2026/02/note.txt", 11],
    ]);
    const tree = await cli(["blob", "ls", "logs", "--prefix", "2026/", "--delimiter", "/", ...store], {
      cwd: dir,
    });
    expect(
      tree.stdout
        .trim()
        .split("\n")
        .map((l) => l.trim().split(/\s+/).at(-1)),
    ).toEqual(["2026/01/", "2026/02/"]);

    const got = await cli(["blob", "get", "logs", "2026/01/big.bin", "copy.bin", ...store], { cwd: dir });
    expect(got.code, got.stderr).toBe(0);
    expect(readFileSync(join(dir, "copy.bin")).equals(big)).toBe(true);
    const ranged = await cli(
      ["blob", "get", "logs", "2026/02/note.txt", "--offset", "5", "--count", "5", ...store],
      {
        cwd: dir,
      },
    );
    expect(ranged.stdout).toBe("stdin");

    const rm = await cli(["blob", "rm", "logs", "2026/02/note.txt", ...store], { cwd: dir });
    expect(rm.code).toBe(0);
    const again = await cli(["blob", "rm", "logs", "2026/02/note.txt", ...store], { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error BlobNotFound: /m);
    const containers = await cli(["blob", "containers", ...store], { cwd: dir });
    expect(containers.stdout).toBe("logs\n");
  });

  it("reports a missing container, a bad name and a bad option with their codes and exit statuses", async () => {
    const missing = await cli(["blob", "get", "nothere", "x", ...store], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error ContainerNotFound: /m);
    const bad = await cli(["blob", "ls", "Bad_Name", ...store], { cwd: dir });
    expect(bad.stderr).toMatch(/^error InvalidResourceName: /m);
    const usage = await cli(["blob", "put", "logs", "x", "--metadata", "novalue", ...store], { cwd: dir });
    expect(usage.code).toBe(2);
  });
});
