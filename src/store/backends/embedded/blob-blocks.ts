import { TableKitError } from "../../../model/index.js";
import type {
  BackendCommitBlocks,
  BackendStageBlock,
  BackendWriteResult,
  StoredBlockLists,
} from "../../blobs/blob-backend.js";
import { checkCommittedSize, checkStagedBlock, invalidBlockList } from "../../blobs/blob-rules.js";
import { INLINE_MAX, storeBody } from "./blob-body-store.js";
import { type BlobRow, type CommittedBlocks, newEtag, propertiesOf, propsJson } from "./blob-catalogue.js";
import { type ComposedPart, composedRow } from "./blob-compose.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { blobNotFound, checkWrite, containerNotFound } from "./blob-write-checks.js";

/**
 * Block blobs built from staged blocks, on the embedded engine. A staged block's bytes are written
 * first (its own content, or inline in its row when small), then one IMMEDIATE transaction checks
 * the rules that depend on what is staged and records the row, so two concurrent stagings cannot
 * both pass the one-id-length rule. A commit links the chosen blocks into the blob (no byte copied)
 * and writes the blob row, its committed block list and the removal of its staged rows in one
 * transaction: a crash leaves the old blob and list or the new ones, never a mix. Staged content no
 * row names (a crash mid-write) is swept like any orphan content (embedded-containers.ts).
 */

export async function stageBlock(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  stage: BackendStageBlock,
): Promise<void> {
  const { catalogue, content } = host;
  // Fail before reading the body when the answer is already known; checked again under the lock.
  host.guard(() => {
    const container = catalogue.containerId(containerName);
    if (container === undefined) throw containerNotFound(containerName);
    stagedRules(host, container, name, stage.id);
  });
  const body = await storeBody(content, stage.body, INLINE_MAX);
  let replaced: string | undefined;
  try {
    host.immediate(() => {
      const container = catalogue.containerId(containerName);
      if (container === undefined) throw containerNotFound(containerName);
      replaced = stagedRules(host, container, name, stage.id);
      if (body.writer && !content.exists(body.writer.id)) {
        // Swept as an orphan while the stream stalled: nothing to name.
        throw new TableKitError("ServerBusy", `Staging a block of ${name} stalled too long; retry it`);
      }
      catalogue.stage(container, name, {
        id: stage.id,
        size: body.length,
        content: body.writer?.id ?? "",
        data: body.inline ?? null,
      });
    });
  } catch (err) {
    await body.writer?.discard();
    throw err;
  }
  if (replaced) host.removeContent(replaced);
}

/** Applies the core's staged-block rules to what is staged now; the content a restaged id replaces. */
function stagedRules(
  host: EmbeddedContainerHost,
  container: number,
  name: string,
  id: string,
): string | undefined {
  const summary = host.catalogue.stagedSummary(container, name, id);
  checkStagedBlock(
    id,
    { anyId: summary.anyId, count: summary.count, replaces: summary.replaced !== undefined },
    host.capabilities,
  );
  return summary.replaced;
}

export async function commitBlocks(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  commit: BackendCommitBlocks,
): Promise<BackendWriteResult> {
  const { catalogue, content, capabilities } = host;
  const row = {
    name,
    etag: newEtag(),
    modified: Date.now(),
    type: "BlockBlob" as const,
    blocks: 0,
    content_type: commit.contentType ?? null,
    metadata: JSON.stringify(commit.metadata),
  };
  let made: string | undefined;
  const freed: string[] = [];
  try {
    // Under the write lock: the current row's files and the staged ones stay while they are linked.
    host.immediate(() => {
      const found = catalogue.blobIn(containerName, name);
      if (!found) throw containerNotFound(containerName);
      const { container, row: current } = found;
      checkWrite(current, commit.conditions);
      catalogue.annotations.checkTagConditions(container, name, current !== undefined, commit.conditions);
      const staged = new Map(catalogue.stagedBlocks(container, name).map((b) => [b.id, b]));
      const committed = committedOffsets(current, catalogue.committedBlocks(container, name));
      const parts = commit.blocks.map(({ id, list }): ComposedPart => {
        const fromStaged = list === "committed" ? undefined : staged.get(id);
        if (fromStaged) {
          return fromStaged.content
            ? { kind: "content", id: fromStaged.content, size: fromStaged.size }
            : {
                kind: "bytes",
                bytes: () => catalogue.stagedData(container, name, id),
                size: fromStaged.size,
              };
        }
        const kept = list === "uncommitted" ? undefined : committed.get(id);
        if (kept) {
          catalogue.annotations.checkOnline(container, name);
          return { kind: "current", offset: kept.offset, size: kept.size };
        }
        throw invalidBlockList(`The block ${id} is not in the ${list} block list of ${name}`);
      });
      checkCommittedSize(
        parts.map((p) => p.size),
        capabilities,
      );
      const stored = composedRow(content, parts, current, INLINE_MAX);
      made = stored.content;
      const props = propsJson(commit.headers, current, row.modified);
      catalogue.upsert({ ...row, ...stored, container, props }, current);
      const list: CommittedBlocks = commit.blocks.map((b, i) => [b.id, parts[i]!.size]);
      catalogue.setCommittedBlocks(container, name, list);
      catalogue.annotations.replace(container, name, commit);
      freed.push(...catalogue.dropStaged(container, name));
      if (current?.content) freed.push(current.content);
    });
  } catch (err) {
    if (made) host.removeContent(made);
    throw err;
  }
  host.removeContent(...freed);
  return { etag: row.etag, lastModified: propertiesOf({ ...row, container: 0 } as BlobRow).lastModified };
}

/** Where each committed block lies in the current blob (its first place); none when the list does not describe it. */
function committedOffsets(
  current: BlobRow | undefined,
  blocks: CommittedBlocks,
): Map<string, { offset: number; size: number }> {
  const offsets = new Map<string, { offset: number; size: number }>();
  if (current?.type !== "BlockBlob") return offsets;
  let at = 0;
  for (const [id, size] of blocks) {
    if (!offsets.has(id)) offsets.set(id, { offset: at, size });
    at += size;
  }
  return at === current.length ? offsets : new Map();
}

export function listBlocks(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
): StoredBlockLists {
  const { catalogue } = host;
  return host.read(() => {
    const found = catalogue.blobIn(containerName, name);
    if (!found) throw containerNotFound(containerName);
    const { container, row } = found;
    const uncommitted = catalogue.stagedBlocks(container, name).map((b) => ({ name: b.id, size: b.size }));
    if (!row && uncommitted.length === 0) throw blobNotFound(containerName, name);
    const blocks = catalogue.committedBlocks(container, name);
    const describesRow = blocks.length > 0 && committedOffsets(row, blocks).size > 0;
    const committed = describesRow ? blocks.map(([id, size]) => ({ name: id, size })) : [];
    return { committed, uncommitted, ...(row ? { properties: propertiesOf(row) } : {}) };
  });
}
