import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";

/** Where s3rver (the local S3 server the tests run) departs from S3's documentation. */
export const S3RVER_DIVERGENCES: BlobCapabilities["divergences"] = [
  {
    id: "no-conditional-writes",
    description:
      "PUT and DELETE ignore If-Match and If-None-Match: * (S3 honours them since 2024), so a conditional write silently overwrites. Reported as conditionalWrites: false: the core refuses conditional writes (NotSupported).",
  },
  {
    id: "no-conditional-reads",
    description: "GET and HEAD ignore If-Match. Worked around: the backend compares the ETag it gets back.",
  },
  {
    id: "delimiter-listing",
    description:
      "ListObjectsV2 with a delimiter reports a virtual directory only when it directly holds an object (it walks its directory tree and prunes deeper ones), returns more than MaxKeys items and repeats prefixes on later pages. Worked around: on the emulator profile the backend lists flat and rolls names up itself, reading every key below a directory.",
  },
  {
    id: "long-key-segments",
    description:
      "A key segment (between slashes) longer than about 230 bytes fails with 500 InternalError: each segment becomes a file name, plus a suffix, within the file system's 255 bytes. Not worked around.",
  },
  {
    id: "continuation-tokens-need-des",
    description:
      "Its continuation tokens are DES-encrypted, which Node 17+ refuses (500 InternalError on any truncated listing) unless the server runs with --openssl-legacy-provider; the tests start it so.",
  },
  {
    id: "ranged-get-of-empty-object-crashes",
    description:
      "A ranged GET of an empty object (or a range starting at the end) drops the connection and can bring the server down; S3 answers 416 InvalidRange. Worked around: on the emulator profile a ranged read asks for the size first (one HEAD) and answers InvalidRange itself.",
  },
];

/** 5 TiB: S3's largest object (a multipart upload). */
const MAX_OBJECT_BYTES = 5 * 1024 ** 4;

export function s3BlobCapabilities(options: {
  bucketPrefix: string;
  conditionalWrites: boolean;
  emulator: boolean;
}): BlobCapabilities {
  return Object.freeze({
    backend: "s3",
    // A bucket name is the prefix plus the container name, 63 characters at most.
    maxContainerNameLength: 63 - options.bucketPrefix.length,
    // S3 reserves these bucket-name prefixes; a bucket prefix of our own puts them out of reach.
    reservedContainerPrefixes: options.bucketPrefix ? [] : ["sthree-", "amzn-s3-demo-", "xn--"],
    maxBlobNameLength: 1024,
    blobNameUnit: "utf8",
    maxMetadataBytes: 2 * 1024,
    maxBlobBytes: MAX_OBJECT_BYTES,
    appendBlobs: false,
    maxAppendBlockBytes: 0,
    maxAppendBlocks: 0,
    sealAppendBlobs: false,
    // S3 objects are written whole: no pages to write in place.
    pageBlobs: false,
    maxPageBlobBytes: 0,
    maxPageWriteBytes: 0,
    // Multipart uploads have parts, not a block list that outlives a commit: no stageBlock.
    blocks: false,
    maxBlockBytes: 0,
    maxBlockIdBytes: 0,
    maxCommittedBlocks: 0,
    maxUncommittedBlocks: 0,
    // Object versions are per bucket and not addressable by time: no snapshots.
    snapshots: false,
    // S3 keeps no record of a copy on the object it wrote.
    copyProperties: false,
    copyFromArchive: false,
    copiesPageBlobs: false,
    incrementalCopy: false,
    conditionalWrites: options.conditionalWrites,
    // Cache-Control, Content-Encoding, -Language, -Disposition are object headers; S3 keeps no
    // Content-MD5 (its ETag is one only for single-part uploads), changes an object's headers only
    // by copying it, knows no leases, and lower-cases metadata names.
    contentHeaders: true,
    contentMD5: false,
    setProperties: false,
    metadataKeepsCase: false,
    leases: false,
    // S3 object tagging has no search by tag and no conditional write on tags; storage classes are
    // not the Blob service's tiers (an archived object has no Archive → Hot answer on the same key).
    tags: false,
    findByTags: false,
    tagConditions: false,
    accessTiers: false,
    softDelete: false,
    maxListPageSize: 1000,
    nameOrder: "utf8",
    persistent: true,
    deletedNameHold: false,
    nameMarkers: false,
    divergences: options.emulator ? S3RVER_DIVERGENCES : [],
  } satisfies BlobCapabilities);
}
