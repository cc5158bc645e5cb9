import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type { BackendDownload, BackendRange, StoredBlobProperties } from "../../blobs/blob-backend.js";
import type { BlobRow } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { withCopy } from "./blob-copies.js";
import { isComposed, openComposed } from "./blob-extents.js";
import type { EmbeddedPageBlobs } from "./blob-pages.js";
import { snapshotProperties } from "./blob-snapshot-ops.js";
import type { SnapshotRow } from "./blob-snapshots.js";

/** Opening a blob's or snapshot's bytes for a download, and the properties it answers with. */

/** How often a reader retries when writers keep replacing the content it is about to open. */
const OPEN_ATTEMPTS = 5;

/** Opens the bytes of the row `rowOf` reads (again, when a writer replaced its content meanwhile). */
export function openBlob(
  host: EmbeddedContainerHost,
  pages: EmbeddedPageBlobs,
  name: string,
  rowOf: () => BlobRow,
  range: BackendRange | undefined,
): BackendDownload {
  for (let attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
    const row = host.guard(rowOf);
    const size = row.length;
    if (range && range.offset >= size) {
      throw new TableKitError(
        "InvalidRange",
        "The range specified is invalid for the current size of the resource.",
        {
          details: { offset: range.offset, size },
        },
      );
    }
    const offset = range?.offset ?? 0;
    const count = Math.min(size - offset, range?.count ?? size);
    const { content } = host;
    const body =
      row.type === "PageBlob"
        ? pages.openRead(row, offset, count)
        : row.data
          ? bytesReadable(row.data.subarray(offset, offset + count))
          : isComposed(row.content)
            ? openComposed(content, row.content, offset, count)
            : content.open(row.content, offset, count);
    if (!body) continue; // replaced between the row read and the open: read the row again
    const properties = "snapshot" in row ? snapshotProperties(row as SnapshotRow) : describeRow(host, row);
    return { properties, body, ...(range ? { range: { offset, count } } : {}) };
  }
  throw new TableKitError("ServerBusy", `The blob ${name} kept changing while it was being opened; retry`);
}

/** The row's properties with its tag count and tier; inside the caller's transaction. */
export function describeRow(host: EmbeddedContainerHost, row: BlobRow): StoredBlobProperties {
  return host.catalogue.annotations.describe(row.container, row.name, withCopy(host, row));
}

/** A stream of bytes already in memory, ended: cheaper per call than Readable.from's async iteration. */
function bytesReadable(bytes: Buffer): Readable {
  const readable = new Readable({ read() {} });
  readable.push(bytes);
  readable.push(null);
  return readable;
}
