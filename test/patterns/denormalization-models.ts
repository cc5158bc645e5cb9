/** The models of the denormalization suite (seed 001's department and its manager), shared with its worker process. */
import { defineDenormalization, defineModel, field } from "../../src/patterns/index.js";
import { Employee } from "./models.js";

const departmentFields = {
  department: field.string(),
  departmentName: field.string(),
  managerId: field.int32().optional(),
  managerFirstName: field.string().optional(),
  managerEmail: field.string().optional(),
};

/** Seed 001's department entity, in the employees' partition, holding a copy of its manager's details. */
export const Department = defineModel({
  table: "Employees",
  entityType: "Department",
  fields: departmentFields,
  partitionKey: (k) => k.field("department"),
  rowKey: (k) => k.literal("department"),
});

/** The same department kept in a partition of its own (another table): copies go through the queue. */
export const DepartmentApart = defineModel({
  table: "Departments",
  entityType: "Department",
  fields: departmentFields,
  partitionKey: (k) => k.literal("departments"),
  rowKey: (k) => k.field("department"),
});

export const link = { department: "department", managerId: "id" } as const;
export const copy = { managerFirstName: "firstName", managerEmail: "email" } as const;
export const ManagerCopy = defineDenormalization({
  name: "manager",
  source: Employee,
  target: Department,
  link,
  copy,
});
export const ManagerCopyApart = defineDenormalization({
  name: "managerApart",
  source: Employee,
  target: DepartmentApart,
  link,
  copy,
});
