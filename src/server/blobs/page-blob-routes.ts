import { TableKitError } from "../../model/index.js";
import type { BlobContainer, BlobRequestConditions, PageBlobRequestConditions } from "../../store/index.js";
import { checkSnapshot, isNotModified } from "../../store/index.js";
import { readBodyBytes } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { metadataFromHeaders } from "../protocol/metadata-headers.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { httpDate } from "../protocol/xml.js";
import { notModified } from "./blob-conditions.js";
import { httpHeadersOf } from "./blob-property-routes.js";
import type { BlobContext } from "./blob-service.js";
import { checkChecksums, expectedChecksums } from "./content-checksum.js";
import { tagsHeader } from "./tag-headers.js";

/**
 * Page blobs and sealed append blobs over the port: Put Blob (PageBlob), Put Page (update, clear),
 * Get Page Ranges, Set Blob Properties' resize and sequence-number actions, Seal Blob. The caller
 * (blob-routes.ts) has authorized the request and refused the headers serve does not keep; this
 * file imports nothing of the routes, so it joins no import circle.
 */

function header(ctx: BlobContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

function writeResult(
  ctx: BlobContext,
  status: number,
  result: { etag: string; lastModified: Date },
  extra: Record<string, string> = {},
): void {
  send(ctx, status, {
    etag: result.etag,
    "last-modified": httpDate(result.lastModified),
    "x-ms-request-server-encrypted": "true",
    ...extra,
  });
}

function invalidHeader(name: string): ProtocolError {
  return new ProtocolError(
    400,
    "InvalidHeaderValue",
    `The value for one of the HTTP headers is not in the correct format: ${name}`,
  );
}

function missingHeader(name: string): ProtocolError {
  return new ProtocolError(
    400,
    "MissingRequiredHeader",
    `An HTTP header that's mandatory for this request is not specified: ${name}`,
  );
}

/** A page blob's size or a sequence number from a header: a decimal integer (InvalidHeaderValue). */
function numberHeader(ctx: BlobContext, name: string): number | undefined {
  const value = header(ctx, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,16}$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) throw invalidHeader(name);
  return Number(value);
}

/** The port's answer to a bad size or number, as the service words it for the header that carried it. */
async function asHeaderValue<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TableKitError && err.code === "InvalidInput") throw invalidHeader(name);
    throw err;
  }
}

/** Put Blob with `x-ms-blob-type: PageBlob`: an empty page blob of `x-ms-blob-content-length` bytes. */
export async function putPageBlob(
  ctx: BlobContext,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  const size = numberHeader(ctx, "x-ms-blob-content-length");
  if (size === undefined) throw missingHeader("x-ms-blob-content-length");
  if (Number(header(ctx, "content-length") ?? "0") !== 0) throw invalidHeader("Content-Length");
  const sequence = numberHeader(ctx, "x-ms-blob-sequence-number");
  const result = await asHeaderValue("x-ms-blob-content-length", () =>
    container.getPageBlobClient(name).create(size, {
      // The x-ms-blob-* content headers and x-ms-tags, as Put Blob takes them for any blob type.
      // An empty page blob's x-ms-blob-content-md5 is a property, kept as given (blob-routes.ts putBlob).
      blobHTTPHeaders: httpHeadersOf(ctx, "set"),
      ...tagsHeader(ctx),
      metadata: metadataFromHeaders(ctx.req),
      conditions,
      ...(sequence === undefined ? {} : { blobSequenceNumber: sequence }),
    }),
  );
  writeResult(ctx, 201, result);
}

/** `bytes=start-end` of x-ms-range (which wins) or Range: a page write's range, end inclusive. */
function pageRange(ctx: BlobContext): { offset: number; count: number } {
  const text = header(ctx, "x-ms-range") ?? header(ctx, "range");
  if (text === undefined) throw missingHeader("Range");
  const match = /^bytes=(\d{1,16})-(\d{1,16})$/.exec(text.trim());
  if (!match || Number(match[2]) < Number(match[1])) {
    throw new TableKitError("InvalidPageRange", "The page range specified is invalid.");
  }
  const offset = Number(match[1]);
  return { offset, count: Number(match[2]) - offset + 1 };
}

function sequenceConditions(ctx: BlobContext): PageBlobRequestConditions {
  const le = numberHeader(ctx, "x-ms-if-sequence-number-le");
  const lt = numberHeader(ctx, "x-ms-if-sequence-number-lt");
  const eq = numberHeader(ctx, "x-ms-if-sequence-number-eq");
  return {
    ...(le === undefined ? {} : { ifSequenceNumberLessThanOrEqualTo: le }),
    ...(lt === undefined ? {} : { ifSequenceNumberLessThan: lt }),
    ...(eq === undefined ? {} : { ifSequenceNumberEqualTo: eq }),
  };
}

/** Put Page: `x-ms-page-write: update` writes the body over the range, `clear` zeros it. */
export async function putPage(
  ctx: BlobContext,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
  maxPageWriteBytes: number,
): Promise<void> {
  const write = header(ctx, "x-ms-page-write");
  if (write === undefined) throw missingHeader("x-ms-page-write");
  if (write !== "update" && write !== "clear") throw invalidHeader("x-ms-page-write");
  const { offset, count } = pageRange(ctx);
  const sequence = sequenceConditions(ctx);
  const client = container.getPageBlobClient(name);
  let verified = {};
  let bytes: Buffer | undefined;
  if (write === "update") {
    const expected = expectedChecksums(ctx);
    bytes = await readBodyBytes(ctx.req, maxPageWriteBytes);
    // A body of another length than the range: the service's answer (Azurite's too) is InvalidPageRange.
    if (bytes.length !== count)
      throw new TableKitError("InvalidPageRange", "The page range specified is invalid.");
    // The service answers every Put Page with the body's checksum: the MD5 asked for, else the CRC-64.
    verified = checkChecksums(expected, bytes, "crc64");
  } else if (Number(header(ctx, "content-length") ?? "0") !== 0) {
    throw invalidHeader("Content-Length");
  }
  const options = { conditions: { ...conditions, ...sequence } };
  const result = await (bytes
    ? client.uploadPages(bytes, offset, count, options)
    : client.clearPages(offset, count, options));
  writeResult(ctx, 201, result, {
    "x-ms-blob-sequence-number": String(result.blobSequenceNumber),
    ...verified,
  });
}

