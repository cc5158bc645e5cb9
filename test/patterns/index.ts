import { accessSuite } from "./access-suite.js";
import { advisorSuite } from "./advisor-suite.js";
import { blobLogSuite } from "./blob-log-suite.js";
import { crossIndexSuite } from "./cross-index-suite.js";
import { denormalizationSuite } from "./denormalization-suite.js";
import { hashSuite } from "./hash-suite.js";
import { idsSuite } from "./ids-suite.js";
import { indexEntitiesSuite } from "./index-entities-suite.js";
import { indexSuite } from "./index-suite.js";
import { largeSuite } from "./large-suite.js";
import { logSuite } from "./log-suite.js";
import { mixedSuite } from "./mixed-suite.js";
import { modelSuite } from "./model-suite.js";
import { parallelSuite } from "./parallel-suite.js";
import { periodsSuite } from "./periods-suite.js";
import { seriesSuite } from "./series-suite.js";
import { type PatternsSetup, registerPatterns } from "./target.js";
import { transactionsChainSuite } from "./transactions-chain-suite.js";
import { transactionsEvidenceSuite } from "./transactions-evidence-suite.js";
import { transactionsSuite } from "./transactions-suite.js";
import { versionsSuite } from "./versions-suite.js";
import { wideSuite } from "./wide-suite.js";

export type { PatternsSetup, PatternsTarget } from "./target.js";

/** Every pattern suite, in the order they are registered. */
export const PATTERN_SUITES = [
  modelSuite,
  indexSuite,
  mixedSuite,
  idsSuite,
  logSuite,
  versionsSuite,
  accessSuite,
  parallelSuite,
  hashSuite,
  wideSuite,
  seriesSuite,
  periodsSuite,
  largeSuite,
  blobLogSuite,
  transactionsSuite,
  transactionsEvidenceSuite,
  transactionsChainSuite,
  crossIndexSuite,
  advisorSuite,
  indexEntitiesSuite,
  denormalizationSuite,
] as const;

/**
 * Registers every pattern suite for one backend (the conformance suite's factory shape).
 *
 * @example runPatterns({ name: "memory", open: () => embeddedTarget("memory", "memory") })
 */
export function runPatterns(setup: PatternsSetup): void {
  registerPatterns(setup, PATTERN_SUITES);
}
