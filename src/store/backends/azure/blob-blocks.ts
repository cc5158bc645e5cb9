import { Readable } from "node:stream";
import { isTableKitError, TableKitError } from "../../../model/index.js";
import type {
  BackendAppend,
  BackendAppendResult,
  BackendCommitBlocks,
  BackendStageBlock,
  BackendWriteResult,
  StoredBlockLists,
} from "../../blobs/blob-backend.js";
import { invalidBlockList } from "../../blobs/blob-rules.js";
import type { CallOptions } from "../../call-options.js";
import { blobCall, sdkCall } from "./blob-errors.js";
import { sdkConditions, sdkHttpHeaders } from "./blob-properties-sdk.js";
import type { SdkContainerClient } from "./blob-sdk.js";
import { annotations, written } from "./blob-stored-sdk.js";

/** Block and append blobs through `@azure/storage-blob`: staging, committing and listing blocks, appends, seals. */
export class AzureBlockBlobs {
  constructor(private readonly client: () => Promise<SdkContainerClient>) {}

  async stageBlock(name: string, stage: BackendStageBlock, call: CallOptions): Promise<void> {
    const client = (await this.client()).getBlockBlobClient(name);
    const { body } = stage;
    // The SDK needs the length first: a stream of unknown length is gathered (at most maxBlockBytes).
    const bytes =
      body.kind === "bytes"
        ? body.bytes
        : stage.contentLength === undefined
          ? Buffer.concat(await gather(body.chunks))
          : undefined;
    if (bytes) {
      await sdkCall(call, (o) => client.stageBlock(stage.id, bytes, bytes.byteLength, o));
      return;
    }
    // A body that fails part-way (too long, a checksum that does not match) must end the request:
    // the SDK would otherwise wait for bytes that never come.
    const source = Readable.from((body as { chunks: AsyncIterable<Uint8Array> }).chunks);
    const failed = new AbortController();
    let failure: unknown;
    source.once("error", (err) => {
      failure = err;
      failed.abort(err);
    });
    const signal = call.abortSignal ? AbortSignal.any([call.abortSignal, failed.signal]) : failed.signal;
    try {
      await sdkCall({ ...call, abortSignal: signal }, (o) =>
        client.stageBlock(stage.id, source, stage.contentLength!, o),
      );
    } catch (err) {
      throw failure ?? err;
    }
  }

  /**
   * The SDK commits every block as `Latest`. A block asked from one list is checked against Get
   * Block List first; one asked from the committed list while a block of that id is staged too
   * cannot be said this way: NotSupported (docs/blobs.md).
   */
  async commitBlocks(
    name: string,
    commit: BackendCommitBlocks,
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    const client = (await this.client()).getBlockBlobClient(name);
    if (commit.blocks.some((b) => b.list !== "latest")) {
      const lists = await blobCall(call, (o) => client.getBlockList("all", o)).catch((err: unknown) => {
        if (isTableKitError(err, "BlobNotFound")) return { committedBlocks: [], uncommittedBlocks: [] };
        throw err;
      });
      const committed = new Set((lists.committedBlocks ?? []).map((b) => b.name));
      const uncommitted = new Set((lists.uncommittedBlocks ?? []).map((b) => b.name));
      for (const { id, list } of commit.blocks) {
        if (
          (list === "committed" && !committed.has(id)) ||
          (list === "uncommitted" && !uncommitted.has(id))
        ) {
          throw invalidBlockList(`The block ${id} is not in the ${list} block list of ${name}`);
        }
        if (list === "committed" && uncommitted.has(id)) {
          throw new TableKitError(
            "NotSupported",
            `The Azure SDK commits every block as Latest: block ${id} is staged, so its committed version cannot be named`,
          );
        }
      }
    }
    const options = {
      blobHTTPHeaders: sdkHttpHeaders(commit.contentType, commit.headers),
      metadata: commit.metadata,
      conditions: sdkConditions(commit.conditions),
      ...annotations(commit),
    };
    const result = await blobCall(call, (o) =>
      client.commitBlockList(
        commit.blocks.map((b) => b.id),
        { ...o, ...options },
      ),
    );
    return written(result);
  }

  async listBlocks(name: string, call: CallOptions, snapshot?: string): Promise<StoredBlockLists> {
    const blob = (await this.client()).getBlockBlobClient(name);
    const client = snapshot === undefined ? blob : blob.withSnapshot(snapshot);
    const r = await blobCall(call, (o) => client.getBlockList("all", o));
    const blocks = (list: { name: string; size: number }[] | undefined) =>
      (list ?? []).map((b) => ({ name: b.name, size: b.size }));
    return {
      committed: blocks(r.committedBlocks),
      uncommitted: blocks(r.uncommittedBlocks),
      ...(r.etag
        ? {
            properties: {
              etag: r.etag,
              lastModified: r.lastModified ?? new Date(0),
              contentLength: r.blobContentLength ?? 0,
              ...(r.contentType === undefined ? {} : { contentType: r.contentType }),
              metadata: {},
              blobType: "BlockBlob" as const,
            },
          }
        : {}),
    };
  }

  async appendBlock(name: string, append: BackendAppend, call: CallOptions): Promise<BackendAppendResult> {
    const client = await this.client();
    const r = await blobCall(call, (o) =>
      client.getAppendBlobClient(name).appendBlock(append.bytes, append.bytes.byteLength, {
        ...o,
        conditions: sdkConditions(append.conditions),
      }),
    );
    return {
      ...written(r),
      appendOffset: Number(r.blobAppendOffset ?? 0),
      committedBlockCount: r.blobCommittedBlockCount ?? 0,
    };
  }

  async sealAppendBlob(
    name: string,
    conditions: BackendAppend["conditions"],
    call: CallOptions,
  ): Promise<BackendWriteResult> {
    const client = await this.client();
    const r = await blobCall(call, (o) =>
      client.getAppendBlobClient(name).seal({ ...o, conditions: sdkConditions(conditions) }),
    );
    return written(r);
  }
}

async function gather(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}
