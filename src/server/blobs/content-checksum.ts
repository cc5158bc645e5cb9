import { createHash } from "node:crypto";
import { ProtocolError } from "../protocol/protocol-error.js";
import type { BlobContext } from "./blob-service.js";
import { notServed } from "./blob-service.js";

/**
 * Transactional checksums of a request body (Put Blob, Put Block, Append Block): a `Content-MD5`
 * must be 128 bits in Base64 (else 400 InvalidMd5) and must match the body the server received
 * (else 400 Md5Mismatch, and nothing is written). `x-ms-content-crc64` is not served: refused with
 * 501 rather than accepted unchecked.
 */

/** The expected MD5 of the body, or undefined when the request carries none. */
export function expectedMd5(ctx: BlobContext): Buffer | undefined {
  if (ctx.req.headers["x-ms-content-crc64"] !== undefined) {
    throw notServed("the x-ms-content-crc64 header (CRC64 transactional checksums)");
  }
  const value = ctx.req.headers["content-md5"];
  if (typeof value !== "string") return undefined;
  const digest = Buffer.from(value, "base64");
  if (digest.length !== 16 || !/^[A-Za-z0-9+/]{22}==$/.test(value.trim())) {
    throw new ProtocolError(
      400,
      "InvalidMd5",
      "The MD5 value specified in the request is invalid. The MD5 value must be 128 bits and Base64-encoded.",
    );
  }
  return digest;
}

function mismatch(): ProtocolError {
  return new ProtocolError(
    400,
    "Md5Mismatch",
    "The MD5 value specified in the request did not match with the MD5 value calculated by the server.",
  );
}

/** Checks bytes already read against the request's Content-MD5. */
export function checkMd5(expected: Buffer | undefined, bytes: Buffer): void {
  if (expected && !createHash("md5").update(bytes).digest().equals(expected)) throw mismatch();
}

/**
 * The body, passed through; when a Content-MD5 is expected, the stream fails at its end (before
 * the writer commits) if the bytes do not match. A writer may wrap the failure in its own error:
 * `failure()` is then the Md5Mismatch to answer.
 */
export function checkedBody(
  expected: Buffer | undefined,
  body: AsyncIterable<Buffer>,
): { body: AsyncIterable<Buffer>; failure: () => ProtocolError | undefined } {
  if (!expected) return { body, failure: () => undefined };
  let failed: ProtocolError | undefined;
  return {
    body: (async function* () {
      const hash = createHash("md5");
      for await (const chunk of body) {
        hash.update(chunk);
        yield chunk;
      }
      if (!hash.digest().equals(expected)) {
        failed = mismatch();
        throw failed;
      }
    })(),
    failure: () => failed,
  };
}

/** Runs a write of a checked body; a wrapped checksum failure comes back as Md5Mismatch. */
export async function writeChecked<T>(
  checked: { failure: () => ProtocolError | undefined },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw checked.failure() ?? err;
  }
}
