import { AZURE_LIMITS, type Limits } from "../../model/index.js";
import type { BlobCapabilities } from "../blob-backend.js";
import type { Capabilities } from "../capabilities.js";

/** What the embedded engine does: the Azure rules, keys in UTF-16 order, pages per partition. */
export function embeddedCapabilities(options: { memory: boolean; limits?: Partial<Limits> }): Capabilities {
  return Object.freeze({
    backend: "embedded",
    limits: Object.freeze({ ...AZURE_LIMITS, ...options.limits }),
    keyOrder: "utf16",
    persistent: !options.memory,
    multiProcess: !options.memory,
    pageEndsAtPartitionBoundary: true,
    selectMissingAsNull: true,
    divergences: [],
  });
}

/** The Blob service's limits (docs/blobs.md), kept by the embedded engine exactly. */
export function embeddedBlobCapabilities(options: {
  memory: boolean;
  blobLimits?: Partial<BlobCapabilities>;
}): BlobCapabilities {
  return Object.freeze({
    backend: "embedded",
    maxContainerNameLength: 63,
    reservedContainerPrefixes: [],
    maxBlobNameLength: 1024,
    blobNameUnit: "utf16",
    maxMetadataBytes: 8 * 1024,
    // A block blob of 50,000 blocks of 4,000 MiB, as on Azure.
    maxBlobBytes: 50_000 * 4000 * 1024 * 1024,
    appendBlobs: true,
    maxAppendBlockBytes: 100 * 1024 * 1024,
    maxAppendBlocks: 50_000,
    conditionalWrites: true,
    maxListPageSize: 5000,
    nameOrder: "utf8",
    persistent: !options.memory,
    divergences: [],
    ...options.blobLimits,
  } satisfies BlobCapabilities);
}
