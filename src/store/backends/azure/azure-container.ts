import { Readable } from "node:stream";
import { isTableKitError, TableKitError } from "../../../model/index.js";
import type {
  AccessTier,
  ArchiveStatus,
  BackendAppend,
  BackendAppendResult,
  BackendCommitBlocks,
  BackendConditions,
  BackendDownload,
  BackendLeaseResult,
  BackendListPage,
  BackendListQuery,
  BackendRange,
  BackendSetProperties,
  BackendSnapshotResult,
  BackendStageBlock,
  BackendTierChange,
  BackendUpload,
  BackendWriteResult,
  BlobType,
  ContainerBackend,
  DeleteSnapshots,
  Metadata,
  RehydratePriority,
  StoredBlobProperties,
  StoredBlockLists,
  StoredContainer,
  StoredDeletion,
} from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import type { LeaseAction } from "../../blobs/blob-leases.js";
import { invalidBlockList } from "../../blobs/blob-rules.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import type { CallOptions } from "../../call-options.js";
import { sdkCall } from "./blob-errors.js";
import { AzurePageBlobs } from "./blob-pages.js";
import {
  contentHeadersOf,
  leaseViewOf,
  sdkConditions,
  sdkHttpHeaders,
  sdkLease,
} from "./blob-properties-sdk.js";
import type { SdkBlobClient, SdkBlobProperties, SdkContainerClient } from "./blob-sdk.js";
import { asReadable } from "./blob-sdk.js";

/** Parts of 8 MiB, four at a time: 32 MiB in flight at most for a streamed upload. */
const PART_BYTES = 8 * 1024 * 1024;
const CONCURRENCY = 4;

/** One container of an Azure account, through `@azure/storage-blob`'s ContainerClient. */
export class AzureContainer implements ContainerBackend {
  readonly pages: AzurePageBlobs;

  constructor(
    private readonly client: () => Promise<SdkContainerClient>,
    private readonly capabilities: BlobCapabilities,
    /** The container as the listing reports it (its metadata names keep their case). */
    private readonly listed?: (call: CallOptions) => Promise<StoredContainer | undefined>,
  ) {
    this.pages = new AzurePageBlobs(client);
  }

  /**
   * From the listing (one call, metadata names in their case); a credential that may not list
   * containers (a container SAS) reads Get Container Properties instead.
   */
  async getContainerProperties(call: CallOptions): Promise<StoredContainer | undefined> {
    if (this.listed) {
      try {
        return await this.listed(call);
      } catch (err) {
        if (!(isTableKitError(err) && err.status === 403)) throw err;
      }
    }
    const client = await this.client();
    try {
      const p = await sdkCall(call, (o) => client.getProperties(o));
      return {
        name: "",
        etag: p.etag ?? "",
        lastModified: p.lastModified ?? new Date(0),
        lease: leaseViewOf(p),
      };
    } catch (err) {
      if (isTableKitError(err) && err.status === 404) return undefined;
      throw err;
    }
  }

  async upload(name: string, upload: BackendUpload, call: CallOptions): Promise<BackendWriteResult> {
    const client = await this.client();
    const options = {
      blobHTTPHeaders: sdkHttpHeaders(upload.contentType, upload.headers),
      metadata: upload.metadata,
      conditions: sdkConditions(upload.conditions),
      ...annotations(upload),
    };
    const result = await blobCall(call, async (o) => {
      if (upload.blobType === "AppendBlob")
        return client.getAppendBlobClient(name).create({ ...o, ...options });
      const block = client.getBlockBlobClient(name);
      if (upload.body.kind === "bytes") return block.uploadData(upload.body.bytes, { ...o, ...options });
      return block.uploadStream(
        Readable.from(upload.body.chunks),
        upload.partBytes ?? PART_BYTES,
        upload.concurrency ?? CONCURRENCY,
        { ...o, ...options },
      );
    });
    return written(result);
  }

