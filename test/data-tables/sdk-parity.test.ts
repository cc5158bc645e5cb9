/**
 * The proof of tablekit/data-tables (issue 36): an @azure/data-tables program, run as written
 * against Azurite and with only its import line and connection string changed against tablekit's
 * stores, prints the same lines. Needs dist/ (`npm run build`): the port imports the package.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Azurite, startAzurite } from "../support/azurite.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../support/dynamodb-local.js";
import { changedLines, fixtureSource, forAzurite, forTablekit, runProgram } from "./run-program.js";

const FIXTURE = "inventory.ts";
let azurite: Azurite;
let dynamo: DynamoDbLocal;
let scratch: string;
let expected: string[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tablekit-data-tables-"));
  [azurite, dynamo] = await Promise.all([startAzurite(), startDynamoDbLocal()]);
  expected = await runProgram(forAzurite(fixtureSource(FIXTURE), azurite.endpoints.table), "azurite");
}, 240_000);

afterAll(async () => {
  await Promise.all([azurite?.stop(), dynamo?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe("an @azure/data-tables program ported by its import line and connection string", () => {
  it("prints a full run against Azurite (the reference is not empty or failing)", () => {
    expect(expected.at(-1)).toBe("done");
    expect(expected.length).toBeGreaterThan(30);
    expect(expected.join("\n")).not.toMatch(/not a RestError/);
  });

  it("the port changes exactly two lines: the import and the connection string", () => {
    const source = fixtureSource(FIXTURE);
    const changed = changedLines(source, forTablekit(source, "memory:"));
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatch(/"@azure\/data-tables".*→.*"tablekit\/data-tables"/);
    expect(changed[1]).toMatch(/DefaultEndpointsProtocol.*→ *"memory:";/);
  });

  const targets: [string, () => string][] = [
    ["memory:", () => "memory:"],
    ["file:", () => `file:${join(scratch, "inventory.db")}`],
    ["DynamoDB Local", () => `${dynamo.storeUrl}?prefix=parity_`],
    // The same Azurite through tablekit's Azure backend (the SDK's run deleted its table at its end).
    ["Azurite through the Azure backend", () => azurite.tableConnectionString],
  ];
  for (const [name, url] of targets) {
    it(`prints what the SDK prints against Azurite, line by line, on ${name}`, async () => {
      const actual = await runProgram(forTablekit(fixtureSource(FIXTURE), url()), `tablekit-${name}`);
      expect(actual).toEqual(expected);
    }, 120_000);
  }
});
