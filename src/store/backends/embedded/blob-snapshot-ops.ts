import { TableKitError } from "../../../model/index.js";
import type {
  BackendConditions,
  BackendDeleteResult,
  BackendSnapshotResult,
  DeleteSnapshots,
  Metadata,
  StoredBlobProperties,
  StoredBlockLists,
} from "../../blobs/blob-backend.js";
import { checkLease } from "../../blobs/blob-leases.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import { evaluateTagCondition, tagConditionNotMet } from "../../blobs/tag-expression.js";
import { type BlobRow, parseLease, propertiesOf } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import {
  type SnapshotRow,
  sharedContent,
  snapshotBlocks,
  snapshotTags,
  snapshotTime,
} from "./blob-snapshots.js";
import { conditionNotMet, containerNotFound } from "./blob-write-checks.js";

/** The container's id and the blob's row, or ContainerNotFound (inside the caller's transaction). */
function lookup(host: EmbeddedContainerHost, container: string, name: string) {
  const found = host.catalogue.blobIn(container, name);
  if (!found) throw containerNotFound(container);
  return found;
}

export function blobNotFound(container: string, name: string, snapshot?: string): TableKitError {
  return new TableKitError("BlobNotFound", "The specified blob does not exist.", {
    details: { containerName: container, blobName: name, ...(snapshot ? { snapshot } : {}) },
  });
}

/** The blob's row under the call's conditions: its lease (a delete needs it), ETag and tags. */
function checked(
  host: EmbeddedContainerHost,
  row: BlobRow | undefined,
  container: string,
  name: string,
  conditions: BackendConditions,
  use: "read" | "write",
) {
  if (!row) throw blobNotFound(container, name);
  checkLease(parseLease(row.lease), conditions.leaseId, use, Date.now());
  host.catalogue.annotations.checkTagConditions(row.container, name, true, conditions);
  if (conditions.ifMatch !== undefined && conditions.ifMatch !== "*" && conditions.ifMatch !== row.etag) {
    throw conditionNotMet(name);
  }
  return row;
}

/** Snapshot Blob: a row in tk_snapshots sharing the blob's bytes, in one write transaction. */
export function createSnapshot(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  metadata: Metadata | undefined,
  conditions: BackendConditions,
): BackendSnapshotResult {
  const { catalogue, content } = host;
  let made: string | undefined;
  try {
    return host.immediate(() => {
      const { container: id, row: found } = lookup(host, container, name);
      const row = checked(host, found, container, name, conditions, "read");
      const snapshot = snapshotTime(Date.now(), catalogue.snapshots.latest(id, name));
      const shared = sharedContent(content, row);
      made = shared.content || undefined;
      // Everything the blob has now: bytes (shared), pages (copied), seal, headers, tags, block list.
      const tags = catalogue.annotations.tags(id, name);
      const blocks = catalogue.committedBlocks(id, name);
      catalogue.snapshots.insert({
        ...row,
        ...shared,
        snapshot,
        tags: Object.keys(tags).length > 0 ? JSON.stringify(tags) : null,
        block_list: blocks.length > 0 ? JSON.stringify(blocks) : null,
        ...(metadata === undefined ? {} : { metadata: JSON.stringify(metadata) }),
      });
      // The blob is unchanged: the service answers its ETag and time.
      const properties = propertiesOf(row);
      return { snapshot, etag: properties.etag, lastModified: properties.lastModified };
    });
  } catch (err) {
    if (made) host.removeContent(made);
    throw err;
  }
}

/** A snapshot's row (with its inline bytes), or BlobNotFound; ContainerNotFound. */
export function snapshotRow(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  snapshot: string,
): SnapshotRow | undefined {
  const id = host.catalogue.containerId(container);
  if (id === undefined) throw containerNotFound(container);
  return host.catalogue.snapshots.one(id, name, snapshot);
}

/** A snapshot's properties, with the count of the tags it kept. */
export function snapshotProperties(row: SnapshotRow): StoredBlobProperties {
  const tagCount = Object.keys(snapshotTags(row)).length;
  return { ...propertiesOf(row), ...(tagCount > 0 ? { tagCount } : {}) };
}

/** Get Block List of a snapshot: the committed list it kept. BlobNotFound. */
export function snapshotBlockList(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  snapshot: string,
): StoredBlockLists {
  return host.guard(() => {
    const row = snapshotRow(host, container, name, snapshot);
    if (!row) throw blobNotFound(container, name, snapshot);
    const committed = snapshotBlocks(row).map(([id, size]) => ({ name: id, size }));
    return { committed, uncommitted: [], properties: propertiesOf(row) };
  });
}

