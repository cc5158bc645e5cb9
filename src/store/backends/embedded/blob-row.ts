import type { BlobType } from "../../blobs/blob-backend.js";

export interface BlobRow {
  readonly container: number;
  readonly name: string;
  readonly content: string;
  readonly length: number;
  readonly etag: string;
  readonly modified: number;
  readonly type: BlobType;
  /** Append blobs: the block count; page blobs: the sequence number. */
  readonly blocks: number;
  /** Append blobs: 1 once sealed (absent in a row being written: 0). */
  readonly sealed?: number;
  readonly content_type: string | null;
  readonly metadata: string;
  /** JSON: content headers and creation time (null in rows written before the column existed). */
  readonly props?: string | null;
  /** JSON of the blob's lease (a StoredLease); null: none. A rewrite of the blob keeps it. */
  readonly lease?: string | null;
  /** The bytes of a small block blob, kept in the row (`content` is then empty); null otherwise. */
  readonly data?: Buffer | null;
}

/** A committed block list as stored: `[[id, size], …]` in order. */
export type CommittedBlocks = readonly (readonly [id: string, size: number])[];
