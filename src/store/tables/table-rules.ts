import { type Limits, TableKitError } from "../../model/index.js";

/** The table port's own rules (entity rules are the model's: model/validate.ts). */
export function validateTableName(name: unknown, limits: Limits): string {
  if (typeof name !== "string" || !limits.tableNamePattern.test(name)) {
    throw new TableKitError(
      "InvalidResourceName",
      `Table name ${JSON.stringify(name)} is invalid: it must match ${limits.tableNamePattern}`,
      { details: { tableName: name } },
    );
  }
  if (limits.reservedTableNames.includes(name.toLowerCase())) {
    throw new TableKitError("InvalidResourceName", `Table name '${name}' is reserved`, {
      details: { tableName: name },
    });
  }
  return name;
}
