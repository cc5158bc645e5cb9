import { isTableKitError, TableKitError } from "../../model/index.js";

/** Refusals the blob clients share: a missing blob and a create-only token meeting a blob that exists. */

/** A create-only token (`c` without `w`) meeting a blob that exists: the permission it lacks. */
export function createOnlyRefusal(): TableKitError {
  return new TableKitError(
    "AuthorizationPermissionMismatch",
    "This token may create blobs that do not exist yet (c), not write one that exists (w).",
    { details: { operation: "writeBlob" } },
  );
}

/** Runs a create-only write: the blob being there already is the token's refusal, not a conflict. */
export async function asCreateOnly<T>(createOnly: boolean, write: Promise<T>): Promise<T> {
  if (!createOnly) return write;
  try {
    return await write;
  } catch (err) {
    if (isTableKitError(err, "BlobAlreadyExists") || isTableKitError(err, "ConditionNotMet")) {
      throw createOnlyRefusal();
    }
    throw err;
  }
}

export function blobNotFound(containerName: string, name: string): TableKitError {
  return new TableKitError("BlobNotFound", "The specified blob does not exist.", {
    details: { containerName, blobName: name },
  });
}
