import { createHash } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import type { FetchedSource } from "./blob-copy.js";

/**
 * Reads a copy source's bytes whole (an append block or page range from a URL is at most a few
 * MiB): RequestBodyTooLarge past `limit`, without reading further; Md5Mismatch when the caller
 * named the MD5 the bytes must have.
 */
export async function readSourceBlock(
  read: FetchedSource,
  limit: number,
  options: { sourceContentMD5?: Uint8Array; abortSignal?: AbortSignal },
): Promise<Uint8Array> {
  const tooLarge = (bytes: number) =>
    new TableKitError(
      "RequestBodyTooLarge",
      `The source holds more than ${limit} bytes, the most one block takes`,
      {
        details: { bytes, limit },
      },
    );
  if (read.contentLength > limit) {
    read.body.destroy();
    throw tooLarge(read.contentLength);
  }
  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of read.body) {
      options.abortSignal?.throwIfAborted();
      const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += part.byteLength;
      if (total > limit) throw tooLarge(total);
      parts.push(part);
    }
  } finally {
    read.body.destroy();
  }
  const bytes = Buffer.concat(parts, total);
  const expected = options.sourceContentMD5;
  if (expected !== undefined) {
    const actual = createHash("md5").update(bytes).digest();
    if (!actual.equals(Buffer.from(expected))) {
      throw new TableKitError(
        "Md5Mismatch",
        "The MD5 value specified in the request did not match the source.",
        {
          details: {
            expected: Buffer.from(expected).toString("base64"),
            actual: actual.toString("base64"),
          },
        },
      );
    }
  }
  return bytes;
}
