/** The inter-partition indexes of the suites (and of the worker processes they start). */
import { defineInterPartitionIndex } from "../../src/patterns/index.js";
import { Employee } from "./models.js";

/** Seed 001's `email_Sales` / `jonesj@contoso.com` entries, in a table of their own. */
export const ByEmail = defineInterPartitionIndex(Employee, {
  name: "byEmail",
  table: "EmployeeEmails",
  partitionKey: (k) => k.literal("email_").field("department"),
  rowKey: (k) => k.field("email"),
  include: ["firstName", "lastName"],
});

/** Everyone named X across every department, in the employees' own table (other partitions). */
export const ByName = defineInterPartitionIndex(Employee, {
  name: "byName",
  partitionKey: (k) => k.literal("name_").field("lastName"),
  rowKey: (k) => k.field("firstName"),
});