/** Set Blob Tags of a snapshot: its tag conditions evaluated on the tags it has, then replaced. BlobNotFound. */
export function setSnapshotTags(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  snapshot: string,
  tags: BlobTags,
  conditions: BackendConditions,
): void {
  host.immediate(() => {
    const row = snapshotRow(host, container, name, snapshot);
    if (!row) throw blobNotFound(container, name, snapshot);
    const c = conditions.tagConditions;
    if (c && !evaluateTagCondition(c.condition, snapshotTags(row))) throw tagConditionNotMet(name);
    host.catalogue.snapshots.setTags(row.container, name, snapshot, tags);
  });
}

/** Get Blob Tags of a snapshot: the tags it kept, its tag conditions evaluated on them. BlobNotFound. */
export function snapshotTagsOf(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  snapshot: string,
  conditions: BackendConditions,
): BlobTags {
  return host.guard(() => {
    const row = snapshotRow(host, container, name, snapshot);
    if (!row) throw blobNotFound(container, name, snapshot);
    const tags = snapshotTags(row);
    const c = conditions.tagConditions;
    if (c && !evaluateTagCondition(c.condition, tags)) throw tagConditionNotMet(name);
    return tags;
  });
}

export function deleteSnapshot(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  snapshot: string,
): BackendDeleteResult {
  const freed = host.immediate(() => {
    const id = host.catalogue.containerId(container);
    if (id === undefined) throw containerNotFound(container);
    const days = host.catalogue.softDeletes.retentionDays();
    if (days !== undefined) {
      // Soft delete: the snapshot moves to the soft-deleted ones, its bytes kept.
      if (!host.catalogue.snapshots.one(id, name, snapshot)) throw blobNotFound(container, name, snapshot);
      host.catalogue.softDeletes.keepSnapshots(id, name, snapshot, days, Date.now());
      return undefined;
    }
    const dropped = host.catalogue.snapshots.drop(id, name, snapshot);
    if (dropped === undefined) throw blobNotFound(container, name, snapshot);
    return dropped;
  });
  if (freed === undefined) return { softDeleted: true };
  host.removeContent(freed);
  return { softDeleted: false };
}

/**
 * Delete Blob: SnapshotsPresent when the blob has snapshots and `deleteSnapshots` is absent;
 * `only` keeps the blob. Returns the content no row names any more.
 */
export function deleteWithSnapshots(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  conditions: BackendConditions,
  deleteSnapshots: DeleteSnapshots | undefined,
): { freed: string[]; softDeleted: boolean } {
  const { catalogue } = host;
  return host.immediate(() => {
    const { container: id, row: found } = lookup(host, container, name);
    const row = checked(host, found, container, name, conditions, "write");
    if (deleteSnapshots === undefined && catalogue.snapshots.has(id, name)) {
      throw new TableKitError(
        "SnapshotsPresent",
        "This operation is not permitted because the blob has snapshots.",
        { details: { containerName: container, blobName: name } },
      );
    }
    const days = catalogue.softDeletes.retentionDays();
    if (days !== undefined) return { freed: softDelete(host, row, deleteSnapshots, days), softDeleted: true };
    const freed = catalogue.snapshots.dropAll(id, name);
    if (deleteSnapshots === "only") return { freed, softDeleted: false };
    catalogue.deleteBlob(id, name);
    catalogue.setCommittedBlocks(id, name, undefined);
    return { freed: [...freed, row.content, ...catalogue.dropStaged(id, name)], softDeleted: false };
  });
}

/**
 * Delete Blob under a delete retention policy: the snapshots (and, unless `only`, the blob) move to
 * the soft-deleted ones with their bytes; only the blob's uncommitted blocks are freed.
 */
function softDelete(
  host: EmbeddedContainerHost,
  row: BlobRow,
  deleteSnapshots: DeleteSnapshots | undefined,
  days: number,
): string[] {
  const { catalogue } = host;
  const { container: id, name } = row;
  const now = Date.now();
  catalogue.softDeletes.sweep(now);
  catalogue.softDeletes.keepSnapshots(id, name, undefined, days, now);
  if (deleteSnapshots === "only") return [];
  catalogue.softDeletes.keepBlob(row, catalogue.committedBlocks(id, name), days, now);
  catalogue.deleteBlob(id, name);
  catalogue.setCommittedBlocks(id, name, undefined);
  return catalogue.dropStaged(id, name);
}

/**
 * Undelete Blob: the soft-deleted blob (unless a live one has its name) and its soft-deleted
 * snapshots back, in one write. A live blob with nothing soft-deleted is left as it is; a name
 * with neither is BlobNotFound.
 */
export function undeleteBlob(host: EmbeddedContainerHost, container: string, name: string): void {
  const { catalogue } = host;
  host.immediate(() => {
    const { container: id, row } = lookup(host, container, name);
    const restored = catalogue.softDeletes.undelete(id, name, row !== undefined, Date.now());
    if (!restored) throw blobNotFound(container, name);
    if (restored.blocks) catalogue.setCommittedBlocks(id, name, restored.blocks);
  });
}
