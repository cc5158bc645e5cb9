import { describe, expect, it } from "vitest";
import { defineEntityTypes } from "../../src/patterns/index.js";
import { expectCode } from "../support/expect-code.js";
import { Department, Employee, PrefixedDepartment, PrefixedEmployee } from "./models.js";
import type { PatternsRef } from "./target.js";

/** Heterogeneous entity types in one table (seed 001). */
export function mixedSuite(target: PatternsRef): void {
  describe("mixed entity types", () => {
    it("decodes each entity of a partition as its own type, by EntityType property", async () => {
      const table = await target().freshTable();
      const employees = Employee.on(table);
      await employees.create({
        department: "Sales",
        id: 1,
        email: "a@x",
        firstName: "Ann",
        lastName: "Lee",
        age: 30,
      });
      await employees.create({ department: "Sales", id: 2, email: "b@x", firstName: "Bob", lastName: "Lee" });
      await Department.on(table).create({ department: "Sales", departmentName: "Sales", employeeCount: 2 });
      expect((await table.getEntity("Sales", "department")).EntityType).toBe("Department");
      const org = defineEntityTypes(Employee, Department).on(table);
      const seen: string[] = [];
      for await (const e of org.list("Sales")) {
        if (e.entityType === "Employee") seen.push(`employee ${e.firstName}`);
        else seen.push(`department of ${e.employeeCount}`);
      }
      // Index copies (email_, name_) are not entities: they are skipped.
      expect(seen).toEqual(["department of 2", "employee Ann", "employee Bob"]);
      const dept = await org.get("Sales", "department");
      expect(dept.entityType).toBe("Department");
      await expectCode(org.get("Sales", "email_a@x"), "ResourceNotFound");
      // A model reads only its own entities, even when their keys share a range.
      expect(await Employee.on(table).list({ department: "Sales" }).toArray()).toHaveLength(2);
    });

    it("decodes by RowKey prefix when no type property is stored, and reports unknown entities", async () => {
      const table = await target().freshTable();
      await PrefixedEmployee.on(table).create({ department: "Sales", id: 123, name: "Jones" });
      await PrefixedDepartment.on(table).create({ department: "Sales", code: "SALES", employeeCount: 1 });
      expect((await table.getEntity("Sales", "EMPLOYEE_000123")).EntityType).toBeUndefined();
      const people = defineEntityTypes(PrefixedEmployee, PrefixedDepartment).on(table);
      const all = await people.list("Sales").toArray();
      expect(all.map((e) => e.entityType)).toEqual(["Department", "Employee"]);
      // The seed's range query: RowKey ge 'B' and RowKey le 'F' (here: lt 'F').
      expect(
        (await people.list("Sales", { rowKeys: { lower: "B", upper: "F" } }).toArray()).map(
          (e) => e.entityType,
        ),
      ).toEqual(["Department", "Employee"]);
      await table.createEntity({ partitionKey: "Sales", rowKey: "ZEBRA", stripes: 3 });
      await expectCode(people.list("Sales").toArray(), "InvalidValueType");
      expect(await people.list("Sales", { unknown: "skip" }).toArray()).toHaveLength(2);
    });

    it("refuses types it could not tell apart", () => {
      expect(() => defineEntityTypes(Employee, Employee)).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
      expect(() => defineEntityTypes(Employee, PrefixedEmployee)).toThrow(
        expect.objectContaining({ code: "InvalidInput" }),
      );
    });
  });
}
