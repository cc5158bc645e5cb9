/**
 * Index entities (docs/patterns/index-entities.md): "all employees with last name Jones" answered
 * by the index entity's id list plus point reads, against the seed's alternative, a query over the
 * primaries with a filter on the last name (one partition for option 2, every partition for
 * option 3). Embedded engine (file:); the lists are built once, reads are measured.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { odata } from "../src/filter/index.js";
import { openStore } from "../src/index.js";
import { paddedInt } from "../src/keys/index.js";
import { defineIdListIndex, defineIndexEntities, defineModel, field } from "../src/patterns/index.js";
import { EntityIdLists } from "../src/patterns/index-entities/id-lists.js";
import { rounds, sized } from "./support/bench-mode.js";

const Employee = defineModel({
  table: "Employees",
  entityType: "Employee",
  fields: { department: field.string(), id: field.int32(), lastName: field.string(), bio: field.string() },
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("empid_").field("id", paddedInt({ max: 9999999 })),
});
const ByLastName = defineIndexEntities(Employee, {
  name: "byLastName",
  rowKey: (k) => k.literal("lastname_").field("lastName"),
});
const Apart = defineIdListIndex(Employee, {
  name: "lastNames",
  entities: {
    table: "EmployeeIndex",
    partitionKey: (k) => k.literal("lastname"),
    rowKey: (k) => k.field("lastName"),
  },
});

const DEPARTMENTS = sized(10, 2);
const PER_DEPARTMENT = sized(2000, 40);
const JONES_EVERY = 50; // 2% of employees are Joneses
const ROUNDS = rounds(20);

const dir = mkdtempSync(join(tmpdir(), "tablekit-bench-ixe-"));
try {
  const store = await openStore(`file:${join(dir, "ix.db")}`);
  const table = store.table("Employees");
  await table.createTable();
  await store.table("EmployeeIndex").createTable();
  const repo = ByLastName.on(store).repository;
  const everyJones: string[] = [];
  for (let d = 0; d < DEPARTMENTS; d++) {
    for (let i = 0; i < PER_DEPARTMENT; i++) {
      const lastName = i % JONES_EVERY === 0 ? "Jones" : `Name${i % 37}`;
      await repo.create({ department: `D${d}`, id: i, lastName, bio: "x".repeat(200) });
      if (lastName === "Jones")
        everyJones.push(
          Apart.idOf(`D${d}`, Employee.keys({ department: `D${d}`, id: i, lastName, bio: "" }).rowKey),
        );
    }
  }
  await new EntityIdLists(store, store.table("EmployeeIndex")).write(
    ["lastname", "Jones"],
    everyJones.sort(),
    undefined,
  );
  const inPartition = ByLastName.on(store);
  const apart = Apart.on(store);

  const time = async (work: () => Promise<number>) => {
    let found = 0;
    const started = performance.now();
    for (let r = 0; r < ROUNDS; r++) found = await work();
    return { ms: (performance.now() - started) / ROUNDS, found };
  };
  const scan = async (filter: string) => {
    let n = 0;
    for await (const _ of table.listEntities({ queryOptions: { filter } })) n++;
    return n;
  };
  const rows = [];
  const option2 = await time(
    async () => (await inPartition.lookup({ department: "D0", lastName: "Jones" })).length,
  );
  const partitionScan = await time(() =>
    scan(`${odata`PartitionKey eq ${"D0"}`} and ${odata`lastName eq ${"Jones"}`}`),
  );
  rows.push({
    case: "one department (option 2)",
    found: option2.found,
    "index ms": option2.ms.toFixed(2),
    "query ms": partitionScan.ms.toFixed(2),
    "query / index": `${(partitionScan.ms / option2.ms).toFixed(1)}x`,
  });
  const option3 = await time(async () => (await apart.lookup({ lastName: "Jones" })).length);
  const tableScan = await time(() => scan(odata`lastName eq ${"Jones"}`));
  rows.push({
    case: "every department (option 3)",
    found: option3.found,
    "index ms": option3.ms.toFixed(2),
    "query ms": tableScan.ms.toFixed(2),
    "query / index": `${(tableScan.ms / option3.ms).toFixed(1)}x`,
  });
  if (option2.found !== partitionScan.found || option3.found !== tableScan.found)
    throw new Error("index and query disagree");
  console.log(
    `\nIndex entities vs a filtered query — ${DEPARTMENTS} × ${PER_DEPARTMENT} employees, 1 in ${JONES_EVERY} a Jones, embedded (file:)`,
  );
  console.table(rows);
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