  async download(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    call: CallOptions,
    snapshot?: string,
  ): Promise<BackendDownload> {
    const client = await this.client();
    const response = await blobCall(call, (o) =>
      blobAt(client, name, snapshot).download(range?.offset ?? 0, range?.count, {
        ...o,
        conditions: sdkConditions(conditions),
      }),
    );
    const total = totalLength(response);
    const properties = toStored(response, total);
    const body = asReadable(response.readableStreamBody);
    if (!range) return { properties, body };
    if (range.offset >= total) {
      // Azurite serves a range that starts at the end as an empty 206; the service answers 416.
      body.destroy();
      throw new TableKitError(
        "InvalidRange",
        "The range specified is invalid for the current size of the resource.",
        {
          details: { offset: range.offset, size: total },
        },
      );
    }
    return { properties, body, range: { offset: range.offset, count: response.contentLength ?? 0 } };
  }

  async getProperties(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
    snapshot?: string,
  ): Promise<StoredBlobProperties | undefined> {
    const client = await this.client();
    try {
      const p = await blobCall(call, (o) =>
        blobAt(client, name, snapshot).getProperties({ ...o, conditions: sdkConditions(conditions) }),
      );
      return toStored(p, p.contentLength ?? 0);
    } catch (err) {
      if (isTableKitError(err, "BlobNotFound") && !conditions.tagConditions) return undefined;
      throw err;
    }
  }

  async delete(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
    deleteSnapshots?: DeleteSnapshots,
  ): Promise<void> {
    const client = await this.client();
    await blobCall(call, (o) =>
      client.getBlobClient(name).delete({
        ...o,
        conditions: sdkConditions(conditions),
        ...(deleteSnapshots ? { deleteSnapshots } : {}),
      }),
    );
  }

  async setProperties(
    name: string,
    change: BackendSetProperties,
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    const blob = (await this.client()).getBlobClient(name);
    const options = { conditions: sdkConditions(change.conditions) };
    const result = await blobCall(call, (o) =>
      change.kind === "headers"
        ? blob.setHTTPHeaders(sdkHttpHeaders(change.contentType, change.headers), { ...o, ...options })
        : blob.setMetadata(change.metadata, { ...o, ...options }),
    );
    return written(result);
  }

  async lease(blob: string | undefined, action: LeaseAction, call: CallOptions): Promise<BackendLeaseResult> {
    const client = await this.client();
    if (action.action === "break" && action.breakPeriod === undefined) {
      // The SDK always sends a period; the service's default is at once for an infinite lease and
      // the time left for a fixed one (60 s caps it).
      const p = await blobCall(call, (o) =>
        blob === undefined ? client.getProperties(o) : client.getBlobClient(blob).getProperties(o),
      );
      action = { action: "break", breakPeriod: p.leaseDuration === "infinite" ? 0 : 60 };
    }
    if (blob === undefined) {
      return sdkCall(call, (o) => sdkLease((id) => client.getBlobLeaseClient(id), action, o));
    }
    return blobCall(call, (o) =>
      sdkLease((id) => client.getBlobClient(blob).getBlobLeaseClient(id), action, o),
    );
  }

