import type { BlobPart } from "../../blobs/blob-backend.js";
import type { BlobRow } from "./blob-catalogue.js";
import type { AdoptedSource, EmbeddedBlobContent } from "./blob-content.js";
import { composedContent, type Extent, extentsOf, sliceExtents } from "./blob-extents.js";

/** The most bytes held in rows that go into one file of a composed blob. */
const RUN_BYTES = 8 * 1024 * 1024;

/**
 * A part of a composed block blob: a file or a range of the current row (commitParts), or a staged
 * block — its content whole, or its bytes when it was small enough to stay in its row.
 */
export type ComposedPart =
  | BlobPart
  | { readonly kind: "content"; readonly id: string; readonly size: number }
  /** `bytes()` reads them when they are needed: a commit never holds every staged block in memory. */
  | { readonly kind: "bytes"; readonly bytes: () => Buffer; readonly size: number };

/**
 * The content of a block blob committed from parts, without copying their bytes: each file part,
 * each staged block's content, and each file under a kept range of the current row, becomes a hard
 * link of the new row's own (so replacing or deleting either row never touches the other's bytes);
 * bytes held in rows are kept in the new row when they all fit in `inlineMax`, else written out.
 * Runs under the write lock, `current` being the row now.
 */
export function composedRow(
  content: EmbeddedBlobContent,
  parts: readonly ComposedPart[],
  current: BlobRow | undefined,
  inlineMax: number,
): { content: string; length: number; data: Buffer | null } {
  const inRow = (part: ComposedPart) => part.kind === "bytes" || (part.kind === "current" && !!current?.data);
  const inlineBytes = (part: ComposedPart): Buffer | undefined =>
    part.kind === "bytes"
      ? part.bytes()
      : part.kind === "current" && current?.data
        ? current.data.subarray(part.offset, part.offset + part.size)
        : undefined;
  const total = parts.reduce((sum, p) => sum + p.size, 0);
  if (parts.every(inRow) && (total <= inlineMax || parts.every((p) => p.kind === "current"))) {
    // Bytes that live in rows: they stay in the new row.
    return { content: "", length: total, data: Buffer.concat(parts.map((p) => inlineBytes(p)!)) };
  }
  const sources: AdoptedSource[] = [];
  const ranges: { offset: number; length: number }[] = [];
  const currentExtents = current ? extentsOf(current.content, current.length) : [];
  // Consecutive bytes held in rows (small staged blocks) are written out together, up to RUN_BYTES
  // a file: one sync for many blocks, bounded memory.
  let run: Buffer[] = [];
  let runBytes = 0;
  const endRun = () => {
    if (run.length === 0) return;
    const bytes = Buffer.concat(run);
    sources.push({ bytes });
    ranges.push({ offset: 0, length: bytes.length });
    run = [];
    runBytes = 0;
  };
  for (const part of parts) {
    if (part.size === 0) continue;
    const bytes = inlineBytes(part);
    if (bytes) {
      if (runBytes + bytes.length > RUN_BYTES) endRun();
      run.push(bytes);
      runBytes += bytes.length;
      continue;
    }
    endRun();
    if (part.kind === "file") {
      sources.push({ path: part.path });
      ranges.push({ offset: 0, length: part.size });
    } else if (part.kind === "content") {
      sources.push({ id: part.id });
      ranges.push({ offset: 0, length: part.size });
    } else if (part.kind === "current") {
      for (const [id, offset, length] of sliceExtents(currentExtents, part.offset, part.size)) {
        sources.push({ id });
        ranges.push({ offset, length });
      }
    }
  }
  endRun();
  if (sources.length === 0) return { content: "", length: 0, data: Buffer.alloc(0) };
  const ids = content.adopt!(sources);
  const extents: Extent[] = ids.map((id, i) => [id, ranges[i]!.offset, ranges[i]!.length]);
  return {
    content: composedContent(extents),
    length: ranges.reduce((sum, r) => sum + r.length, 0),
    data: null,
  };
}
