import { AZURE_BLOB_RULES, type BlobCapabilities } from "../../blobs/blob-capabilities.js";

/** Where Azurite's blob service departs from the Blob service's documentation (docs/blobs.md). */
export const AZURITE_BLOB_DIVERGENCES: BlobCapabilities["divergences"] = [
  {
    id: "range-at-end",
    description:
      "A range starting at the blob's end (or any range of an empty blob) comes back as an empty 206 with a Content-Range like 'bytes 10-9/10'; the service answers 416 InvalidRange. Worked around: the backend answers InvalidRange.",
  },
  {
    id: "if-match-star-creates",
    description:
      "A write with ifMatch '*' to a missing blob creates it; the service answers 412 ConditionNotMet (If-Match: * requires an existing blob). Not worked around (a check before the write would race).",
  },
  {
    id: "names-in-utf16-order",
    description:
      "Listings order names by UTF-16 code units (astral characters before U+E000-U+FFFF), as JavaScript compares strings. Reported as nameOrder 'utf16'.",
  },
  {
    id: "metadata-case-in-listings",
    description:
      "Listings return metadata names in the case they were written, Get Blob Properties lower-cased. The port lower-cases them everywhere.",
  },
  {
    id: "snapshots-listed-after-blob",
    description:
      "A listing with snapshots lists a blob before its snapshots; the service lists the snapshots first, oldest first. Worked around within a page (the backend reorders it). A page that ends among a blob's snapshots resumes past the blob's name: its remaining snapshots are never listed. Not worked around.",
  },
  {
    id: "staged-blocks-outlive-delete",
    description:
      "After Delete Blob, Get Block List answers BlobNotFound but Put Block List still commits the deleted blob's uncommitted blocks; the service discards them with the blob. Not worked around.",
  },
];

/** The Blob service's rules, and Azurite's departures when talking to it. */
export function azureBlobCapabilities(emulator: boolean): BlobCapabilities {
  return Object.freeze({
    backend: "azure",
    ...AZURE_BLOB_RULES,
    // Azurite: UTF-16 order (observed). The service's own order for names beyond U+FFFF is not documented.
    nameOrder: emulator ? "utf16" : "utf8",
    persistent: true,
    // Copies go through the core (streamed), which records no x-ms-copy-* on Azure.
    copyProperties: false,
    divergences: emulator ? AZURITE_BLOB_DIVERGENCES : [],
  } satisfies BlobCapabilities);
}