/**
 * Get Page Ranges: the written ranges (of the blob or of `snapshot`, of the request's range) as
 * XML; with `prevsnapshot`, the ranges written and cleared since that older snapshot.
 */
export async function getPageRanges(
  ctx: BlobContext,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
  range: { offset: number; count?: number } | undefined,
  snapshot?: string,
): Promise<void> {
  const blob = container.getPageBlobClient(name);
  const client = snapshot === undefined ? blob : blob.withSnapshot(snapshot);
  const previous = previousSnapshot(ctx);
  const options = { conditions };
  const list = await (previous === undefined
    ? client.getPageRanges(range?.offset, range?.count, options)
    : client.getPageRangesDiff(range?.offset, range?.count, previous, options)
  ).catch((err: unknown) => {
    if (isNotModified(err)) throw notModified();
    throw err;
  });
  const xml = (tag: string, r: { start: number; end: number }) =>
    `<${tag}><Start>${r.start}</Start><End>${r.end}</End></${tag}>`;
  // A diff lists written and cleared ranges in offset order, as the service does.
  const entries = [
    ...list.pageRange.map((r) => ({ r, tag: "PageRange" })),
    ...list.clearRange.map((r) => ({ r, tag: "ClearRange" })),
  ].sort((a, b) => a.r.start - b.r.start);
  const body = `<?xml version="1.0" encoding="utf-8"?><PageList>${entries
    .map((e) => xml(e.tag, e.r))
    .join("")}</PageList>`;
  send(
    ctx,
    200,
    {
      "content-type": "application/xml",
      etag: list.etag,
      "last-modified": httpDate(list.lastModified),
      "x-ms-blob-content-length": String(list.blobContentLength),
    },
    ctx.method === "HEAD" ? undefined : body,
  );
}

/**
 * `prevsnapshot`, checked; `x-ms-previous-snapshot-url` (a managed disk's snapshot in another
 * blob) is not served: a diff compares two versions of one blob here.
 */
function previousSnapshot(ctx: BlobContext): string | undefined {
  if (header(ctx, "x-ms-previous-snapshot-url") !== undefined) {
    throw new ProtocolError(
      501,
      "NotImplemented",
      "tablekit serve does not serve page range diffs against another blob's snapshot (x-ms-previous-snapshot-url) (docs/server.md lists what it serves).",
    );
  }
  const given = ctx.query.get("prevsnapshot");
  if (given === null) return undefined;
  try {
    return checkSnapshot(given);
  } catch {
    throw new ProtocolError(
      400,
      "InvalidQueryParameterValue",
      "Value for one of the query parameters specified in the request URI is invalid: prevsnapshot.",
    );
  }
}

/** Whether Set Blob Properties asks a page blob's resize or sequence-number action. */
export function asksPageProperties(ctx: BlobContext): boolean {
  return (
    header(ctx, "x-ms-blob-content-length") !== undefined ||
    header(ctx, "x-ms-sequence-number-action") !== undefined
  );
}

/** Set Blob Properties' page blob actions: resize (`x-ms-blob-content-length`), then the sequence number. */
export async function setPageProperties(
  ctx: BlobContext,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  const size = numberHeader(ctx, "x-ms-blob-content-length");
  const action = header(ctx, "x-ms-sequence-number-action");
  const sequence = numberHeader(ctx, "x-ms-blob-sequence-number");
  if (action !== undefined && action !== "max" && action !== "update" && action !== "increment") {
    throw invalidHeader("x-ms-sequence-number-action");
  }
  if (action === "increment" && sequence !== undefined) throw invalidHeader("x-ms-blob-sequence-number");
  if ((action === "max" || action === "update") && sequence === undefined)
    throw missingHeader("x-ms-blob-sequence-number");
  const client = container.getPageBlobClient(name);
  // A resize and a sequence-number action in one request: the action is pinned to the resize's ETag.
  let result =
    size === undefined
      ? undefined
      : await asHeaderValue("x-ms-blob-content-length", () => client.resize(size, { conditions }));
  if (action) {
    const leased = conditions.leaseId === undefined ? {} : { leaseId: conditions.leaseId };
    result = await client.updateSequenceNumber(action, sequence, {
      conditions: result ? { ifMatch: result.etag, ...leased } : conditions,
    });
  }
  if (!result) throw missingHeader("x-ms-sequence-number-action");
  writeResult(ctx, 200, result, { "x-ms-blob-sequence-number": String(result.blobSequenceNumber) });
}

/** Seal Blob: an append blob takes no more appends (`x-ms-blob-condition-appendpos` seals only at that length). */
export async function sealBlob(
  ctx: BlobContext,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  const position = numberHeader(ctx, "x-ms-blob-condition-appendpos");
  const client = container.getAppendBlobClient(name);
  const result = await client.seal({
    conditions: { ...conditions, ...(position === undefined ? {} : { appendPosition: position }) },
  });
  writeResult(ctx, 200, result, { "x-ms-blob-sealed": "true" });
}
