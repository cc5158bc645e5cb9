import { abortSuite } from "./abort.js";
import { appendsSuite } from "./appends.js";
import { blocksSuite } from "./blocks.js";
import { commitPartsSuite } from "./commit-parts.js";
import { conditionsSuite } from "./conditions.js";
import { containerStateSuite } from "./container-state.js";
import { containersSuite } from "./containers.js";
import { copySuite } from "./copy.js";
import { type BlobSetup, registerBlobSuites } from "./factory.js";
import { limitsSuite } from "./limits-and-bad-input.js";
import { listingSuite } from "./listing.js";
import { rangesSuite } from "./ranges.js";
import { roundTripsSuite } from "./round-trips.js";
import { snapshotsSuite } from "./snapshots.js";

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
  appendsSuite,
  limitsSuite,
  abortSuite,
  snapshotsSuite,
  copySuite,
] as const;

/** Registers the whole blob conformance suite for one backend. Call from a `*.test.ts` file. */
export function runBlobConformance(setup: BlobSetup): void {
  registerBlobSuites(setup, BLOB_SUITES);
}
