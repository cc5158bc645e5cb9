import {
  type Limits,
  type NormalizedEntity,
  normalizeEntity,
  plainEntity,
  TableKitError,
} from "../../model/index.js";

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

/**
 * An entity a table has checked against its backend's rules (`Table.checkEntity`): its keys and its
 * typed properties. Any write or transaction action of a table with the same rules takes it as is,
 * without checking it again; a table with other rules (another backend) checks it afresh.
 */
export interface CheckedEntity extends NormalizedEntity {
  readonly [checkedBrand]: true;
}

declare const checkedBrand: unique symbol;

/** The rules each checked entity was checked against (a limits object is shared by a store's tables). */
const checkedUnder = new WeakMap<object, Limits>();

/** Normalizes and validates an entity once; the result is a CheckedEntity. */
export function checkEntity(entity: unknown, limits: Limits): CheckedEntity {
  const checked = normalizeEntity(entity, limits) as CheckedEntity;
  checkedUnder.set(checked, limits);
  return checked;
}

/** The normalized form of what a caller handed a write: a CheckedEntity under these rules as is, else checked now. */
export function entityForWrite(entity: unknown, limits: Limits): NormalizedEntity {
  if (typeof entity === "object" && entity !== null) {
    const under = checkedUnder.get(entity);
    if (under === limits) return entity as NormalizedEntity;
    if (under) return normalizeEntity(plainEntity(entity as NormalizedEntity), limits);
  }
  return normalizeEntity(entity, limits);
}
