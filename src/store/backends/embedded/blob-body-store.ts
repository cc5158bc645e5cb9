import type { BackendBody } from "../../blobs/blob-backend.js";
import type { ContentWriter, EmbeddedBlobContent } from "./blob-content.js";
import { toTableKitError } from "./errors.js";

/** Bodies up to this size live in their row: one SQLite write instead of a file and its sync. */
export const INLINE_MAX = 64 * 1024;

/**
 * Stores a body: up to `inlineMax` bytes stay in memory to go into a row (one SQLite write, no
 * file); anything larger streams into new content (durable once this returns). `inlineMax` -1:
 * always content. A failing body discards what was written.
 */
export async function storeBody(
  content: EmbeddedBlobContent,
  body: BackendBody,
  inlineMax: number,
): Promise<{ length: number; inline?: Buffer; writer?: ContentWriter }> {
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let writer: ContentWriter | undefined;
  try {
    const chunks = body.kind === "bytes" ? [body.bytes] : body.chunks;
    for await (const chunk of chunks) {
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
    if (!writer && inlineMax >= 0) return { length: headBytes, inline: Buffer.concat(head) };
    writer ??= content.create();
    return { length: await writer.finish(), writer };
  } catch (err) {
    await writer?.discard();
    throw toTableKitError(err);
  }
}
