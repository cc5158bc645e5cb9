import type { BlobPart } from "../../blobs/blob-backend.js";
import type { BlobRow } from "./blob-catalogue.js";
import type { AdoptedSource, EmbeddedBlobContent } from "./blob-content.js";
import { composedContent, type Extent, extentsOf, sliceExtents } from "./blob-extents.js";

/**
 * The content of a block blob committed from parts, without copying their bytes: each file part,
 * and each file under a kept range of the current row, becomes a hard link of the new row's own
 * (so replacing or deleting either row never touches the other's bytes); a kept range of a row
 * whose bytes are inline is written out. Runs under the write lock, `current` being the row now.
 */
export function composedRow(
  content: EmbeddedBlobContent,
  parts: readonly BlobPart[],
  current: BlobRow | undefined,
): { content: string; length: number; data: Buffer | null } {
  if (current?.data && parts.every((p) => p.kind === "current")) {
    // Kept bytes of a blob that lives in its row: they stay in the new row.
    const data = Buffer.concat(parts.map((p) => current.data!.subarray(p.offset, p.offset + p.size)));
    return { content: "", length: data.length, data };
  }
  const sources: AdoptedSource[] = [];
  const ranges: { offset: number; length: number }[] = [];
  const currentExtents = current ? extentsOf(current.content, current.length) : [];
  for (const part of parts) {
    if (part.size === 0) continue;
    if (part.kind === "file") {
      sources.push({ path: part.path });
      ranges.push({ offset: 0, length: part.size });
    } else if (current?.data) {
      sources.push({ bytes: current.data.subarray(part.offset, part.offset + part.size) });
      ranges.push({ offset: 0, length: part.size });
    } else {
      for (const [id, offset, length] of sliceExtents(currentExtents, part.offset, part.size)) {
        sources.push({ id });
        ranges.push({ offset, length });
      }
    }
  }
  if (sources.length === 0) return { content: "", length: 0, data: Buffer.alloc(0) };
  const ids = content.adopt!(sources);
  const extents: Extent[] = ids.map((id, i) => [id, ranges[i]!.offset, ranges[i]!.length]);
  return {
    content: composedContent(extents),
    length: ranges.reduce((sum, r) => sum + r.length, 0),
    data: null,
  };
}
