import { askCore } from "./blob-ask.js";
import type { BlobOperationRoute } from "./blob-operations.js";
import {
  getBlobMetadata,
  leaseResource,
  setBlobMetadata,
  setBlobProperties,
} from "./blob-property-routes.js";
import * as blob from "./blob-routes.js";
import { onBlob, onSnapshot } from "./blob-routes.js";
import type { BlobContext } from "./blob-service.js";
import { getBlockList, putBlock, putBlockList } from "./block-list-routes.js";
import { abortCopy, copyBlob, isCopy, putBlockFromUrl } from "./copy-routes.js";
import { incrementalCopy } from "./incremental-copy-route.js";
import { asksPageProperties } from "./page-blob-routes.js";
import {
  deleteSnapshot,
  getSnapshot,
  refuseOnSnapshot,
  snapshotBlob,
  snapshotBlockList,
  snapshotPageRanges,
  snapshotTags,
} from "./snapshot-routes.js";
import { undeleteBlob } from "./soft-delete-routes.js";
import { answerBlobTags, answerBlobTier } from "./tag-routes.js";

/** The Blob service's operations on one blob (blob-operations.ts has the recipe; the service's and containers' operations are there). */

/** GET and HEAD: the methods of a read. */
export const READ = ["GET", "HEAD"];

const BLOB = { resource: "blob" } as const;

/** The request names a snapshot (`?snapshot=`). */
const onSnapshotParam = (ctx: BlobContext) => ctx.query.has("snapshot");

