import { createHash } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import type {
  BlobContainer,
  BlobHTTPHeaders,
  BlobProperties,
  BlobRequestConditions,
} from "../../store/index.js";
import { isNotModified } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { send } from "../http/responses.js";
import { metadataFromHeaders, metadataHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { httpDate } from "../protocol/xml.js";
import { askCore } from "./blob-ask.js";
import { notModified } from "./blob-conditions.js";
import type { BlobContext } from "./blob-service.js";

/**
 * Blob properties and leases over the port: the x-ms-blob-* content headers of Put Blob, Put Block
 * List and Set Blob Properties; Get/Set Blob Metadata; Lease Blob and Lease Container; and the
 * headers every read answers with (content headers, creation time, lease state).
 */

function header(ctx: BlobContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

function invalidHeader(name: string): ProtocolError {
  return new ProtocolError(
    400,
    "InvalidHeaderValue",
    `The value for one of the HTTP headers is not in the correct format: ${name}`,
  );
}

/**
 * The request's x-ms-blob-* content headers as the port's BlobHTTPHeaders (absent ones left out).
 * An upload's x-ms-blob-content-md5 checks its body: 128 bits (400 InvalidMd5 otherwise, as the
 * service answers). Set Blob Properties, and Put Blob of an (empty) append or page blob, store
 * whatever bytes they are given (`"set"`).
 */
export function httpHeadersOf(ctx: BlobContext, use: "upload" | "set" = "upload"): BlobHTTPHeaders {
  const out: BlobHTTPHeaders = {};
  const pairs = [
    ["x-ms-blob-content-type", "blobContentType"],
    ["x-ms-blob-cache-control", "blobCacheControl"],
    ["x-ms-blob-content-encoding", "blobContentEncoding"],
    ["x-ms-blob-content-language", "blobContentLanguage"],
    ["x-ms-blob-content-disposition", "blobContentDisposition"],
  ] as const;
  for (const [name, option] of pairs) {
    const value = header(ctx, name);
    if (value !== undefined && value !== "") out[option] = value;
  }
  const md5 = header(ctx, "x-ms-blob-content-md5");
  if (md5 !== undefined && md5 !== "") {
    if (use === "upload") out.blobContentMD5 = new Uint8Array(blobMd5(ctx)!);
    else {
      const bytes = Buffer.from(md5, "base64");
      if (bytes.length === 0 || bytes.toString("base64") !== md5.trim())
        throw invalidHeader("x-ms-blob-content-md5");
      out.blobContentMD5 = new Uint8Array(bytes);
    }
  }
  return out;
}

/**
 * Put Blob's x-ms-blob-content-md5, checked: 128 bits in Base64, else 400 InvalidMd5. It takes
 * precedence over Content-MD5 as the body's transit check (the Put Blob documentation).
 */
export function blobMd5(ctx: BlobContext): Buffer | undefined {
  const value = header(ctx, "x-ms-blob-content-md5");
  if (value === undefined || value === "") return undefined;
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

/**
 * The MD5 headers of a read: the whole blob's as Content-MD5; on a range, the blob's as
 * x-ms-blob-content-md5, and the range's as Content-MD5 when x-ms-range-get-content-md5 asks
 * (content-checksum.ts checks the range).
 */
export function md5Headers(p: BlobProperties, ranged: boolean, rangeBytes?: Buffer): OutgoingHttpHeaders {
  const whole = p.contentMD5 ? Buffer.from(p.contentMD5).toString("base64") : undefined;
  if (rangeBytes) {
    return {
      "content-md5": createHash("md5").update(rangeBytes).digest("base64"),
      ...(whole ? { "x-ms-blob-content-md5": whole } : {}),
    };
  }
  if (!whole) return {};
  // The whole blob's MD5 always travels as x-ms-blob-content-md5 (Azurite's tests read it from a
  // whole download too); Content-MD5 only when the bytes sent are the whole blob.
  return ranged
    ? { "x-ms-blob-content-md5": whole }
    : { "content-md5": whole, "x-ms-blob-content-md5": whole };
}

/** Set Blob Properties: the content headers replaced (each one not sent is cleared). */
export async function setBlobProperties(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCore(caller, "writeBlob", { container: container.containerName, blob: name });
  const headers = httpHeadersOf(ctx, "set");
  const result = await container.getBlobClient(name).setHTTPHeaders(headers, { conditions });
  send(ctx, 200, { etag: result.etag, "last-modified": httpDate(result.lastModified) });
}

/** Set Blob Metadata: replaced by the request's x-ms-meta-* headers. */
export async function setBlobMetadata(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCore(caller, "writeBlob", { container: container.containerName, blob: name });
  const metadata = metadataFromHeaders(ctx.req);
  const result = await container.getBlobClient(name).setMetadata(metadata, { conditions });
  send(ctx, 200, {
    etag: result.etag,
    "last-modified": httpDate(result.lastModified),
    "x-ms-request-server-encrypted": "true",
  });
}

/** Get Blob Metadata (GET or HEAD comp=metadata): the ETag, time and metadata, no body. */
export async function getBlobMetadata(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCore(caller, "readBlob", { container: container.containerName, blob: name });
  const p = await container
    .getBlobClient(name)
    .getProperties({ conditions })
    .catch((err: unknown) => {
      if (isNotModified(err)) throw notModified();
      throw err;
    });
  send(ctx, 200, {
    etag: p.etag,
    "last-modified": httpDate(p.lastModified),
    ...metadataHeaders(p.metadata),
  });
}

/**
 * Lease Blob (`blob` given) and Lease Container: x-ms-lease-action with its headers checked as the
 * service does (400 InvalidHeaderValue / MissingRequiredHeader), then the port's lease client. A
 * blob's conditional headers are evaluated against its properties before the operation.
 */
export async function leaseResource(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  blob: string | undefined,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCore(
    caller,
    blob === undefined ? "setContainerMetadata" : "writeBlob",
    blob === undefined
      ? { container: container.containerName }
      : { container: container.containerName, blob },
  );
  // The lease id travels in its own header here; the rest are the blob's conditions.
  const { leaseId: _id, ...blobConditions } = conditions;
  const options = blob === undefined ? {} : { conditions: blobConditions };
  const action = header(ctx, "x-ms-lease-action");
  const leaseId = header(ctx, "x-ms-lease-id");
  const proposed = header(ctx, "x-ms-proposed-lease-id");
  const required = (name: string, value: string | undefined): string => {
    if (value === undefined || value === "") {
      throw new ProtocolError(
        400,
        "MissingRequiredHeader",
        `An HTTP header that's mandatory for this request is not specified: ${name}`,
      );
    }
    return value;
  };
  const client = (id?: string) =>
    blob === undefined
      ? container.getBlobLeaseClient(id)
      : container.getBlobClient(blob).getBlobLeaseClient(id);
  const run = async () => {
    switch (action) {
      case "acquire": {
        const duration = seconds(
          required("x-ms-lease-duration", header(ctx, "x-ms-lease-duration")),
          "x-ms-lease-duration",
        );
        if (duration !== -1 && (duration < 15 || duration > 60)) throw invalidHeader("x-ms-lease-duration");
        return { status: 201, lease: await client(proposed).acquireLease(duration, options) };
      }
      case "renew":
        return { status: 200, lease: await client(required("x-ms-lease-id", leaseId)).renewLease(options) };
      case "change": {
        const to = required("x-ms-proposed-lease-id", proposed);
        return {
          status: 200,
          lease: await client(required("x-ms-lease-id", leaseId)).changeLease(to, options),
        };
      }
      case "release":
        return { status: 200, lease: await client(required("x-ms-lease-id", leaseId)).releaseLease(options) };
      case "break": {
        const text = header(ctx, "x-ms-lease-break-period");
        const period = text === undefined ? undefined : seconds(text, "x-ms-lease-break-period");
        if (period !== undefined && (period < 0 || period > 60))
          throw invalidHeader("x-ms-lease-break-period");
        const lease = await client().breakLease(period, options);
        return { status: 202, lease };
      }
      default:
        throw action === undefined
          ? required("x-ms-lease-action", action)
          : invalidHeader("x-ms-lease-action");
    }
  };
  const { status, lease } = await run();
  send(ctx, status, {
    etag: lease.etag,
    "last-modified": httpDate(lease.lastModified),
    ...(action !== "break" && action !== "release" && lease.leaseId
      ? { "x-ms-lease-id": lease.leaseId }
      : {}),
    ...(lease.leaseTime === undefined ? {} : { "x-ms-lease-time": String(lease.leaseTime) }),
  });
}

function seconds(text: string, name: string): number {
  if (!/^-?\d{1,9}$/.test(text.trim())) throw invalidHeader(name);
  return Number(text);
}
