import type { IncomingMessage } from "node:http";
import { invalidInput, ProtocolError } from "../protocol/protocol-error.js";

/** Strict: a body that is not UTF-8 is refused, never read with U+FFFD in its place. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * How much of a body past the limit is still read (and dropped) before the 413 is sent: a client
 * that writes its whole request before it reads the answer (the SDKs do) then gets the answer
 * instead of a reset connection. Past this, the answer goes at once and the connection closes.
 */
export const DRAIN_BYTES = 16 * 1024 * 1024;

/** Reads a request body as UTF-8 text (`readBodyBytes`); bytes that are not UTF-8 are 400 InvalidInput. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const bytes = await readBodyBytes(req, maxBytes);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidInput("The request body is not valid UTF-8.");
  }
}

/**
 * Reads a request body as bytes. A body past `maxBytes` is 413 RequestBodyTooLarge and never held
 * in memory: its bytes are dropped as they arrive, up to `DRAIN_BYTES` more, then the 413 is
 * answered (at once when even that is exceeded, declared or sent).
 */
export function readBodyBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes + DRAIN_BYTES) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      reject(err);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes + DRAIN_BYTES) return fail(tooLarge(maxBytes));
      if (size > maxBytes) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (settled) return;
      if (size > maxBytes) return fail(tooLarge(maxBytes));
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on("error", fail);
  });
}

export function tooLarge(maxBytes: number): ProtocolError {
  return new ProtocolError(
    413,
    "RequestBodyTooLarge",
    `The request body is too large and exceeds the maximum permissible limit (${maxBytes} bytes).`,
  );
}
