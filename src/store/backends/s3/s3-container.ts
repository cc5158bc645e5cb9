import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type {
  BackendAppendResult,
  BackendConditions,
  BackendDownload,
  BackendListPage,
  BackendListQuery,
  BackendRange,
  BackendUpload,
  BackendWriteResult,
  ContainerBackend,
  StoredBlobProperties,
  StoredBlockLists,
  StoredContainer,
} from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import type { CallOptions } from "../../call-options.js";
import { blobNotFound, conditionNotMet, invalidRange, mappedErrors, noBlocks } from "./blob-errors.js";
import { blobItem, continuationOf, rolledUpPage } from "./blob-listing.js";
import { uploadStream } from "./blob-multipart.js";
import { ifMatch, matches, responseDate, toStored } from "./blob-object-properties.js";
import type { S3Api, S3ListOutput, S3ObjectOutput } from "./blob-sdk.js";
import { toTableKitError } from "./errors.js";

/** How many HEADs run at once when a listing asks for metadata (S3 lists none). */
const HEAD_CONCURRENCY = 8;

/** What a container needs of its service (S3Containers); declared here so neither file imports the other. */
export interface S3ContainerHost {
  readonly api: S3Api;
  readonly capabilities: BlobCapabilities;
  readonly emulator: boolean;
  bucket(container: string): string;
  headBucket(name: string, call: CallOptions): Promise<boolean>;
  containerProperties(name: string, call: CallOptions): Promise<StoredContainer | undefined>;
  call<T>(
    call: CallOptions,
    work: () => Promise<T>,
    notFound?: "ContainerNotFound" | "BlobNotFound",
  ): Promise<T>;
}

/**
 * One container as one S3 bucket. Blob names are object keys. S3 has no append blobs (the core
 * refuses them by capability) and answers some outcomes its own way; this class gives the Blob
 * service's answers (BlobNotFound on a delete of nothing, BlobAlreadyExists for `ifNoneMatch`).
 */
export class S3Container implements ContainerBackend {
  private readonly Bucket: string;

  constructor(
    private readonly service: S3ContainerHost,
    private readonly name: string,
  ) {
    this.Bucket = service.bucket(name);
  }

  getContainerProperties(call: CallOptions): Promise<StoredContainer | undefined> {
    return this.service.containerProperties(this.name, call);
  }

  /** S3 keeps no block lists (capabilities.blocks is false): the core never calls these. */
  async stageBlock(): Promise<void> {
    throw noBlocks();
  }

  async commitBlocks(): Promise<BackendWriteResult> {
    throw noBlocks();
  }

  async listBlocks(): Promise<StoredBlockLists> {
    throw noBlocks();
  }

  async upload(name: string, upload: BackendUpload, call: CallOptions): Promise<BackendWriteResult> {
    const { Bucket } = this;
    const h = upload.headers ?? {};
    // Object headers S3 keeps as the Blob service does (no Content-MD5: capabilities.contentMD5 is false).
    const headers = {
      ContentType: upload.contentType,
      ...(h.cacheControl === undefined ? {} : { CacheControl: h.cacheControl }),
      ...(h.contentEncoding === undefined ? {} : { ContentEncoding: h.contentEncoding }),
      ...(h.contentLanguage === undefined ? {} : { ContentLanguage: h.contentLanguage }),
      ...(h.contentDisposition === undefined ? {} : { ContentDisposition: h.contentDisposition }),
      Metadata: upload.metadata,
    };
    const conditions = {
      ...(upload.conditions.ifMatch ? { IfMatch: upload.conditions.ifMatch } : {}),
      ...(upload.conditions.ifNoneMatch ? { IfNoneMatch: "*" } : {}),
    };
    const context = { abortSignal: call.abortSignal, ifNoneMatch: upload.conditions.ifNoneMatch === "*" };
    let out: Record<string, unknown>;
    try {
      out =
        upload.body.kind === "bytes"
          ? await this.service.api.send(
              "PutObject",
              {
                Bucket,
                Key: name,
                Body: upload.body.bytes,
                ContentLength: upload.body.bytes.byteLength,
                ...headers,
                ...conditions,
              },
              call.abortSignal,
            )
          : await uploadStream(this.service.api, upload.body.chunks, {
              Bucket,
              Key: name,
              headers,
              conditions,
              partBytes: upload.partBytes,
              concurrency: upload.concurrency,
              abortSignal: call.abortSignal,
            });
    } catch (err) {
      throw toTableKitError(err, { ...context, notFound: "ContainerNotFound" });
    }
    return { etag: String(out.ETag ?? ""), lastModified: responseDate(out as S3ObjectOutput) };
  }

