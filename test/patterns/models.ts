/** The models the pattern suites use, after the seeds' examples. */
import { paddedInt } from "../../src/keys/index.js";
import { defineModel, field } from "../../src/patterns/index.js";

/** Seed 001's employee: department partition, `empid_000223` RowKey, `email_…` and a by-name index. */
export const Employee = defineModel({
  table: "Employees",
  entityType: "Employee",
  fields: {
    department: field.string(),
    id: field.int32(),
    email: field.string(),
    firstName: field.string(),
    lastName: field.string(),
    age: field.int32().optional(),
  },
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("empid_").field("id", paddedInt({ max: 999999 })),
  indexes: (k) => ({
    email: { rowKey: k.literal("email_").field("email"), include: ["firstName", "lastName"] },
    lastName: { rowKey: k.literal("name_").field("lastName"), unique: false },
  }),
});

/** Seed 004's locations: a hierarchical sort key queried at any level. */
export const Location = defineModel({
  table: "Locations",
  fields: {
    kind: field.string(),
    country: field.string(),
    region: field.string(),
    state: field.string(),
    city: field.string(),
    population: field.int64(),
  },
  partitionKey: (k) => k.field("kind"),
  rowKey: (k) => k.fields("country", "region", "state", "city"),
});

/** One field of each EDM type. */
export const Sample = defineModel({
  table: "Samples",
  fields: {
    group: field.string(),
    n: field.int32(),
    big: field.int64(),
    ratio: field.double(),
    flag: field.boolean(),
    at: field.dateTime(),
    uid: field.guid(),
    bytes: field.binary(),
    note: field.string().optional(),
  },
  partitionKey: (k) => k.field("group"),
  rowKey: (k) => k.field("n"),
});

/** A department entity in the employees' table, told apart by its `EntityType` property. */
export const Department = defineModel({
  table: "Employees",
  entityType: "Department",
  fields: { department: field.string(), departmentName: field.string(), employeeCount: field.int32() },
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("department"),
});

/** The seed's other option: the type as a RowKey prefix, no type property (`EMPLOYEE_000123`). */
export const PrefixedEmployee = defineModel({
  table: "People",
  entityType: "Employee",
  typeProperty: false,
  fields: { department: field.string(), id: field.int32(), name: field.string() },
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("EMPLOYEE_").field("id", paddedInt({ max: 999999 })),
});

/** `DEPARTMENT_SALES`. */
export const PrefixedDepartment = defineModel({
  table: "People",
  entityType: "Department",
  typeProperty: false,
  fields: { department: field.string(), code: field.string(), employeeCount: field.int32() },
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("DEPARTMENT_").field("code"),
});
