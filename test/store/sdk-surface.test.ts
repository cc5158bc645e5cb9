/**
 * Every public method and property of `@azure/data-tables`' `TableClient` and `TableServiceClient`
 * is either on tablekit's `Table` / `Store` under the same name, or named in docs/api.md's table of
 * differences, and every row of that table says which line a ported program changes.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const api = readFileSync(join(root, "docs", "api.md"), "utf8");
const differences = api.slice(api.indexOf("## Differences from `@azure/data-tables`"));

/** Public methods of an SDK class: its helpers (`_listEntities`, `listEntitiesAll`, `listEntitiesPage`, …) are private in its declarations. */
const publicMethods = (proto: object) =>
  Object.getOwnPropertyNames(proto).filter(
    (name) => name !== "constructor" && !name.startsWith("_") && !/^list\w+(All|Page)$/.test(name),
  );

let store: Store;
beforeAll(async () => {
  store = await openStore("memory:");
});
afterAll(() => store?.close());

describe("the SDK's surface, ported", () => {
  it("every TableClient method is on Table, or listed as a difference", () => {
    const table = store.table("Ported") as unknown as Record<string, unknown>;
    const missing = publicMethods(TableClient.prototype).filter(
      (name) => typeof table[name] !== "function" && !differences.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
    expect(publicMethods(TableClient.prototype)).toContain("submitTransaction");
  });

  it("every TableServiceClient method is on Store, or listed as a difference", () => {
    const service = store as unknown as Record<string, unknown>;
    const missing = publicMethods(TableServiceClient.prototype).filter(
      (name) =>
        typeof service[name] !== "function" &&
        !differences.includes(`TableServiceClient.${name}`) &&
        !differences.includes(`/ \`${name}\``),
    );
    expect(missing).toEqual([]);
  });

  it("the client's public properties: tableName as the SDK's, url and pipeline listed", () => {
    const client = TableClient.fromConnectionString("UseDevelopmentStorage=true", "Ported");
    expect(store.table("Ported").tableName).toBe(client.tableName);
    for (const property of ["url", "pipeline"] as const) {
      expect(client[property]).toBeDefined();
      expect(differences).toContain(`\`${property}\``);
    }
  });

  it("every row of the differences table names the line a ported program changes", () => {
    const rows = differences
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| ---") && !line.startsWith("| Where"));
    expect(rows.length).toBeGreaterThan(15);
    for (const row of rows) {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1);
      expect(cells, row).toHaveLength(3);
      expect(cells[2]!.trim(), row).not.toBe("");
    }
  });
});
