import { isTableKitError } from "../../model/index.js";
import type { BlobContainer, BlobItem, OperationOptions, Table } from "../../store/index.js";
import { forEachConcurrently } from "../shared/support/concurrency.js";
import type { LargeBlobNames } from "./blob-names.js";
import { decodeManifest, MANIFEST_PROPERTY } from "./large-layout.js";

export interface LargeCleanupOptions extends OperationOptions {
  /** Only blobs last modified at least this long ago are deleted (default: the instance's `graceMs`). */
  readonly graceMs?: number;
  /** Report the orphans without deleting them. */
  readonly dryRun?: boolean;
  /** Called with each orphan's name (deleted unless `dryRun`). */
  readonly onOrphan?: (blob: string) => void;
  /** Listing page size (default: the backend's largest). */
  readonly pageSize?: number;
}

/** What a cleanup pass found. */
export interface LargeCleanupReport {
  /** Blobs listed under the prefix. */
  readonly scanned: number;
  /** Blobs an entity points to. */
  readonly referenced: number;
  /** Unreferenced blobs younger than the grace period: perhaps a write in progress, left alone. */
  readonly young: number;
  /** Unreferenced blobs past the grace period: deleted (or only reported, with `dryRun`). */
  readonly orphans: number;
  /** Names under the prefix this pattern never writes: left alone. */
  readonly foreign: number;
}

/** The parts of a LargeEntities a cleanup pass needs. */
interface CleanupSubject {
  readonly table: Table;
  readonly container: BlobContainer;
  readonly names: LargeBlobNames;
}

const LOOKUP_CONCURRENCY = 8;

/**
 * One pass over the blobs under the pattern's prefix, a listing page at a time (memory bounded by
 * the page): each page's blobs are grouped by the entity their name names, each such entity is
 * read once (its manifest only), and the blobs old enough and not in its manifest are deleted.
 */
export async function cleanupOrphans(
  subject: CleanupSubject,
  options: LargeCleanupOptions & { readonly graceMs: number },
): Promise<LargeCleanupReport> {
  const report = { scanned: 0, referenced: 0, young: 0, orphans: 0, foreign: 0 };
  const call = options.abortSignal ? { abortSignal: options.abortSignal } : {};
  const listing = subject.container.listBlobsFlat({ ...call, prefix: subject.names.prefix });
  for await (const page of listing.byPage(options.pageSize ? { maxPageSize: options.pageSize } : {})) {
    const cutoff = Date.now() - options.graceMs;
    const byEntity = new Map<string, { partitionKey: string; rowKey: string; blobs: BlobItem[] }>();
    for (const blob of page.segment.blobItems) {
      report.scanned++;
      const owner = subject.names.parse(blob.name);
      if (!owner) {
        report.foreign++;
        continue;
      }
      const key = JSON.stringify([owner.partitionKey, owner.rowKey]);
      const group = byEntity.get(key) ?? { ...owner, blobs: [] };
      group.blobs.push(blob);
      byEntity.set(key, group);
    }
    const orphans: string[] = [];
    await forEachConcurrently([...byEntity.values()], LOOKUP_CONCURRENCY, async (group) => {
      const referenced = await pointedAt(subject.table, group.partitionKey, group.rowKey, call);
      for (const blob of group.blobs) {
        if (referenced.has(blob.name)) report.referenced++;
        else if (blob.properties.lastModified.getTime() > cutoff) report.young++;
        else orphans.push(blob.name);
      }
    });
    orphans.sort();
    for (const name of orphans) {
      options.onOrphan?.(name);
      report.orphans++;
    }
    if (!options.dryRun) {
      await forEachConcurrently(orphans, LOOKUP_CONCURRENCY, async (name) => {
        await subject.container.getBlobClient(name).deleteIfExists(call);
      });
    }
  }
  return report;
}

/** The blob names an entity's manifest holds (none when the entity does not exist). */
async function pointedAt(
  table: Table,
  partitionKey: string,
  rowKey: string,
  call: OperationOptions,
): Promise<Set<string>> {
  try {
    const entity = await table.getEntity(partitionKey, rowKey, {
      ...call,
      queryOptions: { select: [MANIFEST_PROPERTY] },
    });
    const manifest = decodeManifest(entity[MANIFEST_PROPERTY], `${partitionKey}/${rowKey}`);
    return new Set([...manifest.values()].map((p) => p.blob));
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return new Set();
    throw err;
  }
}
