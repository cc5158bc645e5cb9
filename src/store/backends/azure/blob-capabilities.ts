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
    id: "append-blob-download-md5",
    description:
      "Get Blob of a whole append blob answers a Content-MD5 of its bytes; the service keeps and answers one only when it was given (an append blob has none of its own). Not worked around.",
  },
  {
    id: "creation-time-reset-on-overwrite",
    description:
      "Put Blob over an existing blob resets x-ms-creation-time; the service keeps the time the blob was first created. Not worked around.",
  },
  {
    id: "lease-codes-without-lease",
    description:
      "Renew or release where there is no lease answers LeaseIdMismatchWithLeaseOperation; the service's code for a lease operation with no lease is LeaseNotPresentWithLeaseOperation. Not worked around.",
  },
  {
    id: "tag-empty-value-refused",
    description:
      "Set Blob Tags refuses a tag whose value is empty (400 without a code); the service takes values of 0 to 256 characters. Not worked around.",
  },
  {
    id: "set-tags-ignores-if-tags",
    description:
      "Set Blob Tags ignores x-ms-if-tags (the tags are replaced whatever they were); the service answers 412. Not worked around.",
  },
  {
    id: "archived-blob-not-overwritten",
    description:
      "Put Blob and Put Block List over a blob in the Archive tier answer 409 BlobArchived; the service overwrites it (a new blob, on the default tier). Not worked around.",
  },
  {
    id: "find-by-tags-pages-skip",
    description:
      "Find Blobs by Tags on the account limits each page before filtering and marks pages by blob name alone: with maxresults, a page can come back empty without a marker while blobs match, and blobs of one name in two containers are skipped. A container's search is exact.",
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
  {
    id: "page-sequence-conditions-ignored",
    description:
      "Put Page ignores x-ms-if-sequence-number-le/lt/eq: the write happens whatever the sequence number; the service answers 412 SequenceNumberConditionNotMet. Not worked around (a check before the write would race).",
  },
  {
    id: "page-write-past-end",
    description:
      "Put Page accepts a range that starts inside the blob and ends past its size; the service answers 416 InvalidPageRange. Its 416s carry the code 'Requested Range Not Satisfiable': the backend reports them as InvalidPageRange. Not worked around otherwise.",
  },
  {
    id: "no-soft-delete",
    description:
      "Keeps a DeleteRetentionPolicy in the service properties but deletes for good: include=deleted lists nothing and Undelete Blob answers 501 (observed on 3.x). Reported as softDelete: false; the service keeps soft-deleted blobs for the retention days.",
  },
  {
    id: "page-ranges-diff-lists-unchanged",
    description:
      "Get Page Ranges with prevsnapshot lists ranges written before that snapshot and unchanged since as changed too; the service lists only the pages written or cleared since. Not worked around.",
  },
  {
    id: "seal-ignores-append-position",
    description:
      "Seal Blob ignores x-ms-blob-condition-appendpos; the service answers 412 AppendPositionConditionNotMet when the blob's length differs. Not worked around.",
  },
];

/** Where the Node SDK this backend goes through departs, whatever service it talks to. */
export const SDK_BLOB_DIVERGENCES: BlobCapabilities["divergences"] = [
  {
    id: "empty-metadata-dropped",
    description:
      "A metadata value that is empty is sent, and kept by the service (and tablekit serve), but the Node SDK's HTTP client drops empty response headers: reads report the name missing. Not worked around.",
  },
];

/** The Blob service's rules, and Azurite's departures when talking to it. */
export function azureBlobCapabilities(emulator: boolean): BlobCapabilities {
  return Object.freeze({
    backend: "azure",
    ...AZURE_BLOB_RULES,
    // Azurite: UTF-16 order (observed). The service's own order for names beyond U+FFFF is not documented.
    nameOrder: emulator ? "utf16" : "utf8",
    // The SDK reads metadata from response headers, which Node hands over lower-cased.
    metadataKeepsCase: false,
    persistent: true,
    // Copies go through the core (streamed), which records no x-ms-copy-* on Azure.
    copyProperties: false,
    copyFromArchive: false,
    // Streamed copies are Put Blob: a page blob's copy is a block blob.
    copiesPageBlobs: false,
    // Not mapped to the SDK's startCopyIncremental (Azurite does not serve it).
    incrementalCopy: false,
    // Azure itself answers ContainerBeingDeleted for about 30 s; the store option has no place to keep times.
    deletedNameHold: false,
    nameMarkers: false,
    // Azurite deletes for good (divergence no-soft-delete); the service keeps soft-deleted blobs.
    softDelete: !emulator,
    divergences: emulator ? [...AZURITE_BLOB_DIVERGENCES, ...SDK_BLOB_DIVERGENCES] : SDK_BLOB_DIVERGENCES,
  } satisfies BlobCapabilities);
}
