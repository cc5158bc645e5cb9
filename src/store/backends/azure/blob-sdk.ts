import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type { SdkSignedIdentifier } from "./state-codec.js";

/**
 * The slice of `@azure/storage-blob` the blob backend uses, declared structurally (the SDK is an
 * optional peer dependency, loaded by `loadBlobSdk()` on the first blob call of an `azure:` store).
 */

type Conditions = { ifMatch?: string; ifNoneMatch?: string; appendPosition?: number; maxSize?: number };
interface CallOptions {
  abortSignal?: AbortSignal;
}
interface WriteOptions extends CallOptions {
  blobHTTPHeaders?: { blobContentType?: string };
  metadata?: Record<string, string>;
  conditions?: Conditions;
}
interface Written {
  etag?: string;
  lastModified?: Date;
}
export interface SdkBlobProperties {
  etag?: string;
  lastModified?: Date;
  contentLength?: number;
  contentType?: string;
  metadata?: Record<string, string>;
  blobType?: string;
  blobCommittedBlockCount?: number;
  contentRange?: string;
}
export interface SdkBlobItem {
  name: string;
  snapshot?: string;
  properties: SdkBlobProperties;
  metadata?: Record<string, string>;
}
interface Pages<S> {
  byPage(settings: { maxPageSize?: number; continuationToken?: string }): AsyncIterableIterator<S>;
}
export interface SdkListSegment {
  continuationToken?: string;
  segment: { blobItems: SdkBlobItem[]; blobPrefixes?: { name: string }[] };
}

export interface SdkContainerClient {
  create(options?: CallOptions & { metadata?: Record<string, string>; access?: string }): Promise<unknown>;
  setMetadata(metadata: Record<string, string>, options?: CallOptions): Promise<unknown>;
  getAccessPolicy(
    options?: CallOptions,
  ): Promise<{ blobPublicAccess?: string; signedIdentifiers?: SdkSignedIdentifier[] }>;
  setAccessPolicy(
    access: string | undefined,
    identifiers: SdkSignedIdentifier[],
    options?: CallOptions,
  ): Promise<unknown>;
  delete(options?: CallOptions): Promise<unknown>;
  getProperties(options?: CallOptions): Promise<Written>;
  getBlockBlobClient(name: string): {
    uploadData(data: Uint8Array, options?: WriteOptions): Promise<Written>;
    uploadStream(
      stream: NodeJS.ReadableStream,
      bufferSize?: number,
      maxConcurrency?: number,
      options?: WriteOptions,
    ): Promise<Written>;
    stageBlock(
      blockId: string,
      body: Uint8Array | NodeJS.ReadableStream,
      contentLength: number,
      options?: CallOptions,
    ): Promise<unknown>;
    commitBlockList(blocks: string[], options?: WriteOptions): Promise<Written>;
    getBlockList(
      listType: "committed" | "uncommitted" | "all",
      options?: CallOptions,
    ): Promise<
      Written & {
        contentType?: string;
        blobContentLength?: number;
        committedBlocks?: { name: string; size: number }[];
        uncommittedBlocks?: { name: string; size: number }[];
      }
    >;
  };
  getAppendBlobClient(name: string): {
    create(options?: WriteOptions): Promise<Written>;
    appendBlock(
      body: Uint8Array,
      length: number,
      options?: CallOptions & { conditions?: Conditions },
    ): Promise<Written & { blobAppendOffset?: string; blobCommittedBlockCount?: number }>;
  };
  getBlobClient(name: string): SdkBlobClient;
  listBlobsFlat(
    options?: { prefix?: string; includeMetadata?: boolean; includeSnapshots?: boolean } & CallOptions,
  ): Pages<SdkListSegment>;
  listBlobsByHierarchy(
    delimiter: string,
    options?: { prefix?: string; includeMetadata?: boolean; includeSnapshots?: boolean } & CallOptions,
  ): Pages<SdkListSegment>;
}

export interface SdkBlobClient {
  download(
    offset?: number,
    count?: number,
    options?: CallOptions & { conditions?: Conditions },
  ): Promise<SdkBlobProperties & { readableStreamBody?: NodeJS.ReadableStream }>;
  getProperties(options?: CallOptions & { conditions?: Conditions }): Promise<SdkBlobProperties>;
  delete(
    options?: CallOptions & { conditions?: Conditions; deleteSnapshots?: "include" | "only" },
  ): Promise<unknown>;
  createSnapshot(
    options?: CallOptions & { conditions?: Conditions; metadata?: Record<string, string> },
  ): Promise<Written & { snapshot?: string }>;
  withSnapshot(snapshot: string): SdkBlobClient;
}

export interface SdkBlobServiceClient {
  readonly url: string;
  getContainerClient(name: string): SdkContainerClient;
  listContainers(options?: { prefix?: string; includeMetadata?: boolean } & CallOptions): Pages<{
    continuationToken?: string;
    containerItems: {
      name: string;
      properties: { etag?: string; lastModified?: Date; publicAccess?: string };
      metadata?: Record<string, string>;
    }[];
  }>;
  getProperties(options?: CallOptions): Promise<object>;
  setProperties(properties: object, options?: CallOptions): Promise<unknown>;
}

export interface BlobSdk {
  BlobServiceClient: {
    fromConnectionString(connectionString: string, options?: object): SdkBlobServiceClient;
    new (url: string, credential?: object, options?: object): SdkBlobServiceClient;
  };
}

/** Loads the SDK, or NotSupported telling the user what to install. */
export async function loadBlobSdk(): Promise<BlobSdk> {
  try {
    return (await import("@azure/storage-blob")) as unknown as BlobSdk;
  } catch (cause) {
    throw new TableKitError(
      "NotSupported",
      "Blobs on an azure: store need the optional peer dependency @azure/storage-blob: npm install @azure/storage-blob",
      { cause },
    );
  }
}

/** A Node Readable over whatever stream the SDK handed back. */
export function asReadable(stream: NodeJS.ReadableStream | undefined): Readable {
  if (!stream) return Readable.from([]);
  return stream instanceof Readable ? stream : Readable.from(stream as AsyncIterable<Uint8Array>);
}