  async download(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<BackendDownload> {
    const Range = range
      ? `bytes=${range.offset}-${range.count === undefined ? "" : range.offset + range.count - 1}`
      : undefined;
    if (range && this.service.emulator) {
      // s3rver can crash on a range that starts at the end: ask for the size first.
      const props = await this.getProperties(name, conditions, call);
      if (!props) throw blobNotFound(name);
      if (range.offset >= props.contentLength) throw invalidRange(range.offset, props.contentLength);
    }
    let out: S3ObjectOutput;
    try {
      out = await this.service.api.send<S3ObjectOutput>(
        "GetObject",
        { Bucket: this.Bucket, Key: name, ...(Range ? { Range } : {}), ...ifMatch(conditions) },
        call.abortSignal,
      );
    } catch (err) {
      throw await this.notFound(toTableKitError(err, { abortSignal: call.abortSignal }), call);
    }
    const body = Readable.from(mappedErrors(out.Body as AsyncIterable<Uint8Array>, call.abortSignal));
    const total = /\/(\d+)$/.exec(out.ContentRange ?? "")?.[1];
    const properties = toStored(out, total === undefined ? (out.ContentLength ?? 0) : Number(total));
    if (!matches(conditions, properties.etag)) {
      body.destroy();
      throw conditionNotMet(name);
    }
    if (!range) return { properties, body };
    return { properties, body, range: { offset: range.offset, count: out.ContentLength ?? 0 } };
  }

  async getProperties(
    name: string,
    conditions: BackendConditions,
    call: CallOptions,
  ): Promise<StoredBlobProperties | undefined> {
    let out: S3ObjectOutput;
    try {
      out = await this.service.api.send<S3ObjectOutput>(
        "HeadObject",
        { Bucket: this.Bucket, Key: name, ...ifMatch(conditions) },
        call.abortSignal,
      );
    } catch (err) {
      const e = await this.notFound(toTableKitError(err, { abortSignal: call.abortSignal }), call);
      if (e.code === "BlobNotFound" && !conditions.ifMatch) return undefined;
      throw e.code === "BlobNotFound" ? conditionNotMet(name) : e;
    }
    const properties = toStored(out, out.ContentLength ?? 0);
    if (!matches(conditions, properties.etag)) throw conditionNotMet(name);
    return properties;
  }

  async delete(name: string, conditions: BackendConditions, call: CallOptions): Promise<undefined> {
    // S3 deletes a missing key without complaint; the Blob service answers BlobNotFound. With
    // conditional writes `If-Match` makes it one atomic request; otherwise a HEAD asks first.
    if (!this.service.capabilities.conditionalWrites && !(await this.getProperties(name, conditions, call))) {
      throw blobNotFound(name);
    }
    const IfMatch = this.service.capabilities.conditionalWrites ? (conditions.ifMatch ?? "*") : undefined;
    try {
      await this.service.api.send(
        "DeleteObject",
        { Bucket: this.Bucket, Key: name, ...(IfMatch ? { IfMatch } : {}) },
        call.abortSignal,
      );
    } catch (err) {
      throw await this.notFound(toTableKitError(err, { abortSignal: call.abortSignal }), call);
    }
  }

  /**
   * One page by StartAfter (the last item returned, never S3's tokens): a page asks one item more
   * than it needs, drops what a resumed directory repeats, and is cut to size.
   */
  async list(query: BackendListQuery, call: CallOptions): Promise<BackendListPage> {
    const page =
      query.delimiter !== undefined && this.service.emulator
        ? await rolledUpPage(query, (startAfter) =>
            this.listObjects({ prefix: query.prefix, startAfter, maxKeys: 1000 }, call),
          )
        : await this.serverPage(query, call);
    if (!query.includeMetadata) return page;
    return { ...page, items: await this.withMetadata(page.items, call) };
  }

  private async serverPage(query: BackendListQuery, call: CallOptions): Promise<BackendListPage> {
    const after = query.continuation;
    const last = after?.slice(2);
    const out = await this.listObjects(
      { prefix: query.prefix, delimiter: query.delimiter, startAfter: last, maxKeys: query.maxPageSize + 1 },
      call,
    );
    const blobs = (out.Contents ?? []).map(blobItem);
    const prefixes = (out.CommonPrefixes ?? []).map((p) => ({ kind: "prefix" as const, name: p.Prefix! }));
    const all = [...blobs, ...prefixes]
      .filter(
        (i) => last === undefined || (i.name > last && !(after!.startsWith("p:") && i.name.startsWith(last))),
      )
      .sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
    const items = all.slice(0, query.maxPageSize);
    const more = all.length > query.maxPageSize || out.IsTruncated === true;
    return more && items.length > 0 ? { items, continuation: continuationOf(items.at(-1)!) } : { items };
  }

  private listObjects(
    q: { prefix: string; delimiter?: string; startAfter?: string; maxKeys: number },
    call: CallOptions,
  ): Promise<S3ListOutput> {
    return this.service.call(
      call,
      () =>
        this.service.api.send<S3ListOutput>(
          "ListObjectsV2",
          {
            Bucket: this.Bucket,
            ...(q.prefix ? { Prefix: q.prefix } : {}),
            ...(q.delimiter ? { Delimiter: q.delimiter } : {}),
            MaxKeys: q.maxKeys,
            ...(q.startAfter ? { StartAfter: q.startAfter } : {}),
          },
          call.abortSignal,
        ),
      "ContainerNotFound",
    );
  }

  async appendBlock(): Promise<BackendAppendResult> {
    throw new TableKitError("NotSupported", "S3 has no append blobs");
  }

  /** S3 lists no metadata or content type: a HEAD per blob fills them in. */
  private async withMetadata(
    items: BackendListPage["items"],
    call: CallOptions,
  ): Promise<BackendListPage["items"]> {
    const out = [...items];
    for (let i = 0; i < out.length; i += HEAD_CONCURRENCY) {
      await Promise.all(
        out.slice(i, i + HEAD_CONCURRENCY).map(async (item, j) => {
          if (item.kind !== "blob") return;
          const properties = await this.getProperties(item.name, {}, call);
          if (properties) out[i + j] = { ...item, properties };
        }),
      );
    }
    return out;
  }

  /** A 404 without a body names no resource: BlobNotFound unless the bucket is gone. */
  private async notFound(err: TableKitError, call: CallOptions): Promise<TableKitError> {
    if (err.code !== "BlobNotFound" || (await this.service.headBucket(this.name, call))) return err;
    return new TableKitError("ContainerNotFound", "The specified container does not exist.", {
      cause: err,
      details: { containerName: this.name },
    });
  }
}
