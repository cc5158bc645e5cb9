import type { StoredBlobProperties, StoredCopy } from "./blob-backend.js";
import type { BlobProperties } from "./blob-client-types.js";
import { headerProperties } from "./blob-headers.js";

/** A backend's stored blob properties under the SDK's names (`BlobProperties`). */

export function toProperties(stored: StoredBlobProperties): BlobProperties {
  return {
    etag: stored.etag,
    lastModified: stored.lastModified,
    contentLength: stored.contentLength,
    ...(stored.contentType === undefined ? {} : { contentType: stored.contentType }),
    ...headerProperties(stored.headers),
    metadata: { ...stored.metadata },
    blobType: stored.blobType,
    ...(stored.committedBlockCount === undefined
      ? {}
      : { blobCommittedBlockCount: stored.committedBlockCount }),
    ...(stored.createdOn === undefined ? {} : { createdOn: stored.createdOn }),
    ...(stored.lease === undefined
      ? {}
      : {
          leaseState: stored.lease.state,
          leaseStatus: stored.lease.status,
          ...(stored.lease.duration === undefined ? {} : { leaseDuration: stored.lease.duration }),
        }),
    ...tierProperties(stored),
    ...(stored.blobType === "AppendBlob" ? { isSealed: stored.sealed === true } : {}),
    ...(stored.sequenceNumber === undefined ? {} : { blobSequenceNumber: stored.sequenceNumber }),
    ...(stored.copy ? copyProperties(stored.copy) : {}),
  };
}

/** The tag count and tier fields a backend reported, under the SDK's names. */
export function tierProperties(
  stored: StoredBlobProperties,
): Pick<
  BlobProperties,
  | "tagCount"
  | "accessTier"
  | "accessTierInferred"
  | "accessTierChangedOn"
  | "archiveStatus"
  | "rehydratePriority"
> {
  return {
    ...(stored.tagCount ? { tagCount: stored.tagCount } : {}),
    ...(stored.accessTier === undefined ? {} : { accessTier: stored.accessTier }),
    ...(stored.accessTierInferred === undefined ? {} : { accessTierInferred: stored.accessTierInferred }),
    ...(stored.accessTierChangedOn === undefined ? {} : { accessTierChangedOn: stored.accessTierChangedOn }),
    ...(stored.archiveStatus === undefined ? {} : { archiveStatus: stored.archiveStatus }),
    ...(stored.rehydratePriority === undefined ? {} : { rehydratePriority: stored.rehydratePriority }),
  };
}

export function copyProperties(copy: StoredCopy): Partial<BlobProperties> {
  return {
    copyId: copy.id,
    copyStatus: copy.status,
    copySource: copy.source,
    copyProgress: copy.progress,
    ...(copy.completedOn ? { copyCompletedOn: copy.completedOn } : {}),
    ...(copy.incremental ? { isIncrementalCopy: true } : {}),
    ...(copy.destinationSnapshot ? { destinationSnapshot: copy.destinationSnapshot } : {}),
  };
}
