/**
 * Randomized transactions for the fault-injection test: a plan (pure data, from a seed) that can
 * be laid out on any store — the entities and blobs its steps expect, then the steps themselves
 * (ETag-guarded steps take the ETags of that store) — and a dump of the state to compare.
 */
import type { Store, TableEntity } from "../../src/index.js";
import { type BlobPrecondition, step, type TransactionStep } from "../../src/patterns/index.js";

export const TABLES = ["TxA", "TxB", "TxC"] as const;
/** The table some transactions need and that is missing at first (they end in the poison queue). */
export const MISSING_TABLE = "TxLate";
export const CONTAINER = "txblobs";

type Kind =
  | "insert"
  | "upsertNew"
  | "upsertMerge"
  | "update"
  | "merge"
  | "delete"
  | "deleteGuarded"
  | "deleteAbsent"
  | "putNew"
  | "putGuarded"
  | "putAny"
  | "deleteBlob"
  | "deleteBlobAbsent"
  | "late";
const KINDS: readonly Kind[] = [
  "insert",
  "upsertNew",
  "upsertMerge",
  "update",
  "merge",
  "delete",
  "deleteGuarded",
  "deleteAbsent",
  "putNew",
  "putGuarded",
  "putAny",
  "deleteBlob",
  "deleteBlobAbsent",
];

interface PlannedStep {
  readonly kind: Kind;
  readonly table: string;
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly value: number;
}

export interface PlannedTransaction {
  readonly id: string;
  readonly steps: readonly PlannedStep[];
}

/** `count` transactions of 1..5 steps; every `poisonEvery`-th also writes the missing table. */
export function planTransactions(
  random: () => number,
  count: number,
  poisonEvery: number,
): PlannedTransaction[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const n = 1 + Math.floor(random() * 5);
    const steps: PlannedStep[] = Array.from({ length: n }, (_, k) => ({
      kind: pick(KINDS),
      table: pick(TABLES),
      partitionKey: `p${Math.floor(random() * 4)}`,
      rowKey: `tx${String(i).padStart(5, "0")}-s${k}`,
      value: Math.floor(random() * 1_000_000),
    }));
    if (poisonEvery > 0 && i % poisonEvery === poisonEvery - 1) {
      steps.splice(Math.floor(random() * (n + 1)), 0, {
        kind: "late",
        table: MISSING_TABLE,
        partitionKey: "late",
        rowKey: `tx${i}`,
        value: i,
      });
    }
    return { id: `tx-${i}`, steps };
  });
}

function entity(s: PlannedStep, version: number): TableEntity<Record<string, unknown>> {
  return {
    partitionKey: s.partitionKey,
    rowKey: s.rowKey,
    version,
    value: BigInt(s.value) * 1_000_003n,
    label: `é${s.value}`,
    ...(version === 0 ? { before: true } : {}),
  };
}

/** Creates what the plans' steps expect to find, and returns the steps (ETags from this store). */
export async function layOut(
  store: Store,
  plans: readonly PlannedTransaction[],
): Promise<TransactionStep[][]> {
  const container = store.container(CONTAINER);
  const out: TransactionStep[][] = [];
  for (const plan of plans) {
    const steps: TransactionStep[] = [];
    for (const s of plan.steps) {
      const table = store.table(s.table);
      const existing = async () => (await table.createEntity(entity(s, 0))).etag;
      const blobName = `${s.partitionKey}/${s.rowKey}.txt`;
      const existingBlob = async () =>
        (await container.uploadBlockBlob(blobName, `old ${s.value}`, `old ${s.value}`.length)).response.etag;
      const guard = (etag: string): BlobPrecondition => ({ ifMatch: etag });
      switch (s.kind) {
        case "insert":
          steps.push(step.insertIfAbsent(s.table, entity(s, 1)));
          break;
        case "upsertNew":
          steps.push(step.upsert(s.table, entity(s, 1), "Replace"));
          break;
        case "upsertMerge":
          await existing();
          steps.push(
            step.upsert(s.table, { partitionKey: s.partitionKey, rowKey: s.rowKey, version: 1 }, "Merge"),
          );
          break;
        case "update":
          steps.push(step.updateIfMatch(s.table, entity(s, 1), await existing()));
          break;
        case "merge":
          steps.push(
            step.updateIfMatch(
              s.table,
              { partitionKey: s.partitionKey, rowKey: s.rowKey, version: 2 },
              await existing(),
              "Merge",
            ),
          );
          break;
        case "delete":
          await existing();
          steps.push(step.deleteIfPresent(s.table, s.partitionKey, s.rowKey));
          break;
        case "deleteGuarded":
          steps.push(step.deleteIfPresent(s.table, s.partitionKey, s.rowKey, { etag: await existing() }));
          break;
        case "deleteAbsent":
          steps.push(step.deleteIfPresent(s.table, s.partitionKey, s.rowKey));
          break;
        case "putNew":
          steps.push(
            step.putBlob(CONTAINER, blobName, `new ${s.value}`, { condition: { ifNoneMatch: "*" } }),
          );
          break;
        case "putGuarded":
          steps.push(
            step.putBlob(CONTAINER, blobName, `guarded ${s.value}`, {
              condition: guard(await existingBlob()),
            }),
          );
          break;
        case "putAny":
          if (s.value % 2 === 0) await existingBlob();
          steps.push(step.putBlob(CONTAINER, blobName, `any ${s.value}`, { contentType: "text/plain" }));
          break;
        case "deleteBlob":
          await existingBlob();
          steps.push(step.deleteBlobIfPresent(CONTAINER, blobName));
          break;
        case "deleteBlobAbsent":
          steps.push(step.deleteBlobIfPresent(CONTAINER, blobName));
          break;
        case "late":
          steps.push(step.upsert(s.table, entity(s, 1)));
          break;
      }
    }
    out.push(steps);
  }
  return out;
}

/** Every entity (without ETag, Timestamp and evidence) of the test's tables, and every blob's text. */
export async function dumpState(
  store: Store,
): Promise<{ tables: Record<string, unknown[]>; blobs: Record<string, string> }> {
  const tables: Record<string, unknown[]> = {};
  for (const name of [...TABLES, MISSING_TABLE]) {
    const rows: unknown[] = [];
    try {
      for await (const { etag: _e, timestamp: _t, tablekit_tx: _x, ...rest } of store
        .table(name)
        .listEntities())
        rows.push(rest);
    } catch {
      // a table that does not exist holds nothing
    }
    tables[name] = rows;
  }
  const blobs: Record<string, string> = {};
  const container = store.container(CONTAINER);
  for await (const b of container.listBlobsFlat())
    blobs[b.name] = (await container.getBlobClient(b.name).downloadToBuffer()).toString();
  return { tables, blobs };
}
