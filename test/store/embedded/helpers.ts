import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KeyRange } from "../../../src/filter/ast.js";
import {
  AZURE_LIMITS,
  type NormalizedEntity,
  normalizeEntity,
  type StoredEntity,
} from "../../../src/model/index.js";
import type { BackendStore } from "../../../src/store/backend.js";
import {
  type EmbeddedStoreOptions,
  fileBackend,
  memoryBackend,
} from "../../../src/store/backends/embedded/index.js";
import type {
  BackendQuery,
  TableBackend,
  TableServiceBackend,
} from "../../../src/store/tables/table-backend.js";

/** A backend's table service, and how to close the store it belongs to. */
export type TestStore = TableServiceBackend & { close(): Promise<void> };

function testStore(store: BackendStore): TestStore {
  const t = store.tables;
  return {
    capabilities: t.capabilities,
    createTable: (name, call) => t.createTable(name, call),
    deleteTable: (name, call) => t.deleteTable(name, call),
    listTables: (query, call) => t.listTables(query, call),
    table: (name) => t.table(name),
    close: () => store.close(),
  };
}

/** A fresh private in-memory backend (`name`: shared in-process by that name). */
export async function openMemory(name = "", options: EmbeddedStoreOptions = {}): Promise<TestStore> {
  return testStore(await memoryBackend.open(name, options));
}

/** A temporary directory, removed by the returned `cleanup`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "tablekit-embedded-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A backend on a database file. */
export async function openFile(path: string, options: EmbeddedStoreOptions = {}): Promise<TestStore> {
  return testStore(await fileBackend.open(path, options));
}

/** A backend table, created. */
export async function freshTable(store: TableServiceBackend, name = "Things"): Promise<TableBackend> {
  await store.createTable(name, {});
  return store.table(name);
}

/** A validated entity from the caller's form. */
export function entity(
  e: Record<string, unknown> & { partitionKey: string; rowKey: string },
): NormalizedEntity {
  return normalizeEntity(e, AZURE_LIMITS);
}

/** Every entity a query returns, page after page. */
export async function queryAll(
  table: TableBackend,
  query: Partial<BackendQuery> = {},
): Promise<{ entities: StoredEntity[]; pages: number }> {
  const entities: StoredEntity[] = [];
  let continuation: string | undefined;
  let pages = 0;
  do {
    const page = await table.query(
      {
        maxPageSize: 1000,
        timeBudgetMs: 5000,
        filterProperties: [],
        ...query,
        ...(continuation === undefined ? {} : { continuation }),
      },
      {},
    );
    entities.push(...page.entities);
    continuation = page.continuation;
    if (++pages > 100_000) throw new Error("paging does not end");
  } while (continuation !== undefined);
  return { entities, pages };
}

export const keyOf = (e: { partitionKey: string; rowKey: string }): string => `${e.partitionKey}/${e.rowKey}`;

/** A rows range: partition `pk`, RowKeys from `lower` (inclusive) below `upper` (exclusive). */
export function rowsRange(pk: string, lower?: string, upper?: string): KeyRange {
  return {
    kind: "rows",
    pk,
    rk: {
      ...(lower === undefined ? {} : { lower: { value: lower, inclusive: true } }),
      ...(upper === undefined ? {} : { upper: { value: upper, inclusive: false } }),
    },
  };
}