export const BLOB_ROUTES_OF_BLOBS: readonly BlobOperationRoute[] = [
  {
    name: "Any operation on a version",
    methods: "*",
    ...BLOB,
    comp: "*",
    when: (ctx) => ctx.query.has("versionid"),
    handle: blob.refuseVersions,
  },
  // A snapshot (`?snapshot=`) is read, its tags read or set, deleted; anything else naming one is refused.
  {
    name: "Get Blob (snapshot)",
    methods: ["GET"],
    ...BLOB,
    when: onSnapshotParam,
    handle: onSnapshot(getSnapshot),
  },
  {
    name: "Get Blob Properties (snapshot)",
    methods: ["HEAD"],
    ...BLOB,
    when: onSnapshotParam,
    handle: onSnapshot(getSnapshot),
  },
  {
    name: "Get Blob Tags (snapshot)",
    methods: ["GET"],
    ...BLOB,
    comp: "tags",
    when: onSnapshotParam,
    handle: onSnapshot(snapshotTags),
  },
  {
    name: "Set Blob Tags (snapshot)",
    methods: ["PUT"],
    ...BLOB,
    comp: "tags",
    when: onSnapshotParam,
    handle: onSnapshot(snapshotTags),
  },
  {
    name: "Get Block List (snapshot)",
    methods: ["GET"],
    ...BLOB,
    comp: "blocklist",
    when: onSnapshotParam,
    handle: onSnapshot(snapshotBlockList),
  },
  {
    name: "Get Page Ranges (snapshot)",
    methods: READ,
    ...BLOB,
    comp: "pagelist",
    when: onSnapshotParam,
    handle: onSnapshot(snapshotPageRanges),
  },
  {
    name: "Delete Blob (snapshot)",
    methods: ["DELETE"],
    ...BLOB,
    when: onSnapshotParam,
    handle: onSnapshot(deleteSnapshot),
  },
  {
    name: "Any other operation on a snapshot",
    methods: "*",
    ...BLOB,
    comp: "*",
    when: onSnapshotParam,
    handle: onSnapshot(refuseOnSnapshot),
  },
  { name: "Get Blob", methods: ["GET"], ...BLOB, needs: "readBlob", handle: onBlob(blob.getBlob) },
  {
    name: "Get Blob Properties",
    methods: ["HEAD"],
    ...BLOB,
    needs: "readBlob",
    handle: onBlob(blob.getBlob),
  },
  // Copy Blob and Put Blob ask for `w`, or `c` alone for a create-only write.
  {
    name: "Copy Blob",
    methods: ["PUT"],
    ...BLOB,
    when: isCopy,
    handle: onBlob((ctx, caller, b) => copyBlob(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Put Blob",
    methods: ["PUT"],
    ...BLOB,
    handle: onBlob((ctx, caller, b) => blob.putBlob(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Abort Copy Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "copy",
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => abortCopy(ctx, caller, b.client)),
  },
  {
    name: "Incremental Copy Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "incrementalcopy",
    handle: onBlob((ctx, caller, b) => incrementalCopy(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Snapshot Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "snapshot",
    needs: "createBlob",
    handle: onBlob((ctx, caller, b) => snapshotBlob(ctx, caller, b.client, b.conditions)),
  },
  {
    name: "Undelete Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "undelete",
    needs: "undeleteBlob",
    handle: onBlob((ctx, caller, b) => undeleteBlob(ctx, caller, b.client)),
  },
  { name: "Delete Blob", methods: ["DELETE"], ...BLOB, needs: "deleteBlob", handle: onBlob(blob.deleteBlob) },
  {
    name: "Put Block From URL",
    methods: ["PUT"],
    ...BLOB,
    comp: "block",
    when: isCopy,
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => putBlockFromUrl(ctx, caller, b.container, b.name)),
  },
  {
    name: "Put Block",
    methods: ["PUT"],
    ...BLOB,
    comp: "block",
    handle: onBlob((ctx, caller, b) => putBlock(ctx, caller, b.container, b.name)),
  },
  {
    name: "Put Block List",
    methods: ["PUT"],
    ...BLOB,
    comp: "blocklist",
    handle: onBlob((ctx, caller, b) => putBlockList(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Get Block List",
    methods: ["GET"],
    ...BLOB,
    comp: "blocklist",
    needs: "readBlob",
    handle: onBlob((ctx, caller, b) => getBlockList(ctx, caller, b.container, b.name)),
  },
  // Append Block From URL too (x-ms-copy-source): the same checks first.
  {
    name: "Append Block",
    methods: ["PUT"],
    ...BLOB,
    comp: "appendblock",
    needs: "appendBlock",
    handle: onBlob(blob.appendBlock),
  },
  // x-ms-if-tags is read before the core is asked, as the handler always has.
  {
    name: "Set Blob Tags",
    methods: ["PUT"],
    ...BLOB,
    comp: "tags",
    handle: onBlob((ctx, caller, b) =>
      answerBlobTags(ctx, (op) => askCore(caller, op, b.target), b.container, b.name),
    ),
  },
  {
    name: "Get Blob Tags",
    methods: ["GET"],
    ...BLOB,
    comp: "tags",
    handle: onBlob((ctx, caller, b) =>
      answerBlobTags(ctx, (op) => askCore(caller, op, b.target), b.container, b.name),
    ),
  },
  {
    name: "Set Blob Tier",
    methods: ["PUT"],
    ...BLOB,
    comp: "tier",
    needs: "setBlobTier",
    handle: onBlob((ctx, caller, b) =>
      answerBlobTier(ctx, (op) => askCore(caller, op, b.target), b.container, b.name),
    ),
  },
  {
    name: "Put Page",
    methods: ["PUT"],
    ...BLOB,
    comp: "page",
    needs: "writeBlob",
    handle: onBlob(blob.putPageOf),
  },
  {
    name: "Get Page Ranges",
    methods: READ,
    ...BLOB,
    comp: "pagelist",
    needs: "readBlob",
    handle: onBlob(blob.getPageRangesOf),
  },
  {
    name: "Append Blob Seal",
    methods: ["PUT"],
    ...BLOB,
    comp: "seal",
    needs: "writeBlob",
    handle: onBlob(blob.sealBlobOf),
  },
  {
    name: "Set Blob Metadata",
    methods: ["PUT"],
    ...BLOB,
    comp: "metadata",
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => setBlobMetadata(ctx, caller, b.container, b.name, b.conditions)),
  },
  // A page blob's size or sequence number (x-ms-blob-content-length, x-ms-sequence-number-action).
  {
    name: "Set Blob Properties (page blob)",
    methods: ["PUT"],
    ...BLOB,
    comp: "properties",
    when: asksPageProperties,
    needs: "writeBlob",
    handle: onBlob(blob.setPagePropertiesOf),
  },
  {
    name: "Set Blob Properties",
    methods: ["PUT"],
    ...BLOB,
    comp: "properties",
    needs: "writeBlob",
    handle: onBlob((ctx, caller, b) => setBlobProperties(ctx, caller, b.container, b.name, b.conditions)),
  },
  {
    name: "Get Blob Metadata",
    methods: READ,
    ...BLOB,
    comp: "metadata",
    needs: "readBlob",
    handle: onBlob((ctx, caller, b) => getBlobMetadata(ctx, caller, b.container, b.name, b.conditions)),
  },
  // Acquire, renew, change, release, break: the handler asks per action.
  {
    name: "Lease Blob",
    methods: ["PUT"],
    ...BLOB,
    comp: "lease",
    handle: onBlob((ctx, caller, b) => leaseResource(ctx, caller, b.container, b.name, b.conditions)),
  },
];
