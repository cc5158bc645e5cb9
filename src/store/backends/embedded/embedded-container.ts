import { TableKitError } from "../../../model/index.js";
import type {
  BackendAppend,
  BackendAppendResult,
  BackendCommitBlocks,
  BackendCompose,
  BackendConditions,
  BackendCopy,
  BackendCopySource,
  BackendDeleteResult,
  BackendDownload,
  BackendLeaseResult,
  BackendListPage,
  BackendListQuery,
  BackendRange,
  BackendSetProperties,
  BackendSnapshotResult,
  BackendStageBlock,
  BackendTierChange,
  BackendUpload,
  BackendWriteResult,
  BlobPart,
  ContainerBackend,
  DeleteSnapshots,
  Metadata,
  StoredBlobProperties,
  StoredBlockLists,
  StoredContainer,
  StoredCopy,
} from "../../blobs/blob-backend.js";
import type { LeaseAction } from "../../blobs/blob-leases.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import type { CallOptions } from "../../call-options.js";
import { appendBlock, sealAppendBlob } from "./blob-appends.js";
import { commitBlocks, listBlocks, stageBlock } from "./blob-blocks.js";
import { INLINE_MAX, storeBody } from "./blob-body-store.js";
import { type BlobRow, newEtag, propertiesOf, propsJson } from "./blob-catalogue.js";
import { composedRow } from "./blob-compose.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { copyBlob } from "./blob-copies.js";
import { describeRow, openBlob } from "./blob-downloads.js";
import { incrementalCopyRead } from "./blob-incremental-copy.js";
import { leaseOperation, setBlobProperties } from "./blob-leasing.js";
import { listPage } from "./blob-listing.js";
import { EmbeddedPageBlobs } from "./blob-pages.js";
import {
  blobNotFound,
  createSnapshot,
  deleteSnapshot,
  deleteWithSnapshots,
  setSnapshotTags,
  snapshotBlockList,
  snapshotProperties,
  snapshotRow,
  undeleteBlob,
} from "./blob-snapshot-ops.js";
import { getBlobTags, setBlobTags, setBlobTier } from "./blob-tags-tiers.js";
import { checkRow, checkWrite, conditionNotMet, containerNotFound, lookupBlob } from "./blob-write-checks.js";

/**
 * A container of the embedded engine. Bytes go to the content store first (streamed, outside any
 * transaction); the row that makes them the blob commits in one short IMMEDIATE transaction that
 * checks the conditions, so concurrent writers serialize there and exactly one `ifNoneMatch: "*"`
 * wins. Replaced content is removed after the commit; readers that opened it keep reading it.
 */
export class EmbeddedContainer implements ContainerBackend {
  readonly pages: EmbeddedPageBlobs;

  constructor(
    private readonly service: EmbeddedContainerHost,
    private readonly name: string,
  ) {
    this.pages = new EmbeddedPageBlobs(service, name);
  }

  async getContainerProperties(_call: CallOptions): Promise<StoredContainer | undefined> {
    return this.service.read(() => {
      const found = this.service.catalogue.container(this.name);
      return found && this.service.withState(found);
    });
  }

  async upload(name: string, upload: BackendUpload, _call: CallOptions): Promise<BackendWriteResult> {
    const { catalogue } = this.service;
    // Fail before reading a streamed body when the answer is already known (bytes are read already).
    if (upload.body.kind === "stream") {
      this.service.guard(() => checkWrite(lookupBlob(this.service, this.name, name).row, upload.conditions));
    }
    const body = await storeBody(
      this.service.content,
      upload.body,
      upload.blobType === "BlockBlob" ? INLINE_MAX : -1,
    );
    const freed: string[] = [];
    const row = {
      name,
      content: body.writer?.id ?? "",
      length: body.length,
      etag: newEtag(),
      modified: Date.now(),
      type: upload.blobType,
      blocks: 0,
      content_type: upload.contentType ?? null,
      metadata: JSON.stringify(upload.metadata),
      data: body.inline ?? null,
    };
    try {
      this.service.immediate(() => {
        const { container, row: current } = lookupBlob(this.service, this.name, name);
        checkWrite(current, upload.conditions);
        catalogue.annotations.checkTagConditions(container, name, current !== undefined, upload.conditions);
        if (body.writer && !this.service.content.exists(body.writer.id)) {
          // Swept as an orphan while the stream stalled (embedded-containers.ts): nothing to name.
          throw new TableKitError("ServerBusy", `The upload of ${name} stalled too long; retry it`);
        }
        // A single upload of a block blob keeps the MD5 of what it wrote, unless the caller gave
        // one; the service computes none for an append or page blob (their bytes come later).
        const computed = upload.blobType === "BlockBlob" ? { contentMD5: body.md5 } : {};
        const headers = { ...computed, ...upload.headers };
        catalogue.upsert({ ...row, container, props: propsJson(headers, current, row.modified) }, current);
        catalogue.annotations.replace(container, name, upload);
        if (upload.copy) catalogue.copies.record(container, name, row.etag, upload.copy);
        // A plain write: the blob has no committed block list, and its uncommitted blocks go.
        catalogue.setCommittedBlocks(container, name, undefined);
        freed.push(...catalogue.dropStaged(container, name));
        if (current?.content) freed.push(current.content);
      });
    } catch (err) {
      await body.writer?.discard();
      throw err;
    }
    this.service.removeContent(...freed);
    return { etag: row.etag, lastModified: propertiesOf({ ...row, container: 0 }).lastModified };
  }

