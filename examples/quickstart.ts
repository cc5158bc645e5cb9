/**
 * The main job until the CLI lands: real work on an embedded `file:` store, printed as it happens.
 * Run with `npm run example` (or `npx tsx examples/quickstart.ts [file:PATH]`).
 */
import { mkdirSync } from "node:fs";
import { DateTime, isTableKitError, odata, openStore } from "../src/index.js";

const url = process.argv[2] ?? "file:./.tmp/quickstart.db";
if (url.startsWith("file:")) mkdirSync("./.tmp", { recursive: true });
const store = await openStore(url);
const log = (label: string, detail: unknown = "") => console.log(`• ${label}`, detail);

const table = store.table("Expenses");
await table.deleteTable().catch((err) => {
  if (!isTableKitError(err, "TableNotFound")) throw err;
});
await table.createTable();
log(`created table Expenses in ${store.url} (backend: ${store.capabilities.backend})`);

// Zero-padded row keys so claims sort numerically, one partition per employee.
const employees = ["alice", "bob", "carol"];
for (const employee of employees) {
  for (let n = 1; n <= 12; n++) {
    await table.createEntity({
      partitionKey: employee,
      rowKey: String(n).padStart(6, "0"),
      amount: { value: n * 10, type: "Double" },
      approved: n % 3 === 0,
      submitted: DateTime.parse(`2026-11-${String(n).padStart(2, "0")}T09:30:00.1234567Z`),
      receipts: BigInt(n) * 1_000_000_000_000n,
    });
  }
}
log(`inserted ${employees.length * 12} claims`);

const approved: string[] = [];
for await (const e of table.listEntities({
  queryOptions: {
    filter: odata`PartitionKey eq ${"bob"} and approved eq ${true}`,
    select: ["RowKey", "amount"],
  },
})) {
  const amount = e.amount as { value: number } | number;
  approved.push(`${e.rowKey}: ${typeof amount === "number" ? amount : amount.value}`);
}
log("bob's approved claims (filtered, selected):", approved.join(", "));

let pages = 0;
let seen = 0;
let token: string | undefined;
do {
  const page = await table.listEntities().byPage({ maxPageSize: 5, continuationToken: token }).next();
  if (page.done) break;
  pages++;
  seen += page.value.length;
  token = page.value.continuationToken;
} while (token);
log(`paged through ${seen} claims in ${pages} pages of at most 5 (a page never spans two employees)`);

const tx = await table.submitTransaction([
  ["create", { partitionKey: "alice", rowKey: "000013", amount: { value: 130, type: "Double" } }],
  ["update", { partitionKey: "alice", rowKey: "000001", approved: true }, "Merge"],
  ["delete", { partitionKey: "alice", rowKey: "000002" }],
]);
log(`transaction committed ${tx.subResponses.length} actions atomically, status ${tx.status}`);

try {
  await table.submitTransaction([
    ["create", { partitionKey: "alice", rowKey: "000014" }],
    ["create", { partitionKey: "alice", rowKey: "000013" }],
  ]);
} catch (err) {
  if (!isTableKitError(err, "EntityAlreadyExists")) throw err;
  const untouched = await table.getEntity("alice", "000014").then(
    () => "written",
    () => "not written",
  );
  log(`a failing transaction rolled back: ${err.code} at action ${err.index}; row 000014 ${untouched}`);
}

const claim = await table.getEntity("carol", "000003");
await table.updateEntity({ partitionKey: "carol", rowKey: "000003", approved: false }, "Merge", {
  etag: claim.etag,
});
try {
  await table.updateEntity({ partitionKey: "carol", rowKey: "000003", approved: true }, "Merge", {
    etag: claim.etag,
  });
} catch (err) {
  if (!isTableKitError(err, "UpdateConditionNotSatisfied")) throw err;
  log(`a stale ETag was refused: ${err.code} (HTTP ${err.status})`);
}

const latest = await table.getEntity("carol", "000003");
log("carol's claim 3 now:", {
  approved: latest.approved,
  submitted: String(latest.submitted),
  receipts: String(latest.receipts),
  etag: latest.etag,
});
await store.close();
