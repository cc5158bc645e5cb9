/**
 * The proof of tablekit/storage-blob (issue 36): an @azure/storage-blob program, run as written
 * against Azurite and with only its import line and connection string changed against tablekit's
 * stores, prints the same lines. Needs dist/ (`npm run build`): the port imports the package.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedLines, runProgram } from "../data-tables/run-program.js";
import { type Azurite, startAzurite } from "../support/azurite.js";
import { blobFixture, blobForAzurite, blobForTablekit } from "./run-blob-program.js";

const FIXTURE = "files.ts";
let azurite: Azurite;
let scratch: string;
let expected: string[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tablekit-storage-blob-"));
  azurite = await startAzurite();
  expected = await runProgram(blobForAzurite(blobFixture(FIXTURE), azurite.endpoints.blob), "azurite-blob");
}, 240_000);

afterAll(async () => {
  await azurite?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("an @azure/storage-blob program ported by its import line and connection string", () => {
  it("prints a full run against Azurite (the reference is not empty, and every expected error is one)", () => {
    expect(expected.at(-1)).toBe("done");
    expect(expected.length).toBeGreaterThan(50);
    expect(expected.join("\n")).not.toMatch(/not a RestError|no error/);
  });

  it("the port changes exactly two lines: the import and the connection string", () => {
    const source = blobFixture(FIXTURE);
    const changed = changedLines(source, blobForTablekit(source, "memory:"));
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatch(/"@azure\/storage-blob".*→.*"tablekit\/storage-blob"/);
    expect(changed[1]).toMatch(/DefaultEndpointsProtocol.*→ *"memory:";/);
  });

  const targets: [string, () => string][] = [
    ["memory:", () => "memory:"],
    ["file:", () => `file:${join(scratch, "files.db")}`],
    ["Azurite through the Azure backend", () => azurite.connectionString],
  ];
  for (const [name, url] of targets) {
    it(`prints what the SDK prints against Azurite, line by line, on ${name}`, async () => {
      const actual = await runProgram(blobForTablekit(blobFixture(FIXTURE), url()), `tablekit-blob-${name}`);
      expect(actual).toEqual(expected);
    }, 120_000);
  }
});