  async composeBlocks(
    name: string,
    parts: readonly BlobPart[],
    compose: BackendCompose,
    _call: CallOptions,
  ): Promise<BackendWriteResult | undefined> {
    const { catalogue, content } = this.service;
    if (!content.adopt) return undefined;
    const freed: string[] = [];
    let made: string | undefined;
    const row = {
      name,
      etag: newEtag(),
      modified: Date.now(),
      type: "BlockBlob" as const,
      blocks: 0,
      content_type: compose.contentType ?? null,
      metadata: JSON.stringify(compose.metadata),
    };
    try {
      // Under the write lock: the current row's files stay while its `current` parts are linked.
      this.service.immediate(() => {
        const { container, row: current } = lookupBlob(this.service, this.name, name);
        checkWrite(current, compose.conditions);
        catalogue.annotations.checkTagConditions(container, name, current !== undefined, compose.conditions);
        if (parts.some((p) => p.kind === "current")) {
          if (current?.etag !== compose.basedOn) throw conditionNotMet(name);
          // Its bytes are offline: kept ranges of an archived blob cannot be read into a new one.
          catalogue.annotations.checkOnline(container, name);
        }
        const stored = composedRow(content, parts, current, INLINE_MAX);
        made = stored.content;
        const props = propsJson(compose.headers, current, row.modified);
        catalogue.upsert({ ...row, ...stored, container, props }, current);
        if (!compose.keepBlockList) {
          // A new blob, not the same bytes with new properties: its tags and tier start again.
          catalogue.annotations.replace(container, name, compose);
          catalogue.setCommittedBlocks(container, name, undefined);
          freed.push(...catalogue.dropStaged(container, name));
        }
        if (current?.content) freed.push(current.content);
      });
    } catch (err) {
      if (made) this.service.removeContent(made);
      throw err;
    }
    this.service.removeContent(...freed);
    return { etag: row.etag, lastModified: propertiesOf({ ...row, container: 0 } as BlobRow).lastModified };
  }

  async download(
    name: string,
    range: BackendRange | undefined,
    conditions: BackendConditions,
    _call: CallOptions,
  ): Promise<BackendDownload> {
    return openBlob(
      this.service,
      this.pages,
      name,
      () => {
        const found = this.readable(name, conditions);
        this.service.catalogue.annotations.checkOnline(found.container, name);
        if (
          found.type === "PageBlob" &&
          this.service.catalogue.copies.of(found.container, name, found.etag)?.incremental
        ) {
          throw incrementalCopyRead(name);
        }
        return found;
      },
      range,
    );
  }

  async getProperties(
    name: string,
    conditions: BackendConditions,
    _call: CallOptions,
  ): Promise<StoredBlobProperties | undefined> {
    return this.service.guard(() => {
      const { row } = lookupBlob(this.service, this.name, name);
      if (!row && !conditions.ifMatch && !conditions.tagConditions) return undefined;
      return describeRow(this.service, checkRow(this.service, this.name, row, name, conditions));
    });
  }

  async delete(
    name: string,
    conditions: BackendConditions,
    _call: CallOptions,
    deleteSnapshots?: DeleteSnapshots,
  ): Promise<BackendDeleteResult> {
    const { freed, softDeleted } = deleteWithSnapshots(
      this.service,
      this.name,
      name,
      conditions,
      deleteSnapshots,
    );
    this.service.removeContent(...freed);
    return { softDeleted };
  }

  async setProperties(
    name: string,
    change: BackendSetProperties,
    _call: CallOptions,
  ): Promise<BackendWriteResult> {
    return setBlobProperties(this.service, this.name, name, change);
  }

