import { TableKitError } from "../../../model/index.js";
import type { BackendConditions } from "../../blobs/blob-backend.js";
import { checkLease } from "../../blobs/blob-leases.js";
import { type BlobRow, parseLease } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";

/**
 * The Blob service's answers to a conditional write: the lease codes (a leased blob needs its
 * lease id), 409 for `ifNoneMatch: "*"`, 412 for `ifMatch`.
 */
export function checkWrite(current: BlobRow | undefined, conditions: BackendConditions): void {
  checkLease(parseLease(current?.lease), conditions.leaseId, "write", Date.now());
  if (conditions.ifNoneMatch === "*" && current) {
    throw new TableKitError("BlobAlreadyExists", "The specified blob already exists.", {
      details: { blobName: current.name },
    });
  }
  const ifMatch = conditions.ifMatch;
  if (ifMatch !== undefined && (!current || (ifMatch !== "*" && ifMatch !== current.etag))) {
    throw conditionNotMet(current?.name);
  }
}

export function conditionNotMet(name: string | undefined): TableKitError {
  return new TableKitError(
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
    {
      details: { blobName: name },
    },
  );
}

export function containerNotFound(name: string): TableKitError {
  return new TableKitError("ContainerNotFound", "The specified container does not exist.", {
    details: { containerName: name },
  });
}

export function blobNotFound(container: string, name: string): TableKitError {
  return new TableKitError("BlobNotFound", "The specified blob does not exist.", {
    details: { containerName: container, blobName: name },
  });
}

/** The container's id and the blob's row (one statement), or ContainerNotFound. */
export function lookupBlob(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
): { container: number; row: BlobRow | undefined } {
  const found = host.catalogue.blobIn(containerName, name);
  if (!found) throw containerNotFound(containerName);
  return found;
}

/** The row to read (or, with `use` "write", to write), checked: BlobNotFound, the lease codes, a stale `ifMatch`, the tag conditions. */
export function checkRow(
  host: EmbeddedContainerHost,
  containerName: string,
  row: BlobRow | undefined,
  name: string,
  conditions: BackendConditions,
  use: "read" | "write" = "read",
): BlobRow {
  if (!row) {
    throw new TableKitError("BlobNotFound", "The specified blob does not exist.", {
      details: { containerName, blobName: name },
    });
  }
  checkLease(parseLease(row.lease), conditions.leaseId, use, Date.now());
  if (conditions.ifMatch !== undefined && conditions.ifMatch !== "*" && conditions.ifMatch !== row.etag) {
    throw conditionNotMet(name);
  }
  host.catalogue.annotations.checkTagConditions(row.container, name, true, conditions);
  return row;
}
