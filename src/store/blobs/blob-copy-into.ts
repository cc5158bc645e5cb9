import type { Readable } from "node:stream";
import type { CallOptions } from "../call-options.js";
import type { BackendConditions, ContainerBackend, Metadata } from "./blob-backend.js";
import { checkedStream } from "./blob-body.js";
import {
  asSourceError,
  type BlobCopyOptions,
  type BlobCopyResponse,
  checkSourceConditions,
  type FetchedSource,
  fetchSource,
  newCopyId,
  successfulCopy,
} from "./blob-copy.js";
import { type BlobRequestConditions, normalizeMetadata } from "./blob-rules.js";
import type { BlobPort } from "./blob-service.js";

/** What a copy needs of its destination client (BlobClient passes its own parts). */
export interface CopyDestination {
  readonly port: BlobPort;
  readonly backend: ContainerBackend;
  readonly containerName: string;
  readonly name: string;
  readonly call: CallOptions;
  /** Runs the write under the caller's conditions and the token's right to write (BlobClient.conditionalWrite). */
  conditionalWrite<T>(
    conditions: BlobRequestConditions | undefined,
    work: (conditions: BackendConditions) => Promise<T>,
  ): Promise<T>;
}

/** A source as a copy reads it: a blob of this store, or a URL. */
export type CopySource = string | CopySourceBlob;

/**
 * A blob of this store as a copy reads it: what BlobClient offers (named structurally, so this file
 * and blob-client.ts do not import each other).
 */
export interface CopySourceBlob {
  readonly containerName: string;
  readonly name: string;
  readonly snapshot: string | undefined;
  sameStoreAs(port: BlobPort): boolean;
  getProperties(): Promise<{ etag: string; lastModified: Date }>;
  download(
    offset?: number,
    count?: number,
    options?: { abortSignal?: AbortSignal },
  ): Promise<{
    etag: string;
    lastModified: Date;
    contentLength: number;
    contentType?: string;
    metadata: Metadata;
    readableStreamBody: Readable;
  }>;
}

/** Reads the source (authorized as a read by its own client when it is a blob of this store). */
export async function readSource(
  source: CopySource,
  range: { offset: number; count?: number } | undefined,
  options: BlobCopyOptions,
): Promise<FetchedSource> {
  if (typeof source === "string") {
    return fetchSource(source, range, options.sourceConditions, options.abortSignal);
  }
  try {
    const download = await source.download(range?.offset, range?.count, {
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    try {
      checkSourceConditions(options.sourceConditions, download);
    } catch (err) {
      download.readableStreamBody.destroy();
      throw err;
    }
    return {
      body: download.readableStreamBody,
      contentLength: download.contentLength,
      ...(download.contentType === undefined ? {} : { contentType: download.contentType }),
      metadata: download.metadata,
    };
  } catch (err) {
    throw asSourceError(err);
  }
}

function sourceUrlOf(source: CopySource, options: BlobCopyOptions): string {
  if (options.sourceUrl !== undefined) return options.sourceUrl;
  if (typeof source === "string") return source;
  const at = source.snapshot === undefined ? "" : `?snapshot=${source.snapshot}`;
  return `/${source.containerName}/${encodeURIComponent(source.name)}${at}`;
}

/**
 * Copy Blob: the backend copies a blob of its own store without moving its bytes where it can;
 * otherwise (or from a URL) the bytes stream through an upload that records the copy.
 */
export async function copyInto(
  dest: CopyDestination,
  source: CopySource,
  options: BlobCopyOptions,
  keepSourceMetadata: boolean,
): Promise<BlobCopyResponse> {
  const caps = dest.port.capabilities;
  const given = options.metadata === undefined ? undefined : normalizeMetadata(options.metadata, caps);
  const id = newCopyId();
  const sourceUrl = sourceUrlOf(source, options);
  return dest.conditionalWrite(options.conditions, (conditions) =>
    copyUnder(dest, source, options, { id, sourceUrl, given, keepSourceMetadata, conditions }),
  );
}

async function copyUnder(
  dest: CopyDestination,
  source: CopySource,
  options: BlobCopyOptions,
  copy: {
    id: string;
    sourceUrl: string;
    given: Metadata | undefined;
    keepSourceMetadata: boolean;
    conditions: BackendConditions;
  },
): Promise<BlobCopyResponse> {
  const caps = dest.port.capabilities;
  const { id, sourceUrl, given, keepSourceMetadata, conditions } = copy;
  if (typeof source !== "string" && source.sameStoreAs(dest.port) && dest.backend.copyBlob) {
    // Authorizes the read and evaluates the conditions the backend does not apply itself.
    const found = await source.getProperties().catch((err: unknown) => {
      throw asSourceError(err);
    });
    checkSourceConditions(options.sourceConditions, found);
    const copied = await dest.backend.copyBlob(
      dest.name,
      {
        container: source.containerName,
        name: source.name,
        ...(source.snapshot === undefined ? {} : { snapshot: source.snapshot }),
        ifMatch: found.etag,
      },
      {
        ...(given ? { metadata: given } : keepSourceMetadata ? {} : { metadata: {} }),
        conditions,
        id,
        sourceUrl,
        ...(options.sealBlob === true ? { seal: true } : {}),
      },
      dest.call,
    );
    if (copied)
      return { etag: copied.etag, lastModified: copied.lastModified, copyId: id, copyStatus: "success" };
  }
  const read = await readSource(source, undefined, options);
  const metadata: Metadata = given ?? (keepSourceMetadata ? normalizeMetadata(read.metadata, caps) : {});
  const body = checkedStream(read.body, { limit: caps.maxBlobBytes, abortSignal: options.abortSignal });
  const written = await dest.backend.upload(
    dest.name,
    {
      blobType: "BlockBlob",
      body,
      ...(read.contentType === undefined ? {} : { contentType: read.contentType }),
      metadata,
      conditions,
      copy: successfulCopy(id, sourceUrl, read.contentLength, new Date()),
    },
    dest.call,
  );
  return { etag: written.etag, lastModified: written.lastModified, copyId: id, copyStatus: "success" };
}
