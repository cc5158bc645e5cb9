/**
 * Every public method and property of `@azure/data-tables`' `TableClient` and `TableServiceClient`
 * is either on `tablekit/data-tables`' clients under the same name, or named in docs/api.md's table
 * of what a ported program still sees differ, and every row of that table says why.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { describe, expect, it } from "vitest";
import * as ported from "../../src/data-tables/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const api = readFileSync(join(root, "docs", "api.md"), "utf8");
const porting = api.indexOf("## Porting from `@azure/data-tables`");
const differences = api.slice(porting, api.indexOf("\n## ", porting + 1));

/** Public methods of an SDK class: its helpers (`_listEntities`, `listEntitiesAll`, `listEntitiesPage`, …) are private in its declarations. */
const publicMethods = (proto: object) =>
  Object.getOwnPropertyNames(proto).filter(
    (name) => name !== "constructor" && !name.startsWith("_") && !/^list\w+(All|Page)$/.test(name),
  );

describe("the SDK's surface, ported", () => {
  it("every TableClient method is on the ported TableClient, or listed as a difference", () => {
    const table = ported.TableClient.prototype as unknown as Record<string, unknown>;
    const missing = publicMethods(TableClient.prototype).filter(
      (name) => typeof table[name] !== "function" && !differences.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
    expect(publicMethods(TableClient.prototype)).toContain("submitTransaction");
  });

  it("every TableServiceClient method is on the ported TableServiceClient, or listed as a difference", () => {
    const service = ported.TableServiceClient.prototype as unknown as Record<string, unknown>;
    const missing = publicMethods(TableServiceClient.prototype).filter(
      (name) =>
        typeof service[name] !== "function" &&
        !differences.includes(`TableServiceClient.${name}`) &&
        !differences.includes(`/ \`${name}\``),
    );
    expect(missing).toEqual([]);
  });

  it("the client's public properties: tableName and url as the SDK's, pipeline listed", () => {
    const client = TableClient.fromConnectionString("UseDevelopmentStorage=true", "Ported");
    const port = ported.TableClient.fromConnectionString("UseDevelopmentStorage=true", "Ported");
    expect(port.tableName).toBe(client.tableName);
    expect(port.url).toBe(client.url);
    expect(client.pipeline).toBeDefined();
    expect(differences).toContain("`pipeline`");
  });

  it("every row of the differences table names the line a ported program changes", () => {
    const rows = differences
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| ---") && !line.startsWith("| Where"));
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1);
      expect(cells, row).toHaveLength(3);
      expect(cells[2]!.trim(), row).not.toBe("");
    }
  });
});
