import { TableKitError } from "../../../model/index.js";
import type { BlobServiceBackend, ContainerBackend, StoredContainer } from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import type { CallOptions } from "../../call-options.js";
import type { S3Api, S3ListOutput } from "./blob-sdk.js";
import { toTableKitError } from "./errors.js";
import { S3Container, type S3ContainerHost } from "./s3-container.js";

interface Bucket {
  Name?: string;
  CreationDate?: Date;
}

/** How often `deleteContainer` empties the bucket again when writers keep adding objects. */
const EMPTY_ATTEMPTS = 5;

/** Amazon S3 (or an S3-compatible server) as a blob backend: one bucket per container. */
export class S3Containers implements S3ContainerHost, BlobServiceBackend {
  constructor(
    readonly api: S3Api,
    readonly capabilities: BlobCapabilities,
    private readonly bucketPrefix: string,
    /** The server departs from S3 as s3rver does: the containers work around it (capabilities.ts). */
    readonly emulator: boolean,
  ) {}

  bucket(container: string): string {
    return this.bucketPrefix + container;
  }

  async createContainer(name: string, call: CallOptions): Promise<void> {
    // us-east-1 answers 200 to a create of a bucket you own: ask first, so the answer is exact.
    if (await this.headBucket(name, call)) throw alreadyExists(name);
    await this.call(call, () =>
      this.api.send("CreateBucket", { Bucket: this.bucket(name) }, call.abortSignal),
    );
  }

  /** Empties the bucket (S3 deletes only empty buckets), then deletes it. */
  async deleteContainer(name: string, call: CallOptions): Promise<void> {
    const Bucket = this.bucket(name);
    for (let attempt = 0; ; attempt++) {
      await this.emptyBucket(Bucket, call);
      try {
        await this.api.send("DeleteBucket", { Bucket }, call.abortSignal);
        return;
      } catch (err) {
        const e = toTableKitError(err, { notFound: "ContainerNotFound", abortSignal: call.abortSignal });
        const retry = (err as { name?: string }).name === "BucketNotEmpty" && attempt < EMPTY_ATTEMPTS;
        if (!retry) throw e;
      }
    }
  }

  async listContainers(
    query: { prefix: string; maxPageSize: number; continuation?: string },
    call: CallOptions,
  ): Promise<{ items: StoredContainer[]; continuation?: string }> {
    const full = this.bucketPrefix + query.prefix;
    const names = (await this.buckets(full, call))
      .map((b) => ({
        name: b.Name!.slice(this.bucketPrefix.length),
        etag: etagOf(b),
        lastModified: b.CreationDate ?? new Date(0),
      }))
      .filter((c) => query.continuation === undefined || c.name > query.continuation)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const items = names.slice(0, query.maxPageSize);
    return names.length > query.maxPageSize ? { items, continuation: items.at(-1)!.name } : { items };
  }

  container(name: string): ContainerBackend {
    return new S3Container(this, name);
  }

  /** True when the bucket exists (and is ours to reach). */
  async headBucket(name: string, call: CallOptions): Promise<boolean> {
    try {
      await this.api.send("HeadBucket", { Bucket: this.bucket(name) }, call.abortSignal);
      return true;
    } catch (err) {
      const e = toTableKitError(err, { notFound: "ContainerNotFound", abortSignal: call.abortSignal });
      if (e.code === "ContainerNotFound") return false;
      throw e;
    }
  }

  /** A container's properties: S3 keeps only a creation date, which also serves as its ETag. */
  async containerProperties(name: string, call: CallOptions): Promise<StoredContainer | undefined> {
    if (!(await this.headBucket(name, call))) return undefined;
    const bucket = (await this.buckets(this.bucket(name), call)).find((b) => b.Name === this.bucket(name));
    return { name, etag: bucket ? etagOf(bucket) : '""', lastModified: bucket?.CreationDate ?? new Date(0) };
  }

  private async buckets(prefix: string, call: CallOptions): Promise<Bucket[]> {
    const out = await this.call(call, () =>
      this.api.send<{ Buckets?: Bucket[] }>(
        "ListBuckets",
        prefix ? { Prefix: prefix } : {},
        call.abortSignal,
      ),
    );
    return (out.Buckets ?? []).filter((b) => b.Name?.startsWith(prefix));
  }

  private async emptyBucket(Bucket: string, call: CallOptions): Promise<void> {
    for (;;) {
      const page = await this.call(
        call,
        () => this.api.send<S3ListOutput>("ListObjectsV2", { Bucket, MaxKeys: 1000 }, call.abortSignal),
        "ContainerNotFound",
      );
      const keys = (page.Contents ?? []).map((c) => ({ Key: c.Key! }));
      if (keys.length === 0) return;
      await this.call(call, () =>
        this.api.send("DeleteObjects", { Bucket, Delete: { Objects: keys, Quiet: true } }, call.abortSignal),
      );
    }
  }

  async call<T>(
    call: CallOptions,
    work: () => Promise<T>,
    notFound?: "ContainerNotFound" | "BlobNotFound",
  ): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw toTableKitError(err, { abortSignal: call.abortSignal, ...(notFound ? { notFound } : {}) });
    }
  }
}

function etagOf(bucket: Bucket): string {
  return `"${bucket.CreationDate?.getTime() ?? 0}"`;
}

function alreadyExists(name: string): TableKitError {
  return new TableKitError("ContainerAlreadyExists", "The specified container already exists.", {
    details: { containerName: name },
  });
}
