import { TableKitError } from "../../../model/index.js";
import type { BackendConditions, BackendTierChange } from "../../blobs/blob-backend.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { snapshotTagsOf } from "./blob-snapshot-ops.js";
import { checkRow, lookupBlob } from "./blob-write-checks.js";

/** Get and Set Blob Tags and Set Blob Tier on the catalogue's annotations, checked as reads and writes are. */

export function getBlobTags(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  conditions: BackendConditions,
  snapshot?: string,
): BlobTags {
  if (snapshot !== undefined) return snapshotTagsOf(host, containerName, name, snapshot, conditions);
  return host.guard(() => {
    const row = checkRow(host, containerName, lookupBlob(host, containerName, name).row, name, conditions);
    return host.catalogue.annotations.tags(row.container, name);
  });
}

export function setBlobTags(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  tags: BlobTags,
  conditions: BackendConditions,
): void {
  host.immediate(() => {
    // A write as leases go: a leased blob's tags change only with its lease id (Set Blob Tags).
    const row = checkRow(
      host,
      containerName,
      lookupBlob(host, containerName, name).row,
      name,
      conditions,
      "write",
    );
    host.catalogue.annotations.setTags(row.container, name, tags);
  });
}

/**
 * Set Blob Tier. Leaving Archive rehydrates at once (202, as the service answers a rehydration it
 * starts): the embedded engine has no slow storage to wait for (docs/blobs.md#access-tiers).
 */
export function setBlobTier(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  change: BackendTierChange,
  conditions: BackendConditions,
): { status: 200 | 202 } {
  return host.immediate(() => {
    const row = checkRow(host, containerName, lookupBlob(host, containerName, name).row, name, conditions);
    if (row.type !== "BlockBlob") {
      throw new TableKitError(
        "AccessTierNotSupportedForBlobType",
        "The access tier is not supported for this blob type.",
        { details: { blobName: name, blobType: row.type } },
      );
    }
    const annotations = host.catalogue.annotations;
    const was = annotations.tier(row.container, name)?.tier ?? "Hot";
    if (was === change.tier) return { status: 200 };
    annotations.setTier(row.container, name, change.tier, Date.now());
    return { status: was === "Archive" ? 202 : 200 };
  });
}
