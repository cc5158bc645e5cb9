import { entitySize, type Limits, type NormalizedEntity, TableKitError } from "../../model/index.js";

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
  const properties = new Map(stored.properties);
  for (const [name, value] of update.properties) properties.set(name, value);
  if (properties.size > limits.maxProperties) {
    return new TableKitError(
      "TooManyProperties",
      `The merged entity has ${properties.size} properties; the limit is ${limits.maxProperties}`,
      { details: { count: properties.size, limit: limits.maxProperties } },
    );
  }
  const size = entitySize({ partitionKey: update.partitionKey, rowKey: update.rowKey, properties });
  if (size > limits.maxEntityBytes) {
    return new TableKitError(
      "EntityTooLarge",
      `The merged entity is ${size} bytes; the limit is ${limits.maxEntityBytes}`,
      {
        details: { size, limit: limits.maxEntityBytes },
      },
    );
  }
  return undefined;
}
