import type { IncomingMessage } from "node:http";
import { invalidInput, ProtocolError } from "../protocol/protocol-error.js";

/** Strict: a body that is not UTF-8 is refused, never read with U+FFFD in its place. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (413 RequestBodyTooLarge) as
 * soon as the excess arrives, so a huge body is never held in memory, and refusing bytes that are
 * not UTF-8 (400 InvalidInput).
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const bytes = await readBodyBytes(req, maxBytes);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidInput("The request body is not valid UTF-8.");
  }
}

/** Reads a request body as bytes, refusing more than `maxBytes` as soon as the excess arrives. */
export function readBodyBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on("error", (err) => {
      if (!failed) {
        failed = true;
        reject(err);
      }
    });
  });
}

export function tooLarge(maxBytes: number): ProtocolError {
  return new ProtocolError(
    413,
    "RequestBodyTooLarge",
    `The request body is too large and exceeds the maximum permissible limit (${maxBytes} bytes).`,
  );
}
