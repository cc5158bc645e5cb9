import { TableKitError } from "../../model/index.js";
import type { StoredDeletion } from "./blob-backend.js";

/** The softDelete capability, or NotSupported naming the backend (docs/blobs.md#soft-delete). */
export function requireSoftDelete(capabilities: { softDelete: boolean; backend: string }): void {
  if (!capabilities.softDelete) {
    throw new TableKitError(
      "NotSupported",
      `${capabilities.backend} keeps no soft-deleted blobs: undelete and includeDeleted are not supported (docs/blobs.md#soft-delete)`,
    );
  }
}

/** A listed item's soft-delete fields as `@azure/storage-blob`'s BlobItem carries them. */
export function deletionFields(deleted: StoredDeletion | undefined): {
  item: { deleted?: true };
  properties: { deletedOn?: Date; remainingRetentionDays?: number };
} {
  if (!deleted) return { item: {}, properties: {} };
  return {
    item: { deleted: true },
    properties: { deletedOn: deleted.deletedOn, remainingRetentionDays: deleted.remainingRetentionDays },
  };
}
