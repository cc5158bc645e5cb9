/** Seed 001: employees keyed by padded id, with an email index in the same partition. */
import { paddedInt } from "../../keys/index.js";
import { defineModel, field } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { heading, readResult, storedKeys } from "./show.js";

export const Employee = defineModel({
  table: "DemoEmployees",
  entityType: "Employee",
  fields: {
    department: field.string(),
    id: field.int32(),
    email: field.string(),
    firstName: field.string(),
    lastName: field.string(),
  },
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("empid_").field("id", paddedInt({ max: 999999 })),
  indexes: (k) => ({ email: { rowKey: k.literal("email_").field("email") } }),
});

const PEOPLE = [
  { department: "Sales", id: 223, email: "jones@contoso.com", firstName: "Don", lastName: "Jones" },
  { department: "Sales", id: 15, email: "hall@contoso.com", firstName: "Ana", lastName: "Hall" },
  { department: "Sales", id: 1002, email: "adams@contoso.com", firstName: "Lee", lastName: "Adams" },
  { department: "Marketing", id: 7, email: "kim@contoso.com", firstName: "Min", lastName: "Kim" },
];

export async function employeesDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Entity model with an intra-partition secondary index",
    "seed 001",
    "Employees live in their department's partition under empid_<zero-padded id>, so 15 < 223 < 1002\nin key order. An email_<address> copy in the same partition is written in the same entity group\ntransaction, so a look-up by email is one point read and can never drift from the entity.",
  );
  const employees = Employee.on(store);
  await employees.ensureTable();
  for (const p of PEOPLE) await employees.create(p);
  await storedKeys(out, employees.table, (_, rk) =>
    rk.startsWith("email_") ? "email index copy" : "employee",
  );

  const byId = await employees.get({ department: "Sales", id: 223 });
  const byEmail = await employees.indexes.email.get({ department: "Sales", email: "hall@contoso.com" });
  readResult(
    out,
    "point reads: by id (Sales, 223) and by email (Sales, hall@contoso.com)",
    ["Read", "Name", "Id", "Email"],
    [
      ["by id", `${byId.firstName} ${byId.lastName}`, String(byId.id), byId.email],
      ["by email", `${byEmail.firstName} ${byEmail.lastName}`, String(byEmail.id), byEmail.email],
    ],
  );
  const sales = await employees.list({ department: "Sales" }).toArray();
  readResult(
    out,
    "every employee of Sales, in id order (one range query on empid_)",
    ["Id", "Name"],
    sales.map((e) => [String(e.id), `${e.firstName} ${e.lastName}`]),
  );
}
