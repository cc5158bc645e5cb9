import { TableKitError } from "../../../model/index.js";
import type {
  BackendConditions,
  BackendCreatePageBlob,
  BackendPageBlobChange,
  BackendPageRangesQuery,
  BackendPageWrite,
  BackendPageWriteResult,
  BackendRange,
  BackendWriteResult,
  PageBlobBackend,
  StoredBlobProperties,
  StoredPageRange,
} from "../../blobs/blob-backend.js";
import type { CallOptions } from "../../call-options.js";
import { sdkCall } from "./blob-errors.js";
import { sdkConditions, sdkHttpHeaders } from "./blob-properties-sdk.js";
import type { SdkBlobProperties, SdkContainerClient } from "./blob-sdk.js";

/** Page blobs through `@azure/storage-blob`'s PageBlobClient: one SDK call per port call. */
export class AzurePageBlobs implements PageBlobBackend {
  constructor(private readonly client: () => Promise<SdkContainerClient>) {}

  async createPageBlob(
    name: string,
    create: BackendCreatePageBlob,
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    const client = (await this.client()).getPageBlobClient(name);
    const r = await blobCall(call, (o) =>
      client.create(create.size, {
        ...o,
        blobSequenceNumber: create.sequenceNumber,
        blobHTTPHeaders: sdkHttpHeaders(create.contentType, create.headers),
        metadata: create.metadata,
        ...(create.tags ? { tags: create.tags } : {}),
        conditions: sdkConditions(create.conditions),
      }),
    );
    return { etag: r.etag ?? "", lastModified: r.lastModified ?? new Date(0) };
  }

  async writePages(
    name: string,
    write: BackendPageWrite,
    call: CallOptions,
  ): Promise<BackendPageWriteResult> {
    const client = (await this.client()).getPageBlobClient(name);
    const { ifSequenceNumberEqual: eq, ifSequenceNumberLessThanOrEqual: le, ...rest } = write.conditions;
    const conditions = {
      ...sdkConditions(rest),
      ...(eq === undefined ? {} : { ifSequenceNumberEqualTo: eq }),
      ...(le === undefined ? {} : { ifSequenceNumberLessThanOrEqualTo: le }),
    };
    const r = await pageCall(call, (o) =>
      write.bytes
        ? client.uploadPages(write.bytes, write.offset, write.count, { ...o, conditions })
        : client.clearPages(write.offset, write.count, { ...o, conditions }),
    );
    return sequenced(r);
  }

  async getPageRanges(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    call: CallOptions,
    query: BackendPageRangesQuery = {},
  ): Promise<{
    ranges: StoredPageRange[];
    clearRanges?: StoredPageRange[];
    properties: StoredBlobProperties;
  }> {
    const container = await this.client();
    const blob = container.getPageBlobClient(name);
    const client = query.snapshot === undefined ? blob : blob.withSnapshot(query.snapshot);
    const options = { conditions: sdkConditions(conditions) };
    const offset = range?.offset ?? 0;
    const props = container.getBlobClient(name);
    // Get Page Ranges reports no sequence number or metadata: the properties come from their own call.
    const [r, p] = await Promise.all([
      rangeCall(call, (o) =>
        query.previousSnapshot === undefined
          ? client.getPageRanges(offset, range?.count, { ...o, ...options })
          : client.getPageRangesDiff(offset, range?.count, query.previousSnapshot, { ...o, ...options }),
      ),
      blobCall(call, (o) =>
        (query.snapshot === undefined ? props : props.withSnapshot(query.snapshot)).getProperties(o),
      ),
    ]);
    // The SDK's typings say { start, end }; at run time it hands { offset, count } with count = end - start.
    const inclusive = (list: unknown) =>
      ((list ?? []) as { offset: number; count: number }[]).map(({ offset, count }) => ({
        start: offset,
        end: offset + count,
      }));
    const clearRange = "clearRange" in r ? r.clearRange : undefined;
    return {
      ranges: inclusive(r.pageRange),
      ...(query.previousSnapshot === undefined ? {} : { clearRanges: inclusive(clearRange) }),
      properties: { ...pageProperties(p), etag: r.etag ?? "", contentLength: r.blobContentLength ?? 0 },
    };
  }

  async changePageBlob(
    name: string,
    change: BackendPageBlobChange,
    call: CallOptions,
  ): Promise<BackendPageWriteResult> {
    const client = (await this.client()).getPageBlobClient(name);
    const conditions = sdkConditions(change.conditions);
    const lease = change.conditions.leaseId === undefined ? {} : { leaseId: change.conditions.leaseId };
    let r =
      change.size === undefined
        ? undefined
        : await blobCall(call, (o) => client.resize(change.size!, { ...o, conditions }));
    const action = change.sequenceNumberAction;
    if (action) {
      r = await blobCall(call, (o) =>
        client.updateSequenceNumber(action, action === "increment" ? undefined : change.sequenceNumber, {
          ...o,
          conditions: r ? lease : conditions,
        }),
      );
    }
    return sequenced(r ?? {});
  }
}

function blobCall<T>(call: CallOptions, work: (o: { abortSignal?: AbortSignal }) => Promise<T>): Promise<T> {
  return sdkCall(call, work, "BlobNotFound");
}

/** A read of page ranges: a 416 (a range past the blob's end) is InvalidRange, as the service codes it. */
async function rangeCall<T>(
  call: CallOptions,
  work: (o: { abortSignal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  try {
    return await blobCall(call, work);
  } catch (err) {
    if (err instanceof TableKitError && err.details.status === 416 && err.code !== "InvalidRange") {
      throw new TableKitError(
        "InvalidRange",
        "The range specified is invalid for the current size of the resource.",
        {
          cause: err,
        },
      );
    }
    throw err;
  }
}

/** A page write: any 416 is InvalidPageRange (Azurite names it "Requested Range Not Satisfiable"). */
async function pageCall<T>(
  call: CallOptions,
  work: (o: { abortSignal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  try {
    return await blobCall(call, work);
  } catch (err) {
    if (err instanceof TableKitError && err.details.status === 416 && err.code !== "InvalidPageRange") {
      throw new TableKitError("InvalidPageRange", "The page range specified is invalid.", { cause: err });
    }
    throw err;
  }
}

function sequenced(r: {
  etag?: string;
  lastModified?: Date;
  blobSequenceNumber?: number;
}): BackendPageWriteResult {
  return {
    etag: r.etag ?? "",
    lastModified: r.lastModified ?? new Date(0),
    sequenceNumber: r.blobSequenceNumber ?? 0,
  };
}

function pageProperties(p: SdkBlobProperties): StoredBlobProperties {
  return {
    etag: p.etag ?? "",
    lastModified: p.lastModified ?? new Date(0),
    contentLength: p.contentLength ?? 0,
    ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    blobType: "PageBlob",
    sequenceNumber: p.blobSequenceNumber ?? 0,
  };
}