  async createSnapshot(
    name: string,
    metadata: Metadata | undefined,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<BackendSnapshotResult> {
    const client = await this.client();
    const result = await blobCall(call, (o) =>
      client
        .getBlobClient(name)
        .createSnapshot({ ...o, conditions: sdkConditions(conditions), ...(metadata ? { metadata } : {}) }),
    );
    return { ...written(result), snapshot: result.snapshot ?? "" };
  }

  async downloadSnapshot(
    name: string,
    snapshot: string,
    range: BackendRange | undefined,
    call: CallOptions,
  ): Promise<BackendDownload> {
    return this.download(name, range, {}, call, snapshot);
  }

  async getSnapshotProperties(
    name: string,
    snapshot: string,
    call: CallOptions,
  ): Promise<StoredBlobProperties | undefined> {
    return this.getProperties(name, {}, call, snapshot);
  }

  /** Undelete Blob: the SDK's own call (Azurite answers it without restoring: softDelete false there). */
  async undelete(name: string, call: CallOptions): Promise<void> {
    const client = await this.client();
    await blobCall(call, (o) => client.getBlobClient(name).undelete(o));
  }

  async deleteSnapshot(name: string, snapshot: string, call: CallOptions): Promise<void> {
    const client = await this.client();
    await blobCall(call, (o) => client.getBlobClient(name).withSnapshot(snapshot).delete(o));
  }

  async list(query: BackendListQuery, call: CallOptions): Promise<BackendListPage> {
    const client = await this.client();
    const page = await blobCall(call, async (o) => {
      const options = {
        ...o,
        prefix: query.prefix,
        includeMetadata: query.includeMetadata,
        ...(query.includeTags ? { includeTags: true } : {}),
        ...(query.includeSnapshots ? { includeSnapshots: true } : {}),
        ...(query.includeDeleted ? { includeDeleted: true } : {}),
        ...(query.includeUncommitted ? { includeUncommitedBlobs: true } : {}),
      };
      const listing =
        query.delimiter === undefined
          ? client.listBlobsFlat(options)
          : client.listBlobsByHierarchy(query.delimiter, options);
      const pages = listing.byPage({
        maxPageSize: query.maxPageSize,
        ...(query.continuation ? { continuationToken: query.continuation } : {}),
      });
      const next = await pages.next();
      return next.done ? undefined : next.value;
    });
    const items: BackendListPage["items"][number][] = [
      ...(page?.segment.blobPrefixes ?? []).map((p) => ({ kind: "prefix" as const, name: p.name })),
      ...(page?.segment.blobItems ?? []).map((b) => ({
        kind: "blob" as const,
        name: b.name,
        ...(b.snapshot ? { snapshot: b.snapshot } : {}),
        properties: toStored({ ...b.properties, metadata: b.metadata }, b.properties.contentLength ?? 0),
        ...(query.includeTags && b.tags && Object.keys(b.tags).length > 0 ? { tags: { ...b.tags } } : {}),
        ...(b.deleted ? { deleted: deletionOf(b.properties) } : {}),
      })),
    ];
    // A blob's snapshots before it, oldest first, as the service lists them (Azurite lists it first).
    items.sort(
      (a, b) =>
        compareNames(a.name, b.name, this.capabilities.nameOrder) ||
        snapshotOrder(snapshotOf(a), snapshotOf(b)),
    );
    return { items, ...(page?.continuationToken ? { continuation: page.continuationToken } : {}) };
  }

  async stageBlock(name: string, stage: BackendStageBlock, call: CallOptions): Promise<void> {
    const client = (await this.client()).getBlockBlobClient(name);
    const { body } = stage;
    // The SDK needs the length first: a stream of unknown length is gathered (at most maxBlockBytes).
    const bytes =
      body.kind === "bytes"
        ? body.bytes
        : stage.contentLength === undefined
          ? Buffer.concat(await gather(body.chunks))
          : undefined;
    if (bytes) {
      await sdkCall(call, (o) => client.stageBlock(stage.id, bytes, bytes.byteLength, o));
      return;
    }
    // A body that fails part-way (too long, a checksum that does not match) must end the request:
    // the SDK would otherwise wait for bytes that never come.
    const source = Readable.from((body as { chunks: AsyncIterable<Uint8Array> }).chunks);
    const failed = new AbortController();
    let failure: unknown;
    source.once("error", (err) => {
      failure = err;
      failed.abort(err);
    });
    const signal = call.abortSignal ? AbortSignal.any([call.abortSignal, failed.signal]) : failed.signal;
    try {
      await sdkCall({ ...call, abortSignal: signal }, (o) =>
        client.stageBlock(stage.id, source, stage.contentLength!, o),
      );
    } catch (err) {
      throw failure ?? err;
    }
  }

  /**
   * The SDK commits every block as `Latest`. A block asked from one list is checked against Get
   * Block List first; one asked from the committed list while a block of that id is staged too
   * cannot be said this way: NotSupported (docs/blobs.md).
   */
  async commitBlocks(
    name: string,
    commit: BackendCommitBlocks,
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    const client = (await this.client()).getBlockBlobClient(name);
    if (commit.blocks.some((b) => b.list !== "latest")) {
      const lists = await blobCall(call, (o) => client.getBlockList("all", o)).catch((err: unknown) => {
        if (isTableKitError(err, "BlobNotFound")) return { committedBlocks: [], uncommittedBlocks: [] };
        throw err;
      });
      const committed = new Set((lists.committedBlocks ?? []).map((b) => b.name));
      const uncommitted = new Set((lists.uncommittedBlocks ?? []).map((b) => b.name));
      for (const { id, list } of commit.blocks) {
        if (
          (list === "committed" && !committed.has(id)) ||
          (list === "uncommitted" && !uncommitted.has(id))
        ) {
          throw invalidBlockList(`The block ${id} is not in the ${list} block list of ${name}`);
        }
        if (list === "committed" && uncommitted.has(id)) {
          throw new TableKitError(
            "NotSupported",
            `The Azure SDK commits every block as Latest: block ${id} is staged, so its committed version cannot be named`,
          );
        }
      }
    }
    const options = {
      blobHTTPHeaders: sdkHttpHeaders(commit.contentType, commit.headers),
      metadata: commit.metadata,
      conditions: sdkConditions(commit.conditions),
      ...annotations(commit),
    };
    const result = await blobCall(call, (o) =>
      client.commitBlockList(
        commit.blocks.map((b) => b.id),
        { ...o, ...options },
      ),
    );
    return written(result);
  }

  async listBlocks(name: string, call: CallOptions, snapshot?: string): Promise<StoredBlockLists> {
    const blob = (await this.client()).getBlockBlobClient(name);
    const client = snapshot === undefined ? blob : blob.withSnapshot(snapshot);
    const r = await blobCall(call, (o) => client.getBlockList("all", o));
    const blocks = (list: { name: string; size: number }[] | undefined) =>
      (list ?? []).map((b) => ({ name: b.name, size: b.size }));
    return {
      committed: blocks(r.committedBlocks),
      uncommitted: blocks(r.uncommittedBlocks),
      ...(r.etag
        ? {
            properties: {
              etag: r.etag,
              lastModified: r.lastModified ?? new Date(0),
              contentLength: r.blobContentLength ?? 0,
              ...(r.contentType === undefined ? {} : { contentType: r.contentType }),
              metadata: {},
              blobType: "BlockBlob" as const,
            },
          }
        : {}),
    };
  }

  async appendBlock(name: string, append: BackendAppend, call: CallOptions): Promise<BackendAppendResult> {
    const client = await this.client();
    const r = await blobCall(call, (o) =>
      client.getAppendBlobClient(name).appendBlock(append.bytes, append.bytes.byteLength, {
        ...o,
        conditions: sdkConditions(append.conditions),
      }),
    );
    return {
      ...written(r),
      appendOffset: Number(r.blobAppendOffset ?? 0),
      committedBlockCount: r.blobCommittedBlockCount ?? 0,
    };
  }
  async getTags(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
    snapshot?: string,
  ): Promise<BlobTags> {
    const client = await this.client();
    const r = await blobCall(call, (o) =>
      blobAt(client, name, snapshot).getTags({ ...o, conditions: sdkConditions(conditions) }),
    );
    return { ...(r.tags ?? {}) };
  }

  async setTags(
    name: string,
    tags: BlobTags,
    conditions: BackendConditions,
    call: CallOptions,
    snapshot?: string,
  ): Promise<void> {
    const client = await this.client();
    await blobCall(call, (o) =>
      blobAt(client, name, snapshot).setTags(tags, { ...o, conditions: sdkConditions(conditions) }),
    );
  }

  async setTier(
    name: string,
    change: BackendTierChange,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<{ status: 200 | 202 }> {
    const client = await this.client();
    const r = await blobCall(call, (o) =>
      client.getBlobClient(name).setAccessTier(change.tier, {
        ...o,
        conditions: sdkConditions(conditions),
        ...(change.rehydratePriority ? { rehydratePriority: change.rehydratePriority } : {}),
      }),
    );
    return { status: r._response.status === 202 ? 202 : 200 };
  }

  async sealAppendBlob(
    name: string,
    conditions: BackendAppend["conditions"],
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    const client = await this.client();
    const r = await blobCall(call, (o) =>
      client.getAppendBlobClient(name).seal({ ...o, conditions: sdkConditions(conditions) }),
    );
    return written(r);
  }
}

function annotations(upload: { tags?: BlobTags; tier?: string }): { tags?: BlobTags; tier?: string } {
  return {
    ...(upload.tags && Object.keys(upload.tags).length > 0 ? { tags: upload.tags } : {}),
    ...(upload.tier ? { tier: upload.tier } : {}),
  };
}

async function gather(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** An SDK call on a blob: a bare 404 (a HEAD) means the blob. */
function blobCall<T>(call: CallOptions, work: (o: { abortSignal?: AbortSignal }) => Promise<T>): Promise<T> {
  return sdkCall(call, work, "BlobNotFound");
}

function snapshotOf(item: BackendListPage["items"][number]): string | undefined {
  return item.kind === "blob" ? item.snapshot : undefined;
}

/** Snapshots (by time) before the blob itself. */
function snapshotOrder(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : 1;
}

function blobAt(client: SdkContainerClient, name: string, snapshot: string | undefined): SdkBlobClient {
  const blob = client.getBlobClient(name);
  return snapshot === undefined ? blob : blob.withSnapshot(snapshot);
}

function written(r: { etag?: string; lastModified?: Date }): BackendWriteResult {
  return { etag: r.etag ?? "", lastModified: r.lastModified ?? new Date(0) };
}

/** The blob's whole length: from `Content-Range` (`bytes a-b/total`) when a range was served. */
function totalLength(p: SdkBlobProperties): number {
  const m = /\/(\d+)$/.exec(p.contentRange ?? "");
  return m ? Number(m[1]) : (p.contentLength ?? 0);
}

function toStored(p: SdkBlobProperties, contentLength: number): StoredBlobProperties {
  const blobType: BlobType =
    p.blobType === "AppendBlob" || p.blobType === "PageBlob" ? p.blobType : "BlockBlob";
  const headers = contentHeadersOf(p);
  return {
    etag: p.etag ?? "",
    lastModified: p.lastModified ?? new Date(0),
    contentLength,
    ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
    // The service compares metadata names case-insensitively; the port reports them lower-cased.
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    blobType,
    ...(blobType === "AppendBlob"
      ? { committedBlockCount: p.blobCommittedBlockCount ?? 0, sealed: p.isSealed === true }
      : {}),
    ...(blobType === "PageBlob" ? { sequenceNumber: p.blobSequenceNumber ?? 0 } : {}),
    ...(headers ? { headers } : {}),
    ...(p.createdOn ? { createdOn: p.createdOn } : {}),
    lease: leaseViewOf(p),
    ...(p.tagCount ? { tagCount: p.tagCount } : {}),
    ...(p.accessTier && blobType === "BlockBlob" ? { accessTier: p.accessTier as AccessTier } : {}),
    ...(p.accessTierInferred !== undefined && blobType === "BlockBlob"
      ? { accessTierInferred: p.accessTierInferred }
      : p.accessTier && blobType === "BlockBlob"
        ? { accessTierInferred: false }
        : {}),
    ...(p.accessTierChangedOn ? { accessTierChangedOn: p.accessTierChangedOn } : {}),
    ...(p.archiveStatus ? { archiveStatus: p.archiveStatus as ArchiveStatus } : {}),
    ...(p.rehydratePriority ? { rehydratePriority: p.rehydratePriority as RehydratePriority } : {}),
  };
}

/** Orders names as the backend's listings do: by UTF-8 bytes (code points) or by UTF-16 units. */
export function compareNames(a: string, b: string, order: "utf8" | "utf16"): number {
  if (order === "utf16") return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** A soft-deleted item's times as the service lists them (DeletedTime, RemainingRetentionDays). */
function deletionOf(p: { deletedOn?: Date; remainingRetentionDays?: number }): StoredDeletion {
  return { deletedOn: p.deletedOn ?? new Date(0), remainingRetentionDays: p.remainingRetentionDays ?? 0 };
}
