import type { BackendListPage, BackendListQuery } from "../../blobs/blob-backend.js";
import type { CallOptions } from "../../call-options.js";
import { blobCall } from "./blob-errors.js";
import type { SdkContainerClient } from "./blob-sdk.js";
import { deletionOf, toStored } from "./blob-stored-sdk.js";

/** List Blobs through `@azure/storage-blob`: one page, in the port's order. */

export async function listBlobs(
  client: SdkContainerClient,
  nameOrder: "utf8" | "utf16",
  query: BackendListQuery,
  call: CallOptions,
): Promise<BackendListPage> {
  const page = await blobCall(call, async (o) => {
    const options = {
      ...o,
      prefix: query.prefix,
      includeMetadata: query.includeMetadata,
      ...(query.includeTags ? { includeTags: true } : {}),
      ...(query.includeSnapshots ? { includeSnapshots: true } : {}),
      ...(query.includeDeleted ? { includeDeleted: true } : {}),
      ...(query.includeUncommitted ? { includeUncommitedBlobs: true } : {}),
    };
    const listing =
      query.delimiter === undefined
        ? client.listBlobsFlat(options)
        : client.listBlobsByHierarchy(query.delimiter, options);
    const pages = listing.byPage({
      maxPageSize: query.maxPageSize,
      ...(query.continuation ? { continuationToken: query.continuation } : {}),
    });
    const next = await pages.next();
    return next.done ? undefined : next.value;
  });
  const items: BackendListPage["items"][number][] = [
    ...(page?.segment.blobPrefixes ?? []).map((p) => ({ kind: "prefix" as const, name: p.name })),
    ...(page?.segment.blobItems ?? []).map((b) => ({
      kind: "blob" as const,
      name: b.name,
      ...(b.snapshot ? { snapshot: b.snapshot } : {}),
      properties: toStored({ ...b.properties, metadata: b.metadata }, b.properties.contentLength ?? 0),
      ...(query.includeTags && b.tags && Object.keys(b.tags).length > 0 ? { tags: { ...b.tags } } : {}),
      ...(b.deleted ? { deleted: deletionOf(b.properties) } : {}),
    })),
  ];
  // A blob's snapshots before it, oldest first, as the service lists them (Azurite lists it first).
  items.sort(
    (a, b) => compareNames(a.name, b.name, nameOrder) || snapshotOrder(snapshotOf(a), snapshotOf(b)),
  );
  return { items, ...(page?.continuationToken ? { continuation: page.continuationToken } : {}) };
}

function snapshotOf(item: BackendListPage["items"][number]): string | undefined {
  return item.kind === "blob" ? item.snapshot : undefined;
}

/** Snapshots (by time) before the blob itself. */
function snapshotOrder(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : 1;
}

/** Orders names as the backend's listings do: by UTF-8 bytes (code points) or by UTF-16 units. */
export function compareNames(a: string, b: string, order: "utf8" | "utf16"): number {
  if (order === "utf16") return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
