import { describe, expect, it } from "vitest";
import { isTableKitError } from "../../src/index.js";
import { SyncedRepository } from "../../src/patterns/index.js";
import { listAll } from "../conformance/helpers.js";
import { type CrashingWorkers, crashingInProcess, crashingProcesses } from "./crashing-workers.js";
import { ByEmail, ByName } from "./cross-index-models.js";
import { Employee } from "./models.js";
import { type PatternsRef, seededRandom } from "./target.js";
import { freshTransactions } from "./world-helpers.js";

type EmployeeInput = Parameters<ReturnType<typeof Employee.on>["create"]>[0];

function employee(department: string, id: number, more: Partial<EmployeeInput> = {}): EmployeeInput {
  return { department, id, email: `e${id}@contoso.com`, firstName: `F${id}`, lastName: "Jones", ...more };
}

/** Fresh tables for the employees and the email entries, a transaction queue with both handlers, the writer. */
async function setup(target: PatternsRef) {
  const employees = await target().freshTable();
  const emails = await target().freshTable();
  const transactions = await freshTransactions(target(), [ByEmail.handler, ByName.handler]);
  const byEmail = ByEmail.on(target().store, { primary: employees, index: emails });
  const byName = ByName.on(target().store, { primary: employees });
  const repo = new SyncedRepository(Employee.on(employees), transactions, [byEmail, byName], {
    holdSeconds: 1,
  });
  return { employees, emails, transactions, repo, byEmail, byName };
}

const ids = (records: readonly { id: number }[]) => records.map((r) => r.id).sort((a, b) => a - b);

