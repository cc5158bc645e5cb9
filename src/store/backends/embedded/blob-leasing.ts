import type {
  BackendLeaseResult,
  BackendSetProperties,
  BackendWriteResult,
} from "../../blobs/blob-backend.js";
import { applyLease, type LeaseAction } from "../../blobs/blob-leases.js";
import { newEtag, parseLease, propertiesOf } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { blobNotFound, checkWrite, containerNotFound } from "./blob-write-checks.js";

/**
 * Set Blob Properties / Metadata and leases on the embedded engine: each one short IMMEDIATE
 * transaction that reads the row, checks the lease and conditions, and updates the row in place
 * (the bytes and block list untouched). Leases are stored as times (blob-leases.ts), never timers.
 */

export function setBlobProperties(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  change: BackendSetProperties,
): BackendWriteResult {
  const { catalogue } = host;
  return host.immediate(() => {
    const found = catalogue.blobIn(containerName, name);
    if (!found) throw containerNotFound(containerName);
    const row = found.row;
    if (!row) throw blobNotFound(containerName, name);
    checkWrite(row, change.conditions);
    catalogue.annotations.checkTagConditions(row.container, name, true, change.conditions);
    // An archived blob's properties and metadata stay as they are until it is rehydrated.
    catalogue.annotations.checkOnline(row.container, name);
    const etag = newEtag();
    const modified = Date.now();
    if (change.kind === "headers")
      catalogue.setHeaders(row, change.contentType, change.headers, etag, modified);
    else catalogue.setMetadata(row, change.metadata, etag, modified);
    return { etag, lastModified: propertiesOf({ ...row, modified }).lastModified };
  });
}

/** A lease operation on a blob, or on the container itself when `blob` is undefined. */
export function leaseOperation(
  host: EmbeddedContainerHost,
  containerName: string,
  blob: string | undefined,
  action: LeaseAction,
): BackendLeaseResult {
  const { catalogue } = host;
  return host.immediate(() => {
    const now = Date.now();
    if (blob === undefined) {
      const container = catalogue.containerLease(containerName);
      if (!container) throw containerNotFound(containerName);
      const { lease, outcome } = applyLease(container.lease, action, now, container.modified);
      catalogue.setContainerLease(container.id, lease);
      const lastModified = catalogue.container(containerName)!.lastModified;
      return { ...outcome, etag: container.etag, lastModified };
    }
    const found = catalogue.blobIn(containerName, blob);
    if (!found) throw containerNotFound(containerName);
    const row = found.row;
    if (!row) throw blobNotFound(containerName, blob);
    const { lease, outcome } = applyLease(parseLease(row.lease), action, now, row.modified);
    catalogue.setBlobLease(found.container, blob, lease);
    return { ...outcome, etag: row.etag, lastModified: propertiesOf(row).lastModified };
  });
}
