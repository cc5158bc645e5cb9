import { createHash } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import { Crc64 } from "../protocol/crc64.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import type { BlobContext } from "./blob-service.js";

/**
 * Transactional checksums of a request body (Put Blob, Put Block, Append Block, Put Page): a
 * `Content-MD5` must be 128 bits in Base64 (else 400 InvalidMd5), an `x-ms-content-crc64` at least
 * 8 bytes in Base64 (else 400 InvalidHeaderValue; CRC-64/NVME, protocol/crc64.ts), not both (400
 * BothCrc64AndMd5HeaderPresent); each must match the body the server received (else 400
 * Md5Mismatch / Crc64Mismatch, and nothing is written). A write answers with the checksum it
 * verified; Put Block, Append Block and Put Page, given none, answer the CRC-64 of the body they
 * took ("returned when the Content-MD5 header isn't present in the request", their references).
 */
export interface ExpectedChecksums {
  readonly md5?: Buffer;
  readonly crc64?: Buffer;
}

/** The checksums the request carries, checked for form; undefined when it carries none. */
export function expectedChecksums(ctx: BlobContext): ExpectedChecksums | undefined {
  const md5Header = ctx.req.headers["content-md5"];
  const crcHeader = ctx.req.headers["x-ms-content-crc64"];
  if (typeof md5Header === "string" && typeof crcHeader === "string") {
    throw new ProtocolError(
      400,
      "BothCrc64AndMd5HeaderPresent",
      "Both x-ms-content-crc64 header and Content-MD5 header are present.",
    );
  }
  if (typeof crcHeader === "string") {
    const digest = Buffer.from(crcHeader, "base64");
    if (digest.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(crcHeader.trim())) {
      throw new ProtocolError(
        400,
        "InvalidHeaderValue",
        "The value for one of the HTTP headers is not in the correct format: x-ms-content-crc64",
      );
    }
    // The service compares the first 8 bytes: a longer value passes the form check and then must match.
    return { crc64: digest };
  }
  if (typeof md5Header !== "string") return undefined;
  const digest = Buffer.from(md5Header, "base64");
  if (digest.length !== 16 || !/^[A-Za-z0-9+/]{22}==$/.test(md5Header.trim())) {
    throw new ProtocolError(
      400,
      "InvalidMd5",
      "The MD5 value specified in the request is invalid. The MD5 value must be 128 bits and Base64-encoded.",
    );
  }
  return { md5: digest };
}

function md5Mismatch(): ProtocolError {
  return new ProtocolError(
    400,
    "Md5Mismatch",
    "The MD5 value specified in the request did not match with the MD5 value calculated by the server.",
  );
}

function crc64Mismatch(): ProtocolError {
  return new ProtocolError(
    400,
    "Crc64Mismatch",
    "The CRC64 value specified in the request did not match with the CRC64 value calculated by the server.",
  );
}

/** A running check of the expected checksums over chunks. */
function checker(expected: ExpectedChecksums) {
  const md5 = expected.md5 ? createHash("md5") : undefined;
  const crc = expected.crc64 ? new Crc64() : undefined;
  return {
    update(chunk: Uint8Array) {
      md5?.update(chunk);
      crc?.update(chunk);
    },
    /** The failure to answer, or the headers a write answers with. */
    finish(): ProtocolError | OutgoingHttpHeaders {
      if (md5) {
        const digest = md5.digest();
        return digest.equals(expected.md5!) ? { "content-md5": digest.toString("base64") } : md5Mismatch();
      }
      if (crc) {
        const digest = crc.digest();
        return digest.equals(expected.crc64!)
          ? { "x-ms-content-crc64": digest.toString("base64") }
          : crc64Mismatch();
      }
      return {};
    },
  };
}

/** Checks bytes already read against the request's checksums; the headers to answer with. */
export function checkChecksums(
  expected: ExpectedChecksums | undefined,
  bytes: Buffer,
  /** Answer with this checksum when the request carries none. */
  echo?: "crc64",
): OutgoingHttpHeaders {
  if (!expected) return echo ? rangeChecksumHeader(echo, bytes) : {};
  const check = checker(expected);
  check.update(bytes);
  const result = check.finish();
  if (result instanceof ProtocolError) throw result;
  return result;
}