/** The inter-partition secondary index pattern (seed 001). */
export function crossIndexSuite(target: PatternsRef): void {
  describe("inter-partition secondary index", () => {
    it("writes entries in other partitions through the queue; look-ups drop stale hits", async () => {
      const { emails, employees, transactions, repo, byEmail, byName } = await setup(target);
      await repo.create(employee("Sales", 223, { email: "jonesj@contoso.com", firstName: "John" }));
      await repo.create(employee("Marketing", 7, { firstName: "Ann" }));
      // Before the worker runs, the entries do not exist yet: look-ups find nothing.
      expect(await byEmail.lookup({ department: "Sales", email: "jonesj@contoso.com" })).toEqual([]);
      await transactions.worker().drain();
      expect((await listAll(emails)).map((e) => [e.partitionKey, e.rowKey])).toEqual([
        ["email_Marketing", "e7:40contoso.2ecom!000007!"],
        ["email_Sales", "jonesj:40contoso.2ecom!000223!"], // compound keys escape what would break their order
      ]);
      const entry = await emails.getEntity("email_Sales", "jonesj:40contoso.2ecom!000223!");
      expect(entry).toMatchObject({
        department: "Sales",
        id: 223,
        email: "jonesj@contoso.com",
        firstName: "John",
      });
      expect(entry.age).toBeUndefined(); // not included
      const john = await byEmail.find({ department: "Sales", email: "jonesj@contoso.com" });
      expect(john).toMatchObject({ id: 223, firstName: "John", entityType: "Employee" });
      expect(ids(await byName.lookup({ lastName: "Jones" }))).toEqual([7, 223]);
      expect(ids(await byName.lookup({ lastName: "Jones", firstName: "Ann" }))).toEqual([7]);
      expect(ids(await byEmail.lookup({ department: "Sales" }, { startsWith: "jones" }))).toEqual([223]);
      expect((await listAll(employees, "PartitionKey eq 'name_Jones'")).map((e) => e.rowKey)).toEqual([
        "Ann!Marketing!000007!",
        "John!Sales!000223!",
      ]);

      // A change: the old entry stays until the worker runs, but a look-up checks the primary.
      await repo.patch({ department: "Sales", id: 223 }, { email: "john@contoso.com", lastName: "Smith" });
      expect(
        await byEmail.entries({ department: "Sales", email: "jonesj@contoso.com" }).toArray(),
      ).toHaveLength(1);
      expect(await byEmail.lookup({ department: "Sales", email: "jonesj@contoso.com" })).toEqual([]);
      expect(ids(await byName.lookup({ lastName: "Jones" }))).toEqual([7]);
      await transactions.worker().drain();
      expect(await byEmail.entries({ department: "Sales", email: "jonesj@contoso.com" }).toArray()).toEqual(
        [],
      );
      expect(await byEmail.find({ department: "Sales", email: "john@contoso.com" })).toMatchObject({
        lastName: "Smith",
      });
      expect(ids(await byName.lookup({ lastName: "Smith" }))).toEqual([223]);

      await repo.delete({ department: "Marketing", id: 7 });
      await transactions.worker().drain();
      expect(await byName.entries({ lastName: "Jones" }).toArray()).toEqual([]);
      expect(await byEmail.verify()).toMatchObject({
        primaries: 1,
        entries: 1,
        missing: 0,
        stale: 0,
        outdated: 0,
      });
      expect(await byName.verify()).toMatchObject({
        primaries: 1,
        entries: 1,
        missing: 0,
        stale: 0,
        outdated: 0,
      });
    });

    it("verify finds missing, stale and outdated entries in bounded memory; repair fixes them", async () => {
      const { emails, transactions, repo, byEmail } = await setup(target);
      for (let id = 1; id <= 12; id++) await repo.create(employee(id % 2 ? "Sales" : "Ops", id));
      await transactions.worker().drain();
      // Drift, written around the index: one entry gone, one left behind, one holding old values.
      const [pk1, rk1] = ByEmail.keyOf(employee("Sales", 1));
      await emails.deleteEntity(pk1, rk1);
      await emails.upsertEntity(ByEmail.entryOf(employee("Sales", 99, { email: "gone@contoso.com" })));
      const [pk2, rk2] = ByEmail.keyOf(employee("Ops", 2));
      await emails.updateEntity({ partitionKey: pk2, rowKey: rk2, firstName: "Old" }, "Merge");
      // Runs of 3 expected entries: the sort spills to temporary files and merges them.
      const report = await byEmail.verify({ runSize: 3 });
      expect(report).toMatchObject({
        primaries: 12,
        entries: 12,
        missing: 1,
        stale: 1,
        outdated: 1,
        repaired: 0,
      });
      expect(report.spilledRuns).toBe(4);
      expect(report.samples).toEqual([
        "outdated: email_Ops/e2:40contoso.2ecom!000002! (primary Ops/empid_000002)",
        "missing: email_Sales/e1:40contoso.2ecom!000001! (primary Sales/empid_000001)",
        "stale: email_Sales/gone:40contoso.2ecom!000099! (primary Sales/empid_000099)",
      ]);
      expect(await byEmail.verify({ repair: true, runSize: 5 })).toMatchObject({
        missing: 1,
        stale: 1,
        outdated: 1,
        repaired: 3,
      });
      expect(await byEmail.verify()).toMatchObject({
        primaries: 12,
        entries: 12,
        missing: 0,
        stale: 0,
        outdated: 0,
      });
    });

    it("converges after a randomized run (2,000 operations on embedded file:, 60 elsewhere) with SIGKILLed worker processes and writer crashes: zero drift, look-ups agree with a scan", async () => {
      const seed = Number(process.env.TABLEKIT_SEED ?? Date.now() % 2 ** 31);
      const random = seededRandom(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const { employees, transactions, repo, byEmail, byName } = await setup(target);
      const operations = Number(process.env.TABLEKIT_INDEX_OPS ?? target().randomOperations ?? 60);
      const departments = ["Sales", "Ops", "Dev"];
      const firstNames = ["Ann", "Bo", "Cy"];
      const lastNames = ["Jones", "Lee", "Kim", "Diaz"];
      const crashes = { writer: 0 };
      // Workers that crash now and then (separate processes SIGKILLed at random step boundaries
      // where the store is shared between processes), each replaced by a new one.
      const sharedUrl = target().sharedUrl;
      // Some 3.5 step boundaries per operation (2 at the least); a worker dies at one of the
      // killAfter/2..killAfter-th: a dozen crashes at 2,000 operations, a few (at least one) at 60.
      const killAfter = Math.round((2 * operations) / (operations >= 1000 ? 5 : 3));
      const workers: CrashingWorkers =
        sharedUrl !== undefined && target().store.capabilities.multiProcess
          ? crashingProcesses(sharedUrl, transactions, killAfter)
          : crashingInProcess(transactions, random, killAfter);
      const write = async (): Promise<void> => {
        const department = pick(departments);
        const id = 1 + Math.floor(random() * 30);
        const values = employee(department, id, {
          email: `${pick(["a", "b", "c", "d"])}${id}@x`,
          firstName: pick(firstNames),
          lastName: pick(lastNames),
        });
        const key = { department, id };
        const kind = pick(["create", "create", "update", "patch", "patch", "delete", "crash"] as const);
        if (kind === "crash") {
          // A writer that dies after sending its transaction hidden: before its write, or after
          // it and before the release. Either way the transaction comes out after the hold.
          crashes.writer++;
          const before = await repo.find(key);
          const change = {
            table: employees.tableName,
            partitionKey: department,
            rowKey: Employee.keys(values).rowKey,
            ...(before ? { before } : {}),
            after: values,
          };
          const steps = [byEmail.stepFor(change), byName.stepFor(change)].filter((s) => s !== undefined);
          if (steps.length > 0) await transactions.begin(steps, { holdSeconds: 1 });
          if (random() < 0.5) return;
          const plain = repo.repository;
          await (before ? plain.update(values, { etag: before.etag }) : plain.create(values));
          return;
        }
        if (kind === "create") await repo.create(values);
        else if (kind === "update") await repo.update(values);
        else if (kind === "patch")
          await repo.patch(
            key,
            random() < 0.5
              ? { email: values.email }
              : { lastName: values.lastName, firstName: values.firstName },
          );
        else await repo.delete(key);
      };
      const tolerated = ["EntityAlreadyExists", "ResourceNotFound", "UpdateConditionNotSatisfied"] as const;
      for (let i = 0; i < operations; i += 3) {
        const results = await Promise.allSettled([write(), write(), write()]);
        for (const r of results) {
          if (r.status === "rejected" && !isTableKitError(r.reason, ...tolerated))
            throw new Error(`seed ${seed}: ${String(r.reason)}`, { cause: r.reason });
        }
      }
      // The crashing workers drain the queue (writers' held transactions included), then a clean one checks.
      const deadline = Date.now() + 240_000;
      while ((await transactions.queue.getProperties()).approximateMessagesCount > 0) {
        if (Date.now() > deadline)
          throw new Error(`seed ${seed}: the crashing workers did not drain the queue`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await workers.stop();
      await transactions
        .worker({ concurrency: 4, visibilityTimeout: 1, retryDelay: 0 })
        .drain({ timeoutMs: 120_000 });
      expect(await transactions.poison.list(), `seed ${seed}`).toEqual([]);
      const drift = { missing: 0, stale: 0, outdated: 0 };
      expect(await byEmail.verify({ runSize: 50 }), `seed ${seed}`).toMatchObject(drift);
      expect(await byName.verify({ runSize: 50 }), `seed ${seed}`).toMatchObject(drift);
      // Every look-up agrees with a scan of the primaries.
      const primaries = (await listAll(employees, "EntityType eq 'Employee'")).filter((e) =>
        String(e.rowKey).startsWith("empid_"),
      );
      for (const department of departments) {
        for (const letter of ["a", "b", "c", "d"]) {
          const scan = primaries.filter(
            (p) => p.department === department && String(p.email).startsWith(letter),
          );
          const found = await byEmail.lookup({ department }, { startsWith: letter });
          expect(ids(found), `seed ${seed}: ${department} ${letter}`).toEqual(ids(scan as never));
        }
      }
      for (const lastName of lastNames) {
        const scan = primaries.filter((p) => p.lastName === lastName);
        expect(ids(await byName.lookup({ lastName })), `seed ${seed}: ${lastName}`).toEqual(
          ids(scan as never),
        );
      }
      expect(workers.crashes, `seed ${seed}`).toBeGreaterThan(0);
      expect(crashes.writer, `seed ${seed}`).toBeGreaterThan(0);
      console.log(
        `index convergence (${target().name}, seed ${seed}): ${operations} operations, ${workers.crashes} worker crashes (${workers.kind}), ${crashes.writer} writer crashes`,
      );
    }, 400_000);
  });
}
