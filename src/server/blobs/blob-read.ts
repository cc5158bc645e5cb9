import type { OutgoingHttpHeaders } from "node:http";
import { TableKitError } from "../../model/index.js";
import { type BlobClient, type BlobRequestConditions, isNotModified } from "../../store/index.js";
import { standardHeaders, streamResponse } from "../http/responses.js";
import { notModified } from "./blob-conditions.js";
import { blobHeaders, requestedRange } from "./blob-http.js";
import { md5Headers } from "./blob-property-routes.js";
import type { BlobContext } from "./blob-service.js";
import { checkChecksummedLength, rangeChecksumHeader, rangeChecksumWanted } from "./content-checksum.js";

/**
 * Get Blob and Get Blob Properties (HEAD) of a blob or of a snapshot (its client): the whole blob
 * or a range, with the range's MD5 or CRC64 when asked, 304 for a condition that held it
 * unchanged, a 416 naming the length; `overrides` (a service SAS's response headers) last.
 */
export async function answerRead(
  ctx: BlobContext,
  client: BlobClient,
  conditions: BlobRequestConditions,
  overrides: OutgoingHttpHeaders,
): Promise<void> {
  // Get Blob Properties ignores Range and x-ms-range (HTTP defines range handling for GET
  // only): its Content-Length is the blob's, which the legacy SDK sizes its ranged reads by.
  if (ctx.method === "HEAD") {
    // Get Blob Properties: answers for an archived blob too, whose bytes cannot be opened.
    const found = await client.getProperties({ conditions }).catch((err: unknown) => {
      if (isNotModified(err)) throw notModified();
      throw err;
    });
    ctx.res.writeHead(200, {
      ...standardHeaders(ctx),
      ...blobHeaders(found),
      ...md5Headers(found, false),
      "content-length": String(found.contentLength),
      ...overrides,
    });
    ctx.res.end();
    return;
  }
  const range = requestedRange(ctx);
  const checksum = rangeChecksumWanted(ctx, range);
  const download = await client
    .download(range?.offset, range?.count, { conditions })
    .catch(async (err: unknown) => {
      if (isNotModified(err)) throw notModified();
      // A 416 names the blob's length, as HTTP asks (Content-Range: bytes */length).
      const size =
        err instanceof TableKitError && err.code === "InvalidRange"
          ? await client.getProperties().catch(() => undefined)
          : undefined;
      if (size) ctx.res.setHeader("content-range", `bytes */${size.contentLength}`);
      throw err;
    });
  // A range's checksum needs its bytes first (at most 4 MiB, checked above): read whole.
  if (checksum) {
    try {
      checkChecksummedLength(checksum, download.contentLength);
    } catch (err) {
      download.readableStreamBody.destroy();
      throw err;
    }
  }
  const rangeBytes = checksum ? await readAll(download.readableStreamBody) : undefined;
  const headers: OutgoingHttpHeaders = {
    ...standardHeaders(ctx),
    ...blobHeaders(download),
    ...md5Headers(download, range !== undefined, checksum === "md5" ? rangeBytes : undefined),
    ...(checksum === "crc64" && rangeBytes ? rangeChecksumHeader("crc64", rangeBytes) : {}),
    "content-length": String(download.contentLength),
    ...(download.contentRange ? { "content-range": download.contentRange } : {}),
    ...overrides,
  };
  ctx.res.writeHead(range ? 206 : 200, headers);
  if (rangeBytes) {
    ctx.res.end(rangeBytes);
    return;
  }
  await streamResponse(ctx, download.readableStreamBody, download.contentLength);
}

/** A stream's bytes, whole (a checksummed range: at most 4 MiB). */
async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
