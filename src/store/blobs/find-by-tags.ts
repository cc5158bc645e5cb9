import { TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../call-options.js";
import { requireTags } from "./blob-annotations.js";
import { type SegmentedAsyncIterableIterator, segmentedIterator } from "./blob-paging.js";
import { validateContainerName } from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess } from "./blob-service.js";
import type { BlobTags } from "./blob-tags.js";
import { parseTagQuery } from "./tag-expression.js";

/** A blob found by its tags (`@azure/storage-blob`'s FilterBlobItem): with the tags the expression names. */
export interface FilterBlobItem {
  name: string;
  containerName: string;
  tags: BlobTags;
  /** The value of the first tag the expression names (the SDK's deprecated field). */
  tagValue: string;
}

export interface FindBlobsByTagsSegment {
  where: string;
  blobs: FilterBlobItem[];
  continuationToken?: string;
}

/**
 * Find Blobs by Tags over the account (`container` undefined) or one container: blobs whose tags
 * meet `expression` (`"key" = 'v' AND "n" >= '2' AND @container = 'c'`), ordered by container then
 * name; `byPage({ maxPageSize, continuationToken })` yields `{ where, blobs, continuationToken }`.
 * The expression is parsed before any backend call: InvalidQueryParameterValue says where it fails.
 */
export function findBlobsByTags(
  port: BlobPort,
  expression: string,
  options: OperationOptions = {},
  container?: string,
): SegmentedAsyncIterableIterator<FilterBlobItem, FindBlobsByTagsSegment> {
  const max = port.capabilities.maxListPageSize;
  return segmentedIterator(
    async (maxPageSize, continuation) => {
      const call = beginBlobCall(port, options);
      const caps = port.capabilities;
      requireTags(caps, "search by blob index tags");
      if (!caps.findByTags) {
        throw new TableKitError(
          "NotSupported",
          `${caps.backend} cannot find blobs by tags (see docs/blobs.md)`,
        );
      }
      const parsed = parseTagQuery(expression);
      if (container !== undefined) {
        validateContainerName(container, caps);
        await checkBlobAccess(port, "findBlobsByTagsInContainer", container, undefined, call);
        // A container-level search is within its container: naming another finds nothing.
        if (parsed.container !== undefined && parsed.container !== container) return { items: [] };
      } else {
        await checkBlobAccess(port, "findBlobsByTags", undefined, undefined, call);
      }
      const query = container === undefined ? parsed : { ...parsed, container };
      const page = await port.service.findBlobsByTags!(
        { query, maxPageSize, ...(continuation === undefined ? {} : { continuation }) },
        call,
      );
      const first = query.comparisons[0]!.key;
      return {
        items: page.items.map((b) => ({
          name: b.name,
          containerName: b.containerName,
          tags: { ...b.tags },
          tagValue: b.tags[first] ?? "",
        })),
        continuation: page.continuation,
      };
    },
    { defaultPageSize: max, maxPageSize: max, tokenScope: `tags\n${container ?? ""}\n${expression}` },
    (blobs, continuationToken) =>
      continuationToken === undefined
        ? { where: expression, blobs }
        : { where: expression, blobs, continuationToken },
  );
}
