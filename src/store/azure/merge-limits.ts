import {
  checkEntityLimits,
  type Limits,
  mergeProperties,
  type NormalizedEntity,
  TableKitError,
} from "../../model/index.js";

/**
 * The limit a Merge would break: the stored entity overlaid by the new properties must still have
 * at most `maxProperties` properties and `maxEntityBytes` bytes. The service enforces this itself;
 * Azurite does not (Azurite #1446), so against Azurite the backend checks before it merges.
 */
export function mergeLimitError(
  stored: NormalizedEntity,
  update: NormalizedEntity,
  limits: Limits,
): TableKitError | undefined {
  const properties = mergeProperties(stored.properties, update.properties);
  try {
    checkEntityLimits(
      { partitionKey: update.partitionKey, rowKey: update.rowKey, properties },
      limits,
      "merged entity",
    );
    return undefined;
  } catch (err) {
    if (err instanceof TableKitError) return err;
    throw err;
  }
}
