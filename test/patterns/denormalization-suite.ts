import { describe, expect, it } from "vitest";
import { TableKitError } from "../../src/model/index.js";
import { defineDenormalization, SyncedRepository } from "../../src/patterns/index.js";
import { expectCode, listAll } from "../conformance/helpers.js";
import { createAndDie } from "./denormalization-crash.js";
import {
  copy,
  Department,
  DepartmentApart,
  link,
  ManagerCopy,
  ManagerCopyApart,
} from "./denormalization-models.js";
import { Employee } from "./models.js";
import { NO_QUEUE, withQueue } from "./queue-gate.js";
import { itWhen, type PatternsRef } from "./target.js";
import { freshTransactions } from "./world-helpers.js";

type EmployeeInput = Parameters<ReturnType<typeof Employee.on>["create"]>[0];

function employee(department: string, id: number, firstName: string): EmployeeInput {
  return { department, id, email: `${firstName.toLowerCase()}@contoso.com`, firstName, lastName: "Jones" };
}

const copyOf = (d: Record<string, unknown> | undefined) => [
  d?.managerId,
  d?.managerFirstName,
  d?.managerEmail,
];

/** Denormalization (seed 001): the department with its manager's details, answered by one point read. */
export function denormalizationSuite(target: PatternsRef): void {
  describe("denormalization", () => {
    it("in one partition: copies move in the transaction of the write that changes them", async () => {
      const table = await target().freshTable();
      const employees = Employee.on(table, { with: [ManagerCopy.companions.source] });
      const departments = Department.on(table, { with: [ManagerCopy.companions.target] });
      await employees.create(employee("Sales", 223, "John"));
      await employees.create(employee("Sales", 7, "Ann"));
      // The department is written with its manager's details copied in: one point read answers.
      const created = await departments.create({
        department: "Sales",
        departmentName: "Sales",
        managerId: 223,
      });
      expect(copyOf(created)).toEqual([223, "John", "john@contoso.com"]);
      expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([
        223,
        "John",
        "john@contoso.com",
      ]);
      // The manager's change updates the department in the same transaction; another employee's does not.
      await employees.patch({ department: "Sales", id: 223 }, { email: "j.jones@contoso.com" });
      const before = await departments.get({ department: "Sales" });
      await employees.patch({ department: "Sales", id: 7 }, { email: "ann.k@contoso.com" });
      expect((await departments.get({ department: "Sales" })).etag).toBe(before.etag);
      expect(copyOf(before)).toEqual([223, "John", "j.jones@contoso.com"]);
      // A new manager: the department's write copies from the new one.
      await departments.patch({ department: "Sales" }, { managerId: 7 });
      expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([7, "Ann", "ann.k@contoso.com"]);
      await employees.delete({ department: "Sales", id: 7 });
      expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([7, undefined, undefined]);
    });

    it("in one partition: a source and a target created at once, each reading the other as absent, converge", async () => {
      const table = await target().freshTable();
      // The first two reads (each create reading the other entity) wait for each other, so both
      // see the other absent before either commits: the interleaving a transaction cannot guard.
      let waiting: (() => void)[] = [];
      const racing = new Proxy(table, {
        get(t, name, receiver) {
          if (name !== "getEntity") {
            const value = Reflect.get(t, name, receiver);
            return typeof value === "function" ? value.bind(t) : value;
          }
          return async (...args: Parameters<typeof table.getEntity>) => {
            if (waiting.length < 2) {
              const bothRead = new Promise<void>((resolve) => waiting.push(resolve));
              if (waiting.length === 2) for (const release of waiting) release();
              try {
                return await t.getEntity(...args);
              } finally {
                await bothRead;
              }
            }
            return t.getEntity(...args);
          };
        },
      });
      const employees = Employee.on(racing, { with: [ManagerCopy.companions.source] });
      const departments = Department.on(racing, { with: [ManagerCopy.companions.target] });
      await Promise.all([
        employees.create(employee("Sales", 223, "John")),
        departments.create({ department: "Sales", departmentName: "Sales", managerId: 223 }),
      ]);
      waiting = [];
      const stored = await Department.on(table).get({ department: "Sales" });
      expect(copyOf(stored)).toEqual([223, "John", "john@contoso.com"]);
    });

    itWhen(
      target,
      withQueue,
      NO_QUEUE,
      "in one partition: a writer killed between its commit and its follow-up leaves the copy to the next worker, or writer",
      async () => {
        const table = await target().freshTable();
        const copies = ManagerCopy.on(target().store, { source: table, target: table });
        const transactions = await freshTransactions(target(), [copies.handler]);
        const departments = Department.on(table);
        // The race left the copy empty, and the writer that would have filled it died.
        await createAndDie(target(), table, transactions, employee("Sales", 223, "John"), 1);
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([223, undefined, undefined]);
        // The next worker: the follow-up the writer sent ahead of its commit comes out of hiding.
        expect(await transactions.worker().drain()).toMatchObject({ processed: 1, poisoned: 0 });
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([
          223,
          "John",
          "john@contoso.com",
        ]);
        // The same crash; then a writer changes the source side while a worker runs the follow-up.
        await createAndDie(target(), table, transactions, employee("Legal", 11, "Eve"), 1);
        const employees = Employee.on(table, { with: [ManagerCopy.companions.source] });
        const [stats] = await Promise.all([
          transactions.worker({ pollIntervalMs: 20 }).drain(),
          employees.patch({ department: "Legal", id: 11 }, { firstName: "Evelyn" }),
        ]);
        expect(stats).toMatchObject({ poisoned: 0 });
        expect(copyOf(await departments.get({ department: "Legal" }))).toEqual([
          11,
          "Evelyn",
          "eve@contoso.com",
        ]);
        // The same crash; this time a writer touches the department before a worker runs.
        await createAndDie(target(), table, transactions, employee("Marketing", 7, "Ann"), 60);
        const withCopies = Department.on(table, { with: [ManagerCopy.companions.target] });
        await withCopies.patch({ department: "Marketing" }, { departmentName: "Marketing & Sales" });
        expect(copyOf(await departments.get({ department: "Marketing" }))).toEqual([
          7,
          "Ann",
          "ann@contoso.com",
        ]);
        expect((await transactions.queue.getProperties()).approximateMessagesCount).toBe(1); // still hidden, harmless
        // A write whose follow-up ran cancels what it sent ahead: nothing left for a worker.
        const durable = ManagerCopy.companionsVia(transactions, { holdSeconds: 60 });
        await Department.on(table, { with: [durable.target] }).create({
          department: "Support",
          departmentName: "Support",
          managerId: 9,
        });
        expect((await transactions.queue.getProperties()).approximateMessagesCount).toBe(1);
        // Without the copy's handler, a queue cannot carry the follow-up: refused.
        const bare = await freshTransactions(target());
        expect(() => ManagerCopy.companionsVia(bare)).toThrow(
          expect.objectContaining({ code: "InvalidInput" }),
        );
      },
      60_000,
    );

    it("in one partition: a write over a source changed since its read fails whole, and retries", async () => {
      const table = await target().freshTable();
      const employees = Employee.on(table, { with: [ManagerCopy.companions.source] });
      const departments = Department.on(table, { with: [ManagerCopy.companions.target] });
      await employees.create(employee("Sales", 223, "John"));
      const values = { department: "Sales", departmentName: "Sales", managerId: 223 };
      const plan = await ManagerCopy.companions.target.prepare({
        table,
        partitionKey: "Sales",
        rowKey: "department",
        after: values,
        call: {},
      });
      expect(plan.after).toMatchObject({ managerFirstName: "John" });
      await employees.patch({ department: "Sales", id: 223 }, { firstName: "Johnny" });
      const entity = { partitionKey: "Sales", rowKey: "department", ...plan.after, EntityType: "Department" };
      await expectCode(
        table.submitTransaction([["create", entity as never], ...plan.actions]),
        "UpdateConditionNotSatisfied",
      );
      expect(await departments.find({ department: "Sales" })).toBeUndefined();
      // Racing writers of the manager and of the department: the copy ends as the manager's last state.
      await Promise.all([
        departments.create(values),
        employees.patch({ department: "Sales", id: 223 }, { firstName: "Jack" }),
        employees.patch({ department: "Sales", id: 223 }, { email: "jack@contoso.com" }),
      ]);
      expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([
        223,
        "Jack",
        "jack@contoso.com",
      ]);
    });

    itWhen(
      target,
      withQueue,
      NO_QUEUE,
      "across partitions: copies converge through the transaction queue",
      async () => {
        const { store } = target();
        const employeesTable = await target().freshTable();
        const departmentsTable = await target().freshTable();
        const copies = ManagerCopyApart.on(store, { source: employeesTable, target: departmentsTable });
        const transactions = await freshTransactions(target(), [copies.handler]);
        const employees = new SyncedRepository(
          Employee.on(employeesTable),
          transactions,
          [copies.fromSource],
          {
            holdSeconds: 1,
          },
        );
        const departments = new SyncedRepository(
          DepartmentApart.on(departmentsTable),
          transactions,
          [copies.fromTarget],
          { holdSeconds: 1 },
        );
        await employees.create(employee("Sales", 223, "John"));
        await departments.create({ department: "Sales", departmentName: "Sales", managerId: 223 });
        // Until the worker runs, the department has no copy yet.
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([223, undefined, undefined]);
        await transactions.worker().drain();
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([
          223,
          "John",
          "john@contoso.com",
        ]);
        await employees.patch({ department: "Sales", id: 223 }, { firstName: "Johnny" });
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([
          223,
          "John",
          "john@contoso.com",
        ]); // in between
        await transactions.worker().drain();
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([
          223,
          "Johnny",
          "john@contoso.com",
        ]);
        // Steps run again, late and out of order, leave the same copy.
        const change = {
          table: employeesTable.tableName,
          partitionKey: "Sales",
          rowKey: "empid_000223",
          before: employee("Sales", 223, "A"),
          after: employee("Sales", 223, "B"),
        };
        const sourceStep = copies.fromSource.stepFor(change)!;
        await transactions.enqueue([sourceStep]);
        await transactions.enqueue([sourceStep]);
        await transactions.worker().drain();
        const [stored] = await listAll(departmentsTable);
        expect([stored?.managerFirstName, stored?.managerEmail]).toEqual(["Johnny", "john@contoso.com"]);
        await employees.delete({ department: "Sales", id: 223 });
        await transactions.worker().drain();
        expect(copyOf(await departments.get({ department: "Sales" }))).toEqual([223, undefined, undefined]);
        expect(await transactions.poison.list()).toEqual([]);
      },
    );

    it("bad input is a typed error and writes nothing", async () => {
      const define = (more: object) => () =>
        defineDenormalization({
          name: "m",
          source: Employee,
          target: Department,
          link,
          copy,
          ...more,
        } as never);
      for (const bad of [
        { link: { managerId: "id" } }, // the source's partition key is not linked
        { copy: { departmentName: "firstName" } }, // a required field cannot be cleared
        { copy: { managerFirstName: "age" } }, // different types
        { copy: { managerFirstName: "nope" } },
        { name: "" },
      ]) {
        expect(define(bad)).toThrow(TableKitError);
        expect(define(bad)).toThrow(expect.objectContaining({ code: "InvalidInput" }));
      }
      // The in-partition companion refuses a source in another partition: nothing is written.
      const table = await target().freshTable();
      const departments = DepartmentApart.on(table, { with: [ManagerCopyApart.companions.target] });
      await expectCode(
        departments.create({ department: "Sales", departmentName: "Sales", managerId: 1 }),
        "InvalidInput",
      );
      expect(await listAll(table)).toEqual([]);
    });
  });
}
