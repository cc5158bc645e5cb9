import type { Writable } from "node:stream";
import { TableKitError } from "../../model/index.js";
import type { BackendBody } from "./blob-backend.js";

/** What `upload`, `uploadData` and `appendBlock` take: text (UTF-8), bytes or an ArrayBuffer. */
export type BlobBytes = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/** What `uploadStream` takes: a Node Readable or any async iterable of byte chunks. */
export type BlobStream = NodeJS.ReadableStream | AsyncIterable<Uint8Array>;

/** The bytes of `data`, without copying what is already bytes. */
export function toBytes(data: unknown): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, "utf8");
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TableKitError(
    "InvalidInput",
    "A blob body is a string, Uint8Array, Buffer, ArrayBuffer or ArrayBufferView",
  );
}

/** Checks `contentLength` against the body, as the service checks Content-Length. */
export function bytesOfLength(data: unknown, contentLength: unknown, limit: number): Uint8Array {
  const bytes = toBytes(data);
  if (contentLength !== undefined && contentLength !== bytes.byteLength) {
    throw new TableKitError(
      "InvalidInput",
      `contentLength is ${String(contentLength)} but the body holds ${bytes.byteLength} bytes`,
    );
  }
  return checkSize(bytes, limit);
}

export function checkSize(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.byteLength > limit) {
    throw new TableKitError(
      "RequestBodyTooLarge",
      `The body holds ${bytes.byteLength} bytes; the most is ${limit}`,
      {
        details: { bytes: bytes.byteLength, limit },
      },
    );
  }
  return bytes;
}

export interface StreamChecks {
  readonly limit: number;
  /** The length the caller declared: a stream longer or shorter is InvalidInput. */
  readonly expectedLength?: number;
  readonly abortSignal?: AbortSignal;
  readonly onProgress?: (progress: { loadedBytes: number }) => void;
}

/**
 * The chunks of a stream, checked as they pass: each must be bytes, the total must stay within the
 * limit, and an abort stops the upload. The backend sees the failure as its source throwing, and
 * discards what it wrote.
 */
export function checkedStream(source: unknown, checks: StreamChecks): BackendBody {
  if (source === null || typeof source !== "object" || !(Symbol.asyncIterator in source)) {
    throw new TableKitError(
      "InvalidInput",
      "uploadStream takes a Readable or an AsyncIterable of Uint8Array chunks",
    );
  }
  const iterable = source as AsyncIterable<unknown>;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    let loaded = 0;
    for await (const chunk of iterable) {
      if (checks.abortSignal?.aborted) {
        throw new TableKitError("Aborted", "The operation was aborted", { cause: checks.abortSignal.reason });
      }
      if (!(chunk instanceof Uint8Array)) {
        throw new TableKitError(
          "InvalidInput",
          "A stream chunk is not bytes (a Readable in object or text mode?)",
        );
      }
      loaded += chunk.byteLength;
      if (loaded > checks.limit) {
        throw new TableKitError("RequestBodyTooLarge", `The stream holds more than ${checks.limit} bytes`, {
          details: { limit: checks.limit },
        });
      }
      if (checks.expectedLength !== undefined && loaded > checks.expectedLength)
        throw lengthMismatch(checks.expectedLength);
      if (chunk.byteLength > 0) yield chunk;
      checks.onProgress?.({ loadedBytes: loaded });
    }
    if (checks.expectedLength !== undefined && loaded !== checks.expectedLength)
      throw lengthMismatch(checks.expectedLength);
  }
  return { kind: "stream", chunks: chunks() };
}

function lengthMismatch(expected: number): TableKitError {
  return new TableKitError(
    "InvalidInput",
    `contentLength is ${expected} but the stream holds a different number of bytes`,
  );
}

/**
 * A download body that writes itself to a Writable faster than a pipe (the embedded file store's:
 * reads kept ahead in buffers it reuses). `body[sendBody](out)` writes every byte and ends `out`,
 * resolving once they are sent; a failure destroys `out`. Only on a body nobody has read from.
 */
export const sendBody: unique symbol = Symbol("tablekit.sendBody");

export interface SendsItself {
  [sendBody](out: Writable): Promise<void>;
}

export function sendsItself(body: object): body is SendsItself {
  return typeof (body as Partial<SendsItself>)[sendBody] === "function";
}
