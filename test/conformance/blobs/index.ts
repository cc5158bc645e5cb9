import { abortSuite } from "./abort.js";
import { appendsSuite } from "./appends.js";
import { batchesSuite } from "./batches.js";
import { blocksSuite } from "./blocks.js";
import { commitPartsSuite } from "./commit-parts.js";
import { conditionsSuite } from "./conditions.js";
import { containerStateSuite } from "./container-state.js";
import { containersSuite } from "./containers.js";
import { copySuite } from "./copy.js";
import { copyAnnotationsSuite } from "./copy-annotations.js";
import { deletedNamesSuite } from "./deleted-names.js";
import { type BlobSetup, registerBlobSuites } from "./factory.js";
import { incrementalCopySuite } from "./incremental-copy.js";
import { leasesSuite } from "./leases.js";
import { limitsSuite } from "./limits-and-bad-input.js";
import { listingSuite } from "./listing.js";
import { markersSuite } from "./markers.js";
import { pagesSuite } from "./pages.js";
import { propertiesSuite } from "./properties.js";
import { rangesSuite } from "./ranges.js";
import { roundTripsSuite } from "./round-trips.js";
import { sealSuite } from "./seal.js";
import { snapshotFidelitySuite } from "./snapshot-fidelity.js";
import { snapshotsSuite } from "./snapshots.js";
import { softDeleteSuite } from "./soft-delete.js";
import { tagsSuite } from "./tags.js";
import { tiersSuite } from "./tiers.js";
import { uncommittedListingSuite } from "./uncommitted-listing.js";

export type { BlobSetup, BlobTarget } from "./factory.js";
export { blobTargetFromStore, blobTargetOnServer } from "./factory.js";

/** Every blob feature suite, in the order they are registered. */
export const BLOB_SUITES = [
  containersSuite,
  containerStateSuite,
  roundTripsSuite,
  rangesSuite,
  commitPartsSuite,
  blocksSuite,
  conditionsSuite,
  listingSuite,
  markersSuite,
  appendsSuite,
  propertiesSuite,
  leasesSuite,
  sealSuite,
  pagesSuite,
  limitsSuite,
  abortSuite,
  tagsSuite,
  tiersSuite,
  batchesSuite,
  snapshotsSuite,
  snapshotFidelitySuite,
  uncommittedListingSuite,
  incrementalCopySuite,
  copySuite,
  copyAnnotationsSuite,
  deletedNamesSuite,
  // Last: it turns the store's delete retention policy on (and off again) while it runs.
  softDeleteSuite,
] as const;

/** Registers the whole blob conformance suite for one backend. Call from a `*.test.ts` file. */
export function runBlobConformance(setup: BlobSetup): void {
  registerBlobSuites(setup, BLOB_SUITES);
}
