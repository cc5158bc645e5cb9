/**
 * The proof of tablekit/data-tables (issue 36): an @azure/data-tables program, run as written
 * against Azurite and with only its import line and connection string changed against tablekit's
 * stores, prints the same lines. Needs dist/ (`npm run build`): the port imports the package.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import { type Azurite, startAzurite } from "../support/azurite.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../support/dynamodb-local.js";
import { changedLines, fixtureSource, forAzurite, forTablekit, runProgram } from "./run-program.js";

const FIXTURE = "inventory.ts";
const STATE_FIXTURE = "service-state.ts";
let azurite: Azurite;
let dynamo: DynamoDbLocal;
let scratch: string;
let expected: string[];
/** What the SDK prints against Azurite for each part of the service-state program. */
const expectedState = new Map<string, string[]>();

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tablekit-data-tables-"));
  [azurite, dynamo] = await Promise.all([startAzurite(), startDynamoDbLocal()]);
  expected = await runProgram(forAzurite(fixtureSource(FIXTURE), azurite.endpoints.table), "azurite");
  const state = fixtureSource(STATE_FIXTURE);
  for (const part of ["properties", "acl", "statistics"]) {
    // Statistics come from the secondary endpoint (the SDK asks it; Azurite's is the account's path + "-secondary").
    const endpoint = part === "statistics" ? `${azurite.endpoints.table}-secondary` : azurite.endpoints.table;
    const lines = await runProgram(forAzurite(state, endpoint), `azurite-${part}`, [part]);
    expectedState.set(part, lines.slice(0, -1));
  }
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

describe("service properties, stored access policies and statistics, ported", () => {
  it("the SDK's run against Azurite answers every part", () => {
    expect(expectedState.get("properties")?.join("\n")).toMatch(/getProperties .*cors: \[\{ allowedOrigins/);
    expect(expectedState.get("acl")?.join("\n")).toMatch(/getAccessPolicy \[\{ id: string:readers/);
    expect(expectedState.get("statistics")?.join("\n")).toMatch(/status: string:live/);
  });

  const targets: [string, () => string][] = [
    ["memory:", () => "memory:"],
    ["file:", () => `file:${join(scratch, "state.db")}`],
    ["DynamoDB Local", () => `${dynamo.storeUrl}?prefix=state_`],
    ["Azurite through the Azure backend", () => azurite.tableConnectionString],
  ];
  for (const [name, url] of targets) {
    it(`prints what the SDK prints against Azurite for what the store keeps, on ${name}`, async () => {
      const store = await openStore(STORE_URL(url()));
      const capabilities = store.stateCapabilities;
      await store.close();
      // The parts the store's capabilities say it keeps; statistics need no state.
      const parts = [
        ...(capabilities.serviceProperties.tables ? ["properties"] : []),
        ...(capabilities.tables ? ["acl"] : []),
        "statistics",
      ];
      const source = forTablekit(fixtureSource(STATE_FIXTURE), url());
      const actual = await runProgram(source, `tablekit-state-${name}`, [parts.join(",")]);
      expect(actual).toEqual([...parts.flatMap((p) => expectedState.get(p)!), "done"]);
    }, 120_000);
  }

  it("a store without service properties answers getProperties with a RestError the store names", async () => {
    const source = forTablekit(fixtureSource(STATE_FIXTURE), `${dynamo.storeUrl}?prefix=state_`);
    const store = await openStore(`${dynamo.storeUrl}?prefix=state_`);
    const keeps = store.stateCapabilities.serviceProperties.tables;
    await store.close();
    if (keeps) return expect(keeps).toBe(true);
    await expect(runProgram(source, "tablekit-state-unsupported", ["properties"])).rejects.toThrow(
      /RestError[\s\S]*NotSupported/,
    );
  }, 120_000);
});

/** The openStore URL of a connection string the shim takes (an Azure one goes through the Azure backend). */
function STORE_URL(url: string): string {
  return /^(memory|file|dynamodb|azure):/.test(url) ? url : `azure:${url}`;
}
