import type { Readable } from "node:stream";
import { TableKitError } from "../../model/index.js";
import type { CallOptions } from "../call-options.js";
import { checkTier, requireTags, requireTiers } from "./blob-annotations.js";
import type { AccessTier, BackendConditions, ContainerBackend, Metadata } from "./blob-backend.js";
import { checkedStream } from "./blob-body.js";
import {
  asSourceError,
  type BlobCopyOptions,
  type BlobCopyResponse,
  checkSourceConditions,
  checkSourceMd5,
  type FetchedSource,
  fetchSource,
  md5Checked,
  newCopyId,
  successfulCopy,
} from "./blob-copy.js";
import { type BlobRequestConditions, normalizeMetadata } from "./blob-rules.js";
import type { BlobPort } from "./blob-service.js";
import { type BlobTags, checkTags } from "./blob-tags.js";

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
  getProperties(): Promise<{ etag: string; lastModified: Date; accessTier?: AccessTier; blobType?: string }>;
  getTags(): Promise<{ tags: BlobTags }>;
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

/**
 * The bytes of a source as read: checked against `sourceContentMD5` when one is given (the last
 * chunk comes only once they match, else Md5Mismatch: md5Checked).
 */
export function sourceBytes(read: FetchedSource, options: Pick<BlobCopyOptions, "sourceContentMD5">) {
  const md5 = checkSourceMd5(options.sourceContentMD5);
  return md5 === undefined ? read.body : md5Checked(read.body, md5);
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

/** What a copy gives its destination besides the bytes: checked before anything is read. */
interface CopyPlan {
  readonly id: string;
  readonly sourceUrl: string;
  readonly given: Metadata | undefined;
  readonly keepSourceMetadata: boolean;
  /** The destination's tags, or "COPY": the source's. */
  readonly tags: BlobTags | "COPY";
  readonly tier: AccessTier | undefined;
  readonly md5: Uint8Array | undefined;
}

/**
 * Put Blob From URL's tags: `tags` (REPLACE, the default), or the source's (COPY: a blob of this
 * store only; not with `tags`). Undefined: none given.
 */
export async function sourceTagsFor(
  source: CopySource,
  option: BlobCopyOptions["copySourceTags"],
  tags: BlobTags | undefined,
): Promise<BlobTags | undefined> {
  checkTagOption(source, option ?? "REPLACE", tags);
  if (option !== "COPY" || typeof source === "string") return tags;
  return (
    await source.getTags().catch((err: unknown) => {
      throw asSourceError(err);
    })
  ).tags;
}

function checkTagOption(source: CopySource, option: string, tags: BlobTags | undefined): void {
  if (option !== "REPLACE" && option !== "COPY") {
    throw new TableKitError(
      "InvalidInput",
      `copySourceTags is "REPLACE" or "COPY", not ${JSON.stringify(option)}`,
    );
  }
  if (option === "COPY" && tags !== undefined) {
    throw new TableKitError(
      "InvalidInput",
      'copySourceTags "COPY" takes the source\'s tags: tags cannot be given as well (x-ms-tags).',
    );
  }
  if (option === "COPY" && typeof source === "string") {
    throw new TableKitError(
      "NotSupported",
      'copySourceTags "COPY" reads the tags of a blob of this store; a URL source gives none (see docs/blobs.md#copy).',
    );
  }
}

function planCopy(
  dest: CopyDestination,
  source: CopySource,
  options: BlobCopyOptions,
  keep: boolean,
): CopyPlan {
  const caps = dest.port.capabilities;
  const option = options.copySourceTags ?? "REPLACE";
  checkTagOption(source, option, options.tags);
  const tags = option === "COPY" ? "COPY" : checkTags(options.tags);
  if (tags === "COPY" || Object.keys(tags).length > 0) requireTags(caps);
  let tier: AccessTier | undefined;
  if (options.tier !== undefined) {
    requireTiers(caps);
    tier = checkTier(options.tier);
  }
  return {
    id: newCopyId(),
    sourceUrl: sourceUrlOf(source, options),
    given: options.metadata === undefined ? undefined : normalizeMetadata(options.metadata, caps),
    keepSourceMetadata: keep,
    tags,
    tier,
    md5: checkSourceMd5(options.sourceContentMD5),
  };
}

function blobArchived(): TableKitError {
  return new TableKitError(
    "BlobArchived",
    "This operation is not permitted on an archived blob: copy it into an online tier (give tier).",
    { details: { source: true } },
  );
}

/**
 * Copy Blob: the backend copies a blob of its own store without moving its bytes where it can;
 * otherwise (or from a URL, or when the bytes must be hashed) they stream through an upload that
 * records the copy. Tags: the given ones, or the source's (COPY); an archived source needs an
 * online `tier` (Copy Blob's rehydration by copy).
 */
export async function copyInto(
  dest: CopyDestination,
  source: CopySource,
  options: BlobCopyOptions,
  keepSourceMetadata: boolean,
): Promise<BlobCopyResponse> {
  const plan = planCopy(dest, source, options, keepSourceMetadata);
  const result = await dest.conditionalWrite(options.conditions, (conditions) =>
    copyUnder(dest, source, options, plan, conditions),
  );
  return plan.md5 === undefined ? result : { ...result, contentMD5: plan.md5 };
}

async function copyUnder(
  dest: CopyDestination,
  source: CopySource,
  options: BlobCopyOptions,
  plan: CopyPlan,
  conditions: BackendConditions,
): Promise<BlobCopyResponse> {
  const caps = dest.port.capabilities;
  const { id, sourceUrl, given, keepSourceMetadata, tier, md5 } = plan;
  let tags: BlobTags | undefined = plan.tags === "COPY" ? undefined : plan.tags;
  if (typeof source !== "string") {
    // Authorizes the read and evaluates the conditions the backend does not apply itself.
    const found = await source.getProperties().catch((err: unknown) => {
      throw asSourceError(err);
    });
    checkSourceConditions(options.sourceConditions, found);
    if (tier !== undefined && found.blobType !== undefined && found.blobType !== "BlockBlob") {
      throw new TableKitError(
        "AccessTierNotSupportedForBlobType",
        "A copy of a page or append blob takes no access tier on this account (block blobs only).",
      );
    }
    if (found.accessTier === "Archive") {
      // Another store's archived blob answers its reader 409, as a source in another account does.
      if (!source.sameStoreAs(dest.port)) throw asSourceError(blobArchived());
      if (tier === undefined || tier === "Archive" || !caps.copyFromArchive) throw blobArchived();
    }
    if (plan.tags === "COPY") {
      tags = (
        await source.getTags().catch((err: unknown) => {
          throw asSourceError(err);
        })
      ).tags;
    }
    if (source.sameStoreAs(dest.port) && dest.backend.copyBlob && md5 === undefined) {
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
          ...(caps.tags ? { tags: tags ?? {} } : {}),
          ...(tier === undefined ? {} : { tier }),
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
  }
  const read = await readSource(source, undefined, options);
  const metadata: Metadata = given ?? (keepSourceMetadata ? normalizeMetadata(read.metadata, caps) : {});
  const body = checkedStream(sourceBytes(read, options), {
    limit: caps.maxBlobBytes,
    abortSignal: options.abortSignal,
  });
  const written = await dest.backend.upload(
    dest.name,
    {
      blobType: "BlockBlob",
      body,
      ...(read.contentType === undefined ? {} : { contentType: read.contentType }),
      metadata,
      conditions,
      ...(caps.tags && tags !== undefined ? { tags } : {}),
      ...(tier === undefined ? {} : { tier }),
      copy: successfulCopy(id, sourceUrl, read.contentLength, new Date()),
    },
    dest.call,
  );
  return { etag: written.etag, lastModified: written.lastModified, copyId: id, copyStatus: "success" };
}
