import { TableKitError } from "../../../model/index.js";
import type {
  BackendCopy,
  BackendCopySource,
  BackendWriteResult,
  StoredBlobProperties,
  StoredCopy,
} from "../../blobs/blob-backend.js";
import { type BlobRow, newEtag, propertiesOf } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { type SnapshotRow, sharedContent, snapshotBlocks, snapshotPagesKey } from "./blob-snapshots.js";
import { checkWrite, containerNotFound } from "./blob-write-checks.js";

/** A row's properties with the copy that wrote it, when one did. */
export function withCopy(host: EmbeddedContainerHost, row: BlobRow): StoredBlobProperties {
  const copy = host.catalogue.copies.of(row.container, row.name, row.etag);
  return { ...propertiesOf(row), ...(copy ? { copy } : {}) };
}

/**
 * Copy Blob inside the store, in one write transaction: the destination becomes a row sharing the
 * source's bytes (hard links, as a snapshot does), its committed block list the source's.
 */
export function copyBlob(
  host: EmbeddedContainerHost,
  container: string,
  name: string,
  source: BackendCopySource,
  copy: BackendCopy,
): BackendWriteResult & { copy: StoredCopy } {
  const { catalogue, content } = host;
  let made: string | undefined;
  const freed: string[] = [];
  try {
    const result = host.immediate(() => {
      const from = catalogue.blobIn(source.container, source.name);
      const sourceRow =
        from &&
        (source.snapshot === undefined
          ? from.row
          : catalogue.snapshots.one(from.container, source.name, source.snapshot));
      if (!from || !sourceRow) {
        throw new TableKitError("CannotVerifyCopySource", "The specified blob does not exist.", {
          details: { source: true, containerName: source.container, blobName: source.name },
        });
      }
      if (source.ifMatch !== undefined && source.ifMatch !== "*" && source.ifMatch !== sourceRow.etag) {
        throw new TableKitError(
          "SourceConditionNotMet",
          "The source condition specified using HTTP conditional header(s) is not met.",
          { details: { source: true } },
        );
      }
      const to = catalogue.blobIn(container, name);
      if (!to) throw containerNotFound(container);
      checkWrite(to.row, copy.conditions);
      catalogue.annotations.checkTagConditions(to.container, name, to.row !== undefined, copy.conditions);
      if (copy.tier !== undefined && sourceRow.type !== "BlockBlob") throw tierNotForType(sourceRow.type);
      const shared = sharedContent(content, sourceRow);
      made = shared.content || undefined;
      const row: BlobRow = {
        ...sourceRow,
        ...shared,
        container: to.container,
        name,
        etag: newEtag(),
        modified: Date.now(),
        ...(copy.metadata === undefined ? {} : { metadata: JSON.stringify(copy.metadata) }),
      };
      // A copy of a blob onto itself keeps its pages (they are the copy's); any other destination's go.
      const onto = from.container === to.container && source.name === name && source.snapshot === undefined;
      // The destination keeps its own lease (a lease outlives a rewrite), not the source's.
      catalogue.upsert(row, to.row, { keepPages: onto });
      // The seal is not copied; x-ms-seal-blob seals an append blob's copy.
      if (copy.seal && row.type === "AppendBlob")
        catalogue.sealed(to.container, name, row.etag, row.modified);
      // A new blob: the destination's tags and tier are the copy's (none: the defaults); a page
      // blob's pages come along.
      catalogue.annotations.replace(to.container, name, {
        ...(copy.tags ? { tags: copy.tags } : {}),
        ...(copy.tier ? { tier: copy.tier } : {}),
      });
      if (sourceRow.type === "PageBlob" && !onto) {
        const pagesOf =
          source.snapshot === undefined ? source.name : snapshotPagesKey(source.name, source.snapshot);
        catalogue.copyPages(from.container, pagesOf, to.container, name);
      }
      const blocks =
        source.snapshot === undefined
          ? catalogue.committedBlocks(from.container, source.name)
          : snapshotBlocks(sourceRow as SnapshotRow);
      catalogue.setCommittedBlocks(to.container, name, blocks.length > 0 ? blocks : undefined);
      freed.push(...catalogue.dropStaged(to.container, name));
      if (to.row?.content) freed.push(to.row.content);
      const recorded: StoredCopy = {
        id: copy.id,
        status: "success",
        source: copy.sourceUrl,
        progress: `${row.length}/${row.length}`,
        completedOn: new Date(Math.floor(row.modified / 1000) * 1000),
      };
      catalogue.copies.record(to.container, name, row.etag, recorded);
      return { ...propertiesOf(row), copy: recorded };
    });
    made = undefined;
    host.removeContent(...freed);
    return { etag: result.etag, lastModified: result.lastModified, copy: result.copy };
  } catch (err) {
    if (made) host.removeContent(made);
    throw err;
  }
}

function tierNotForType(type: string): TableKitError {
  return new TableKitError(
    "AccessTierNotSupportedForBlobType",
    `A ${type === "PageBlob" ? "page" : "append"} blob takes no access tier on this account (block blobs only).`,
  );
}