  async lease(
    blob: string | undefined,
    action: LeaseAction,
    _call: CallOptions,
  ): Promise<BackendLeaseResult> {
    return leaseOperation(this.service, this.name, blob, action);
  }

  async createSnapshot(
    name: string,
    metadata: Metadata | undefined,
    conditions: BackendConditions,
    _call: CallOptions,
  ): Promise<BackendSnapshotResult> {
    return createSnapshot(this.service, this.name, name, metadata, conditions);
  }

  async downloadSnapshot(
    name: string,
    snapshot: string,
    range: BackendRange | undefined,
    _call: CallOptions,
  ): Promise<BackendDownload> {
    return openBlob(
      this.service,
      this.pages,
      name,
      () => {
        const row = snapshotRow(this.service, this.name, name, snapshot);
        if (!row) throw blobNotFound(this.name, name, snapshot);
        return row;
      },
      range,
    );
  }

  async getSnapshotProperties(
    name: string,
    snapshot: string,
    _call: CallOptions,
  ): Promise<StoredBlobProperties | undefined> {
    const row = this.service.guard(() => snapshotRow(this.service, this.name, name, snapshot));
    return row && snapshotProperties(row);
  }

  async copyBlob(
    name: string,
    source: BackendCopySource,
    copy: BackendCopy,
    _call: CallOptions,
  ): Promise<BackendWriteResult & { copy: StoredCopy }> {
    return copyBlob(this.service, this.name, name, source, copy);
  }

  async undelete(name: string, _call: CallOptions): Promise<void> {
    undeleteBlob(this.service, this.name, name);
  }

  async deleteSnapshot(name: string, snapshot: string, _call: CallOptions): Promise<BackendDeleteResult> {
    return deleteSnapshot(this.service, this.name, name, snapshot);
  }

  async stageBlock(name: string, stage: BackendStageBlock, _call: CallOptions): Promise<void> {
    return stageBlock(this.service, this.name, name, stage);
  }

  async commitBlocks(
    name: string,
    commit: BackendCommitBlocks,
    _call: CallOptions,
  ): Promise<BackendWriteResult> {
    return commitBlocks(this.service, this.name, name, commit);
  }

  async listBlocks(name: string, _call: CallOptions, snapshot?: string): Promise<StoredBlockLists> {
    if (snapshot === undefined) return listBlocks(this.service, this.name, name);
    return snapshotBlockList(this.service, this.name, name, snapshot);
  }

  async list(query: BackendListQuery, _call: CallOptions): Promise<BackendListPage> {
    // Chunks of bounded work, each its own read transaction: a long listing never holds the loop.
    return listPage(
      {
        catalogue: this.service.catalogue,
        read: (work) => this.service.read(work),
        containerId: () => this.containerId(),
      },
      query,
    );
  }

  async appendBlock(name: string, append: BackendAppend, _call: CallOptions): Promise<BackendAppendResult> {
    return appendBlock(this.service, this.name, name, append);
  }

  async sealAppendBlob(
    name: string,
    conditions: BackendAppend["conditions"],
    _call: CallOptions,
  ): Promise<BackendWriteResult> {
    return sealAppendBlob(this.service, this.name, name, conditions);
  }

  /** The container's id, or ContainerNotFound. */
  private containerId(): number {
    const id = this.service.catalogue.containerId(this.name);
    if (id === undefined) throw this.containerNotFound();
    return id;
  }

  private containerNotFound(): TableKitError {
    return containerNotFound(this.name);
  }

  /** The row to read, checked: BlobNotFound, or ConditionNotMet for a stale `ifMatch`. */
  private readable(name: string, conditions: BackendConditions): BlobRow {
    return checkRow(this.service, this.name, lookupBlob(this.service, this.name, name).row, name, conditions);
  }

  async getTags(
    name: string,
    conditions: BackendConditions,
    _call: CallOptions,
    snapshot?: string,
  ): Promise<BlobTags> {
    return getBlobTags(this.service, this.name, name, conditions, snapshot);
  }

  async setTags(
    name: string,
    tags: BlobTags,
    conditions: BackendConditions,
    _call: CallOptions,
    snapshot?: string,
  ): Promise<void> {
    if (snapshot !== undefined)
      return setSnapshotTags(this.service, this.name, name, snapshot, tags, conditions);
    setBlobTags(this.service, this.name, name, tags, conditions);
  }

  /** Set Blob Tier: leaving Archive rehydrates at once (blob-tags-tiers.ts). */
  async setTier(
    name: string,
    change: BackendTierChange,
    conditions: BackendConditions,
    _call: CallOptions,
  ): Promise<{ status: 200 | 202 }> {
    return setBlobTier(this.service, this.name, name, change, conditions);
  }
}