/**
 * The body, passed through; when a checksum is expected, the stream fails at its end (before the
 * writer commits) if the bytes do not match. A writer may wrap the failure in its own error:
 * `failure()` is then the mismatch to answer; `headers()` what the write answers with.
 */
export function checkedBody(
  expected: ExpectedChecksums | undefined,
  body: AsyncIterable<Buffer>,
  /** Answer with this checksum, computed over the body, when the request carries none. */
  echo?: "crc64",
): {
  body: AsyncIterable<Buffer>;
  failure: () => ProtocolError | undefined;
  headers: () => OutgoingHttpHeaders;
} {
  if (!expected) {
    if (!echo) return { body, failure: () => undefined, headers: () => ({}) };
    // No checksum came: the answer's x-ms-content-crc64 is computed over the bytes as they pass.
    const crc = new Crc64();
    let digest: Buffer | undefined;
    return {
      body: (async function* () {
        for await (const chunk of body) {
          crc.update(chunk);
          yield chunk;
        }
        digest = crc.digest();
      })(),
      failure: () => undefined,
      headers: () => (digest ? { "x-ms-content-crc64": digest.toString("base64") } : {}),
    };
  }
  let failed: ProtocolError | undefined;
  let headers: OutgoingHttpHeaders = {};
  return {
    body: (async function* () {
      const check = checker(expected);
      for await (const chunk of body) {
        check.update(chunk);
        yield chunk;
      }
      const result = check.finish();
      if (result instanceof ProtocolError) {
        failed = result;
        throw failed;
      }
      headers = result;
    })(),
    failure: () => failed,
    headers: () => headers,
  };
}

/** Runs a write of a checked body; a wrapped checksum failure comes back as the mismatch. */
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

/** Get Blob returns a range's checksum only for ranges up to this size. */
const MAX_CHECKSUMMED_RANGE = 4 * 1024 * 1024;

/**
 * `x-ms-range-get-content-md5` / `x-ms-range-get-content-crc64: true` on a read: which checksum of
 * the range to answer with. 400 InvalidHeaderValue without a bounded range or with both;
 * OutOfRangeInput past 4 MiB.
 */
export function rangeChecksumWanted(
  ctx: BlobContext,
  range: { offset: number; count?: number } | undefined,
): "md5" | "crc64" | undefined {
  const md5 = ctx.req.headers["x-ms-range-get-content-md5"] === "true";
  const crc64 = ctx.req.headers["x-ms-range-get-content-crc64"] === "true";
  if (!md5 && !crc64) return undefined;
  const name = crc64 ? "x-ms-range-get-content-crc64" : "x-ms-range-get-content-md5";
  if (range?.count !== undefined && range.count > MAX_CHECKSUMMED_RANGE && !(md5 && crc64)) {
    throw new ProtocolError(400, "OutOfRangeInput", `${name} is served for ranges of at most 4 MiB.`);
  }
  // An open range ("bytes=3-") is checked once its length is known (checksummedLength).
  if ((md5 && crc64) || !range) {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      `The value for one of the HTTP headers is not in the correct format: ${name} needs a range of at most 4 MiB (and not both checksums).`,
    );
  }
  return md5 ? "md5" : "crc64";
}

/** An open range whose checksum was asked: OutOfRangeInput once it turns out longer than 4 MiB. */
export function checkChecksummedLength(kind: "md5" | "crc64", length: number): void {
  if (length > MAX_CHECKSUMMED_RANGE) {
    const name = kind === "crc64" ? "x-ms-range-get-content-crc64" : "x-ms-range-get-content-md5";
    throw new ProtocolError(400, "OutOfRangeInput", `${name} is served for ranges of at most 4 MiB.`);
  }
}

/** The header carrying a read range's checksum. */
export function rangeChecksumHeader(kind: "md5" | "crc64", bytes: Buffer): OutgoingHttpHeaders {
  if (kind === "md5") return { "content-md5": createHash("md5").update(bytes).digest("base64") };
  return { "x-ms-content-crc64": new Crc64().update(bytes).digest().toString("base64") };
}
