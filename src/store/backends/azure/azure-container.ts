import { Readable } from "node:stream";
import { isTableKitError, TableKitError } from "../../../model/index.js";
import type {
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
  ContainerBackend,
  DeleteSnapshots,
  Metadata,
  StoredBlobProperties,
  StoredBlockLists,
  StoredContainer,
} from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import type { LeaseAction } from "../../blobs/blob-leases.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import type { CallOptions } from "../../call-options.js";
import { AzureBlockBlobs } from "./blob-blocks.js";
import { blobCall, sdkCall } from "./blob-errors.js";
import { listBlobs } from "./blob-listing.js";
import { AzurePageBlobs } from "./blob-pages.js";
import { leaseViewOf, sdkConditions, sdkHttpHeaders, sdkLease } from "./blob-properties-sdk.js";
import { asReadable, type SdkContainerClient } from "./blob-sdk.js";
import { annotations, blobAt, toStored, totalLength, written } from "./blob-stored-sdk.js";

/** Parts of 8 MiB, four at a time: 32 MiB in flight at most for a streamed upload. */
const PART_BYTES = 8 * 1024 * 1024;
const CONCURRENCY = 4;

/** One container of an Azure account, through `@azure/storage-blob`'s ContainerClient. */
export class AzureContainer implements ContainerBackend {
  readonly pages: AzurePageBlobs;
  private readonly blocks: AzureBlockBlobs;

  constructor(
    private readonly client: () => Promise<SdkContainerClient>,
    private readonly capabilities: BlobCapabilities,
    /** The container as the listing reports it (its metadata names keep their case). */
    private readonly listed?: (call: CallOptions) => Promise<StoredContainer | undefined>,
  ) {
    this.pages = new AzurePageBlobs(client);
    this.blocks = new AzureBlockBlobs(client);
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
  ): Promise<undefined> {
    // The SDK does not report x-ms-delete-type-permanent: whether it was kept is not known here.
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

  async deleteSnapshot(name: string, snapshot: string, call: CallOptions): Promise<undefined> {
    const client = await this.client();
    await blobCall(call, (o) => client.getBlobClient(name).withSnapshot(snapshot).delete(o));
  }

  async list(query: BackendListQuery, call: CallOptions): Promise<BackendListPage> {
    return listBlobs(await this.client(), this.capabilities.nameOrder, query, call);
  }

  stageBlock(name: string, stage: BackendStageBlock, call: CallOptions): Promise<void> {
    return this.blocks.stageBlock(name, stage, call);
  }

  commitBlocks(name: string, commit: BackendCommitBlocks, call: CallOptions): Promise<BackendWriteResult> {
    return this.blocks.commitBlocks(name, commit, call);
  }

  listBlocks(name: string, call: CallOptions, snapshot?: string): Promise<StoredBlockLists> {
    return this.blocks.listBlocks(name, call, snapshot);
  }

  appendBlock(name: string, append: BackendAppend, call: CallOptions): Promise<BackendAppendResult> {
    return this.blocks.appendBlock(name, append, call);
  }

  sealAppendBlob(
    name: string,
    conditions: BackendAppend["conditions"],
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    return this.blocks.sealAppendBlob(name, conditions, call);
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
}
