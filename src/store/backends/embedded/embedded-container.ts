import { Readable } from "node:stream";
import { TableKitError } from "../../../model/index.js";
import type {
  BackendAppend,
  BackendAppendResult,
  BackendCommitBlocks,
  BackendCompose,
  BackendConditions,
  BackendCopy,
  BackendCopySource,
  BackendDownload,
  BackendListPage,
  BackendListQuery,
  BackendRange,
  BackendSnapshotResult,
  BackendStageBlock,
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
import type { CallOptions } from "../../call-options.js";
import { commitBlocks, listBlocks, stageBlock } from "./blob-blocks.js";
import { INLINE_MAX, storeBody } from "./blob-body-store.js";
import { type BlobRow, newEtag, propertiesOf } from "./blob-catalogue.js";
import { composedRow } from "./blob-compose.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { copyBlob, withCopy } from "./blob-copies.js";
import { isComposed, openComposed } from "./blob-extents.js";
import { listPage } from "./blob-listing.js";
import {
  blobNotFound,
  createSnapshot,
  deleteSnapshot,
  deleteWithSnapshots,
  snapshotRow,
} from "./blob-snapshot-ops.js";
import { checkWrite, conditionNotMet, containerNotFound } from "./blob-write-checks.js";

/** How often a reader retries when writers keep replacing the content it is about to open. */
const OPEN_ATTEMPTS = 5;

/**
 * A container of the embedded engine. Bytes go to the content store first (streamed, outside any
 * transaction); the row that makes them the blob commits in one short IMMEDIATE transaction that
 * checks the conditions, so concurrent writers serialize there and exactly one `ifNoneMatch: "*"`
 * wins. Replaced content is removed after the commit; readers that opened it keep reading it.
 */
export class EmbeddedContainer implements ContainerBackend {
  constructor(
    private readonly service: EmbeddedContainerHost,
    private readonly name: string,
  ) {}

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
      this.service.guard(() => checkWrite(this.lookup(name).row, upload.conditions));
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
        const { container, row: current } = this.lookup(name);
        checkWrite(current, upload.conditions);
        if (body.writer && !this.service.content.exists(body.writer.id)) {
          // Swept as an orphan while the stream stalled (embedded-containers.ts): nothing to name.
          throw new TableKitError("ServerBusy", `The upload of ${name} stalled too long; retry it`);
        }
        catalogue.upsert({ ...row, container });
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
        const { container, row: current } = this.lookup(name);
        checkWrite(current, compose.conditions);
        if (parts.some((p) => p.kind === "current") && current?.etag !== compose.basedOn) {
          throw conditionNotMet(name);
        }
        const stored = composedRow(content, parts, current, INLINE_MAX);
        made = stored.content;
        catalogue.upsert({ ...row, ...stored, container });
        if (!compose.keepBlockList) {
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
    return this.openRow(name, () => this.readable(name, conditions), range);
  }

  /** Opens the bytes of the row `rowOf` reads (again, when a writer replaced its content meanwhile). */
  private openRow(name: string, rowOf: () => BlobRow, range: BackendRange | undefined): BackendDownload {
    for (let attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
      const row = this.service.guard(rowOf);
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
      const { content } = this.service;
      const body = row.data
        ? bytesReadable(row.data.subarray(offset, offset + count))
        : isComposed(row.content)
          ? openComposed(content, row.content, offset, count)
          : content.open(row.content, offset, count);
      if (!body) continue; // replaced between the row read and the open: read the row again
      return {
        properties: withCopy(this.service, row),
        body,
        ...(range ? { range: { offset, count } } : {}),
      };
    }
    throw new TableKitError("ServerBusy", `The blob ${name} kept changing while it was being opened; retry`);
  }

  async getProperties(
    name: string,
    conditions: BackendConditions,
    _call: CallOptions,
  ): Promise<StoredBlobProperties | undefined> {
    return this.service.guard(() => {
      const { row } = this.lookup(name);
      if (!row && !conditions.ifMatch) return undefined;
      return withCopy(this.service, this.checkRead(row, name, conditions));
    });
  }

  async delete(
    name: string,
    conditions: BackendConditions,
    _call: CallOptions,
    deleteSnapshots?: DeleteSnapshots,
  ): Promise<void> {
    const freed = deleteWithSnapshots(this.service, this.name, name, conditions, deleteSnapshots);
    this.service.removeContent(...freed);
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
    return this.openRow(
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
    return row && propertiesOf(row);
  }

  async copyBlob(
    name: string,
    source: BackendCopySource,
    copy: BackendCopy,
    _call: CallOptions,
  ): Promise<BackendWriteResult & { copy: StoredCopy }> {
    return copyBlob(this.service, this.name, name, source, copy);
  }

  async deleteSnapshot(name: string, snapshot: string, _call: CallOptions): Promise<void> {
    deleteSnapshot(this.service, this.name, name, snapshot);
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

  async listBlocks(name: string, _call: CallOptions): Promise<StoredBlockLists> {
    return listBlocks(this.service, this.name, name);
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
    const { catalogue, content, capabilities } = this.service;
    return this.service.immediate(() => {
      const row = this.checkRead(this.lookup(name).row, name, append.conditions);
      if (row.type !== "AppendBlob") {
        throw new TableKitError("InvalidBlobType", "The blob type is invalid for this operation.", {
          details: { blobName: name, blobType: row.type },
        });
      }
      const { appendPosition, maxSize } = append.conditions;
      if (appendPosition !== undefined && appendPosition !== row.length) {
        throw new TableKitError(
          "AppendPositionConditionNotMet",
          "The append position condition specified was not met.",
          {
            details: { appendPosition, length: row.length },
          },
        );
      }
      const length = row.length + append.bytes.byteLength;
      if (maxSize !== undefined && length > maxSize) {
        throw new TableKitError(
          "MaxBlobSizeConditionNotMet",
          "The max blob size condition specified was not met.",
          {
            details: { maxSize, length },
          },
        );
      }
      if (row.blocks >= capabilities.maxAppendBlocks) {
        throw new TableKitError(
          "BlockCountExceedsLimit",
          `The committed block count cannot exceed the maximum limit of ${capabilities.maxAppendBlocks} blocks.`,
        );
      }
      content.writeAt(row.content, row.length, append.bytes);
      const etag = newEtag();
      const modified = Date.now();
      catalogue.appended(row, length, etag, modified);
      return {
        etag,
        lastModified: propertiesOf({ ...row, modified }).lastModified,
        appendOffset: row.length,
        committedBlockCount: row.blocks + 1,
      };
    });
  }

  /** The container's id, or ContainerNotFound. */
  private containerId(): number {
    const id = this.service.catalogue.containerId(this.name);
    if (id === undefined) throw this.containerNotFound();
    return id;
  }

  /** The container's id and the blob's row (one statement), or ContainerNotFound. */
  private lookup(name: string): { container: number; row: BlobRow | undefined } {
    const found = this.service.catalogue.blobIn(this.name, name);
    if (!found) throw this.containerNotFound();
    return found;
  }

  private containerNotFound(): TableKitError {
    return containerNotFound(this.name);
  }

  /** The row to read, checked: BlobNotFound, or ConditionNotMet for a stale `ifMatch`. */
  private readable(name: string, conditions: BackendConditions): BlobRow {
    return this.checkRead(this.lookup(name).row, name, conditions);
  }

  private checkRead(row: BlobRow | undefined, name: string, conditions: BackendConditions): BlobRow {
    if (!row) {
      throw new TableKitError("BlobNotFound", "The specified blob does not exist.", {
        details: { containerName: this.name, blobName: name },
      });
    }
    if (conditions.ifMatch !== undefined && conditions.ifMatch !== "*" && conditions.ifMatch !== row.etag) {
      throw conditionNotMet(name);
    }
    return row;
  }
}

/** A stream of bytes already in memory, ended: cheaper per call than Readable.from's async iteration. */
function bytesReadable(bytes: Buffer): Readable {
  const readable = new Readable({ read() {} });
  readable.push(bytes);
  readable.push(null);
  return readable;
}
