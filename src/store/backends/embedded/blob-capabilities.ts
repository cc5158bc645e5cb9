import { AZURE_BLOB_RULES, type BlobCapabilities } from "../../blobs/blob-capabilities.js";

/** The Blob service's limits (docs/blobs.md), kept by the embedded engine exactly. */
export function embeddedBlobCapabilities(memory: boolean): BlobCapabilities {
  return Object.freeze({
    backend: "embedded",
    ...AZURE_BLOB_RULES,
    nameOrder: "utf8",
    persistent: !memory,
    deletedNameHold: true, // tk_deleted_names, written with each delete
    nameMarkers: true, // blob-listing.ts and embedded-containers.ts resume after any name
    divergences: [],
  } satisfies BlobCapabilities);
}
