import type { OperationOptions } from "../call-options.js";
import type { StoredPageRange } from "./blob-backend.js";
import type { BlobWriteResponse } from "./blob-client-types.js";
import type { BlobHTTPHeaders } from "./blob-headers.js";
import type { BlobRequestConditions } from "./blob-rules.js";

/** What a page blob client's calls take and answer (`@azure/storage-blob`'s shapes, in part). */

/** The SDK's PageBlobRequestConditions: an ETag condition and the sequence-number ones. */
export interface PageBlobRequestConditions extends BlobRequestConditions {
  ifSequenceNumberLessThanOrEqualTo?: number;
  ifSequenceNumberLessThan?: number;
  ifSequenceNumberEqualTo?: number;
}

export interface PageBlobCreateOptions extends OperationOptions {
  blobSequenceNumber?: number;
  /** Content type, Cache-Control, Content-Encoding, -Language, -Disposition, MD5 (none computed). */
  blobHTTPHeaders?: BlobHTTPHeaders;
  metadata?: Record<string, string>;
  /** The blob's index tags (at most 10). */
  tags?: Record<string, string>;
  conditions?: BlobRequestConditions;
}

export interface PageWriteOptions extends OperationOptions {
  conditions?: PageBlobRequestConditions;
}

export interface PageWriteResponse extends BlobWriteResponse {
  blobSequenceNumber: number;
}

export interface PageCopyResponse extends BlobWriteResponse {
  copyId: string;
  copyStatus: "success";
  /** The snapshot of the destination the incremental copy took. */
  destinationSnapshot: string;
}

export interface PageRangesResponse extends BlobWriteResponse {
  /** Written ranges, `start` and `end` inclusive, in order; adjacent ranges may stay apart (docs/blobs.md). */
  pageRange: StoredPageRange[];
  /** Cleared ranges: only a diff against a snapshot (`getPageRangesDiff`) has them. */
  clearRange: StoredPageRange[];
  blobContentLength: number;
}
