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
import type { BackendQuery, BackendStore, BackendTable } from "../../../src/store/backend.js";
import { embeddedBackend } from "../../../src/store/embedded/index.js";

/** A fresh private in-memory backend. */
export function openMemory(): Promise<BackendStore> {
  return embeddedBackend("", { memory: true });
}

/** A temporary directory, removed by the returned `cleanup`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "tablekit-embedded-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A backend on a database file. */
export function openFile(path: string): Promise<BackendStore> {
  return embeddedBackend(path, {});
}

/** A backend table, created. */
export async function freshTable(store: BackendStore, name = "Things"): Promise<BackendTable> {
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
  table: BackendTable,
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
