import { TableKitError } from "../../../model/index.js";
import type {
  BackendCopy,
  BackendCopySource,
  BackendWriteResult,
  StoredCopy,
} from "../../blobs/blob-backend.js";
import { type BlobRow, newEtag, propertiesOf } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { snapshotPagesKey, snapshotTime } from "./blob-snapshots.js";
import { checkWrite, containerNotFound } from "./blob-write-checks.js";

/** What an incremental copy records beside the copy properties: the source it copies, and from which snapshot. */
interface IncrementalRecord extends StoredCopy {
  readonly sourceBlob?: string;
  readonly sourceSnapshot?: string;
}

/**
 * Incremental Copy Blob, in one write transaction: the destination becomes a page blob holding the
 * source snapshot's pages (rows copied), marked an incremental copy in its copy record, and a
 * snapshot of it is taken (its pages copied again under the snapshot's key).
 */
export function copyIncremental(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  source: BackendCopySource & { readonly snapshot: string },
  copy: BackendCopy,
): BackendWriteResult & { copy: StoredCopy } {
  const { catalogue } = host;
  return host.immediate(() => {
    const from = catalogue.blobIn(source.container, source.name);
    const snap = from && catalogue.snapshots.one(from.container, source.name, source.snapshot);
    if (!from || !snap) {
      throw new TableKitError("CannotVerifyCopySource", "The specified blob does not exist.", {
        details: { source: true, containerName: source.container, blobName: source.name },
      });
    }
    if (snap.type !== "PageBlob") {
      throw new TableKitError("InvalidBlobType", "The blob type is invalid for this operation.", {
        details: { source: true, blobName: source.name, blobType: snap.type },
      });
    }
    const to = catalogue.blobIn(container, name);
    if (!to) throw containerNotFound(container);
    const sourceBlob = `${source.container}/${source.name}`;
    if (to.row) {
      const previous = catalogue.copies.of(to.container, name, to.row.etag) as IncrementalRecord | undefined;
      if (!previous?.incremental || previous.sourceBlob !== sourceBlob) {
        throw new TableKitError(
          "IncrementalCopyBlobMismatch",
          "The specified source blob is different than the copy source of the destination blob.",
          { details: { blobName: name } },
        );
      }
      if (previous.sourceSnapshot !== undefined && source.snapshot <= previous.sourceSnapshot) {
        throw new TableKitError(
          "IncrementalCopyOfEarlierSnapshotNotAllowed",
          "The specified snapshot is earlier than the last snapshot copied into the incremental copy blob.",
          { details: { blobName: name, snapshot: source.snapshot } },
        );
      }
    }
    checkWrite(to.row, copy.conditions);
    const now = Date.now();
    const row: BlobRow = {
      container: to.container,
      name,
      content: "",
      length: snap.length,
      etag: newEtag(),
      modified: now,
      type: "PageBlob",
      blocks: snap.blocks,
      content_type: snap.content_type,
      metadata: snap.metadata,
      data: null,
      props: snap.props ?? null,
    };
    catalogue.upsert(row, to.row);
    catalogue.copyPages(from.container, snapshotPagesKey(source.name, source.snapshot), to.container, name);
    catalogue.annotations.replace(to.container, name, {});
    catalogue.setCommittedBlocks(to.container, name, undefined);
    catalogue.dropStaged(to.container, name);
    const destinationSnapshot = snapshotTime(now, catalogue.snapshots.latest(to.container, name));
    catalogue.snapshots.insert({ ...row, snapshot: destinationSnapshot });
    const recorded: StoredCopy = {
      id: copy.id,
      status: "success",
      source: copy.sourceUrl,
      progress: `${row.length}/${row.length}`,
      completedOn: new Date(Math.floor(now / 1000) * 1000),
      incremental: true,
      destinationSnapshot,
    };
    const record: IncrementalRecord = { ...recorded, sourceBlob, sourceSnapshot: source.snapshot };
    catalogue.copies.record(to.container, name, row.etag, record);
    return { ...propertiesOf(row), copy: recorded };
  });
}

/** A read of an incremental copy blob itself (only its snapshots may be read). */
export function incrementalCopyRead(name: string): TableKitError {
  return new TableKitError(
    "OperationNotAllowedOnIncrementalCopyBlob",
    "The specified operation is not allowed on an incremental copy blob.",
    { details: { blobName: name } },
  );
}
