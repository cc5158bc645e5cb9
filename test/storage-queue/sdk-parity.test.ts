/**
 * The proof of tablekit/storage-queue (issue 36): an @azure/storage-queue program, run as written
 * against Azurite and with only its import line and connection string changed against tablekit's
 * stores, prints the same lines. Needs dist/ (`npm run build`): the port imports the package.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import { changedLines, runProgram } from "../data-tables/run-program.js";
import { type Azurite, startAzurite } from "../support/azurite.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../support/dynamodb-local.js";
import { queueFixture, queueForAzurite, queueForTablekit } from "./run-queue-program.js";

const FIXTURE = "jobs.ts";
let azurite: Azurite;
let dynamo: DynamoDbLocal;
let scratch: string;
let expected: string[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tablekit-storage-queue-"));
  [azurite, dynamo] = await Promise.all([startAzurite(), startDynamoDbLocal()]);
  expected = await runProgram(
    queueForAzurite(queueFixture(FIXTURE), azurite.endpoints.queue),
    "azurite-queue",
  );
}, 240_000);

afterAll(async () => {
  await Promise.all([azurite?.stop(), dynamo?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe("an @azure/storage-queue program ported by its import line and connection string", () => {
  it("prints a full run against Azurite (the reference is not empty or failing)", () => {
    expect(expected.at(-1)).toBe("done");
    expect(expected.length).toBeGreaterThan(30);
    expect(expected.join("\n")).not.toMatch(/not a RestError|no error/);
  });

  it("the port changes exactly two lines: the import and the connection string", () => {
    const source = queueFixture(FIXTURE);
    const changed = changedLines(source, queueForTablekit(source, "memory:"));
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatch(/"@azure\/storage-queue".*→.*"tablekit\/storage-queue"/);
    expect(changed[1]).toMatch(/DefaultEndpointsProtocol.*→ *"memory:";/);
  });

  const targets: [string, () => string][] = [
    ["memory:", () => "memory:"],
    ["file:", () => `file:${join(scratch, "jobs.db")}`],
    // The table-backed queue (DynamoDB has no queue service of its own).
    ["DynamoDB Local", () => `${dynamo.storeUrl}?prefix=qparity_`],
    ["Azurite through the Azure backend", () => azurite.connectionString],
  ];
  for (const [name, url] of targets) {
    it(`prints what the SDK prints against Azurite, line by line, on ${name}`, async () => {
      const storeUrl = /^(memory|file|dynamodb):/.test(url()) ? url() : `azure:${url()}`;
      const store = await openStore(storeUrl);
      const keepsState = store.stateCapabilities.queues;
      await store.close();
      // The program sets metadata and stored access policies: a store that keeps no queue state cannot run it.
      expect(keepsState).toBe(true);
      const actual = await runProgram(
        queueForTablekit(queueFixture(FIXTURE), url()),
        `tablekit-queue-${name}`,
      );
      expect(actual).toEqual(expected);
    }, 120_000);
  }
});
