import type { S3Api } from "./blob-sdk.js";

/** S3's smallest part (all but the last); parts here are 8 MiB unless the caller asks for more. */
const MIN_PART = 5 * 1024 * 1024;
export const DEFAULT_PART = 8 * 1024 * 1024;

export interface StreamUpload {
  readonly Bucket: string;
  readonly Key: string;
  readonly headers: {
    ContentType?: string;
    CacheControl?: string;
    ContentEncoding?: string;
    ContentLanguage?: string;
    ContentDisposition?: string;
    Metadata: Record<string, string>;
  };
  readonly conditions: { IfMatch?: string; IfNoneMatch?: string };
  readonly partBytes?: number;
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Uploads a stream of unknown length with bounded memory: one PutObject when it fits in a part,
 * else a multipart upload with at most `concurrency` parts in flight, completed under the write's
 * conditions and aborted (nothing written) if the source or a part fails.
 */
export async function uploadStream(
  api: S3Api,
  chunks: AsyncIterable<Uint8Array>,
  upload: StreamUpload,
): Promise<Record<string, unknown>> {
  const partBytes = Math.max(MIN_PART, upload.partBytes ?? DEFAULT_PART);
  const parts = partsOf(chunks, partBytes);
  const first = await parts.next();
  const second = first.done ? first : await parts.next();
  const { Bucket, Key, abortSignal } = upload;
  if (second.done) {
    const Body = first.done ? new Uint8Array(0) : first.value;
    return api.send(
      "PutObject",
      { Bucket, Key, Body, ContentLength: Body.byteLength, ...upload.headers, ...upload.conditions },
      abortSignal,
    );
  }
  const { UploadId } = await api.send<{ UploadId: string }>(
    "CreateMultipartUpload",
    { Bucket, Key, ...upload.headers },
    abortSignal,
  );
  try {
    const done: { PartNumber: number; ETag: string }[] = [];
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    let number = 0;
    const send = (Body: Uint8Array) => {
      const PartNumber = ++number;
      const p: Promise<void> = api
        .send<{ ETag: string }>(
          "UploadPart",
          { Bucket, Key, UploadId, PartNumber, Body, ContentLength: Body.byteLength },
          abortSignal,
        )
        .then(
          (r) => void done.push({ PartNumber, ETag: r.ETag }),
          (err: unknown) => {
            failure ??= err;
          },
        )
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    };
    const limit = Math.max(1, upload.concurrency ?? 4);
    send(first.value!);
    send(second.value!);
    for await (const body of parts) {
      while (inFlight.size >= limit) await Promise.race(inFlight);
      if (failure !== undefined) throw failure;
      send(body);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    done.sort((a, b) => a.PartNumber - b.PartNumber);
    return await api.send(
      "CompleteMultipartUpload",
      { Bucket, Key, UploadId, MultipartUpload: { Parts: done }, ...upload.conditions },
      abortSignal,
    );
  } catch (err) {
    await api.send("AbortMultipartUpload", { Bucket, Key, UploadId }).catch(() => {});
    throw err;
  }
}

/** Regroups a stream's chunks into parts of exactly `size` bytes (the last may be shorter). */
async function* partsOf(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const chunk of chunks) {
    let at = 0;
    while (at < chunk.byteLength) {
      const n = Math.min(size - filled, chunk.byteLength - at);
      buffer.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === size) {
        yield buffer;
        buffer = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled);
}
