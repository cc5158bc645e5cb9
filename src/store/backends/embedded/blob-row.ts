import { randomBytes } from "node:crypto";
import type {
  BlobType,
  ContentHeaders,
  Metadata,
  StoredBlobProperties,
  StoredContainer,
} from "../../blobs/blob-backend.js";
import { leaseView, type StoredLease } from "../../blobs/blob-leases.js";

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

/** What `props` holds: the content headers and the creation time (ms). */
interface BlobProps {
  readonly h?: ContentHeaders;
  readonly c?: number;
}

/** The `props` of a row written now with `headers`, keeping the creation time of the row it replaces. */
export function propsJson(
  headers: ContentHeaders | undefined,
  current: BlobRow | undefined,
  now: number,
): string {
  const created = current ? (parseProps(current).c ?? current.modified) : now;
  const h = headers && Object.keys(headers).length > 0 ? headers : undefined;
  return JSON.stringify(h ? { h, c: created } : { c: created });
}

function parseProps(row: BlobRow): BlobProps {
  return row.props ? (JSON.parse(row.props) as BlobProps) : {};
}

export function parseLease(text: string | null | undefined): StoredLease | undefined {
  return text ? (JSON.parse(text) as StoredLease) : undefined;
}

/** A new ETag, quoted, in the service's `0x…` style. */
export function newEtag(): string {
  return `"0x${randomBytes(8).toString("hex").toUpperCase()}"`;
}

/** The properties a row describes (times at the service's one-second precision). */
export function propertiesOf(row: BlobRow, now = Date.now()): StoredBlobProperties {
  const props = parseProps(row);
  return {
    etag: row.etag,
    lastModified: wholeSeconds(row.modified),
    contentLength: row.length,
    ...(row.content_type === null ? {} : { contentType: row.content_type }),
    metadata: JSON.parse(row.metadata) as Metadata,
    blobType: row.type,
    ...(row.type === "AppendBlob" ? { committedBlockCount: row.blocks, sealed: row.sealed === 1 } : {}),
    ...(row.type === "PageBlob" ? { sequenceNumber: row.blocks } : {}),
    ...(props.h ? { headers: props.h } : {}),
    createdOn: wholeSeconds(props.c ?? row.modified),
    lease: leaseView(parseLease(row.lease), now),
  };
}

function wholeSeconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

export interface ContainerRow {
  readonly name: string;
  readonly etag: string;
  readonly modified: number;
  readonly lease: string | null;
}

export function containerOf(row: ContainerRow): StoredContainer {
  return {
    name: row.name,
    etag: row.etag,
    lastModified: wholeSeconds(row.modified),
    lease: leaseView(parseLease(row.lease), Date.now()),
  };
}
