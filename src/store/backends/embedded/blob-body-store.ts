import { createHash } from "node:crypto";
import type { BackendBody } from "../../blobs/blob-backend.js";
import type { ContentWriter, EmbeddedBlobContent } from "./blob-content.js";
import { toTableKitError } from "./errors.js";

/** Bodies up to this size live in their row: one SQLite write instead of a file and its sync. */
export const INLINE_MAX = 64 * 1024;

/**
 * Stores a body: up to `inlineMax` bytes stay in memory to go into a row (one SQLite write, no
 * file); anything larger streams into new content (durable once this returns). `inlineMax` -1:
 * always content. A failing body discards what was written. `md5`: the body's, base64 (the
 * Content-MD5 a single upload keeps).
 */
export async function storeBody(
  content: EmbeddedBlobContent,
  body: BackendBody,
  inlineMax: number,
): Promise<{ length: number; md5: string; inline?: Buffer; writer?: ContentWriter }> {
  const hash = createHash("md5");
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let writer: ContentWriter | undefined;
  try {
    const chunks = body.kind === "bytes" ? [body.bytes] : body.chunks;
    for await (const chunk of chunks) {
      hash.update(chunk);
      if (!writer && headBytes + chunk.byteLength <= inlineMax) {
        head.push(chunk);
        headBytes += chunk.byteLength;
        continue;
      }
      if (!writer) {
        writer = content.create();
        for (const h of head) await writer.write(h);
      }
      await writer.write(chunk);
    }
    const md5 = hash.digest("base64");
    if (!writer && inlineMax >= 0) return { length: headBytes, md5, inline: Buffer.concat(head) };
    writer ??= content.create();
    return { length: await writer.finish(), md5, writer };
  } catch (err) {
    await writer?.discard();
    throw toTableKitError(err);
  }
}
