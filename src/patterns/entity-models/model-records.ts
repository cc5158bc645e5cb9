import {
  type EdmAnnotated,
  timestampOfEtag as etagTimestamp,
  ownValue,
  type TableEntityResult,
  TableKitError,
} from "../../model/index.js";
import { fromEntity, valuesOfProperties } from "../shared/schema/schema.js";
import type { CompiledModel } from "./define-model.js";

/**
 * The Timestamp an ETag carries. Every backend writes the service's ETag format
 * (`W/"datetime'…'"`, checked by the conformance suite), so a transaction's sub-response ETag
 * tells when the entity was written without another read.
 */
export function timestampOfEtag(etag: string): string {
  const timestamp = etagTimestamp(etag);
  if (!timestamp)
    throw new TableKitError("BackendError", `Unexpected ETag format: ${etag}`, { details: { etag } });
  return timestamp.toISOString();
}

/** The record a write returns, from the values it sent (no read needed). */
export function recordFromWrite(
  model: CompiledModel,
  properties: Readonly<Record<string, EdmAnnotated>>,
  etag: string,
  timestamp?: string,
): Record<string, unknown> {
  const out = valuesOfProperties(properties);
  out.etag = etag;
  out.timestamp = timestamp ?? timestampOfEtag(etag);
  if (model.entityType !== undefined) out.entityType = model.entityType;
  return out;
}

/** The record of a stored entity; `names` limits it to the fields an index copy holds. */
export function recordFromEntity(
  model: CompiledModel,
  entity: TableEntityResult,
  names?: Iterable<string>,
): Record<string, unknown> {
  const out = fromEntity(model.fields, entity, names);
  out.etag = entity.etag;
  out.timestamp = entity.timestamp;
  if (model.entityType !== undefined) out.entityType = model.entityType;
  return out;
}

/** True when a stored entity's type property (if the model has one) names this model. */
export function isOfType(model: CompiledModel, entity: Record<string, unknown>): boolean {
  return model.typeProperty === undefined || ownValue(entity, model.typeProperty) === model.entityType;
}
