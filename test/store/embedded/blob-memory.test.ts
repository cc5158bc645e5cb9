import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startChild } from "./child-process.js";

const dir = mkdtempSync(join(tmpdir(), "tablekit-blob-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("embedded blobs stream with bounded memory", () => {
  it("a 256 MiB upload and download grow the process's peak memory by far less than the blob", async () => {
    const run = startChild("blob-memory-child.ts", [join(dir, "big.db"), "256"]);
    expect(await run.exited).toBe(0);
    const result = JSON.parse(run.lines.at(-1)!) as { bytes: number; same: boolean; growthMiB: number };
    expect(result.bytes).toBe(256 * 1024 * 1024);
    expect(result.same).toBe(true);
    // The bench runs the same child with 1 GiB (npm run bench -- blobs).
    expect(result.growthMiB).toBeLessThan(64);
  });
});
