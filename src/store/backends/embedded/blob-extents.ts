import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type { EmbeddedBlobContent } from "./blob-content.js";

/**
 * What a blob row's `content` names: one content id (its bytes, whole), or — a block blob committed
 * from blocks — its extents as JSON, `[[id, offset, length], …]` in order, each a range of a file
 * that belongs to this row alone (a hard link of its own), so a row's files are removed with it.
 */
export type Extent = readonly [id: string, offset: number, length: number];

/** Extents opened at once when a read starts (their bytes then survive any writer); the rest as the read reaches them. */
const OPENED_AHEAD = 256;

export function isComposed(content: string): boolean {
  return content.startsWith("[");
}

export function composedContent(extents: readonly Extent[]): string {
  return JSON.stringify(extents);
}

/** The extents of a row's content of `length` bytes (none for inline bytes). */
export function extentsOf(content: string, length: number): Extent[] {
  if (isComposed(content)) return JSON.parse(content) as Extent[];
  return content === "" ? [] : [[content, 0, length]];
}

/** The content ids a row's content holds: what to remove once no row names it. */
export function contentIds(content: string): string[] {
  return [...new Set(extentsOf(content, 0).map(([id]) => id))];
}

/** The extents covering `count` bytes from `offset`. */
export function sliceExtents(extents: readonly Extent[], offset: number, count: number): Extent[] {
  const slice: Extent[] = [];
  const end = offset + count;
  let at = 0;
  for (const [id, from, length] of extents) {
    const next = at + length;
    if (next > offset && at < end) {
      const skip = Math.max(0, offset - at);
      slice.push([id, from + skip, Math.min(next, end) - at - skip]);
    }
    if (next >= end) break;
    at = next;
  }
  return slice;
}

/**
 * Opens `count` bytes from `offset` of a composed content. The first extents are opened now, so a
 * writer that replaces the blob next does not change what this read returns; past OPENED_AHEAD
 * extents, one removed before the read reaches it ends the read with ServerBusy (never wrong bytes).
 * Undefined when a file is already gone (the row changed: read it again).
 */
export function openComposed(
  content: EmbeddedBlobContent,
  composed: string,
  offset: number,
  count: number,
): Readable | undefined {
  const extents = sliceExtents(extentsOf(composed, 0), offset, count);
  if (content.openRanges) return content.openRanges(extents, OPENED_AHEAD);
  const opened: Readable[] = [];
  for (const [id, from, length] of extents.slice(0, OPENED_AHEAD)) {
    const stream = content.open(id, from, length);
    if (!stream) {
      for (const s of opened) s.destroy();
      return undefined;
    }
    opened.push(stream);
  }
  async function* bytes(): AsyncGenerator<Buffer> {
    for (let i = 0; i < extents.length; i++) {
      const [id, from, length] = extents[i]!;
      const stream = opened[i] ?? content.open(id, from, length);
      if (!stream) {
        throw new TableKitError("ServerBusy", "The blob was replaced while it was being read; read it again");
      }
      for await (const chunk of stream) yield chunk as Buffer;
    }
  }
  const readable = Readable.from(bytes(), { objectMode: false });
  readable.once("close", () => {
    for (const s of opened) s.destroy();
  });
  return readable;
}
