/**
 * tablekit/advisor: reads a table or a model and reports what in its keys goes against the catalogue
 * (docs/advisor.md). A tool above the patterns: it reads models, it is not one of them.
 */
// Kept in the declarations (preserve): blob bodies, SDK slices and the server name Node types,
// which TypeScript 7 (whose "types" default is []) would not load otherwise.
/// <reference types="node" preserve="true" />

export { adviseModel } from "./advise-model.js";
export {
  type AdviseProgress,
  type AdviseTableOptions,
  type AdvisorCoverage,
  type AdvisorReport,
  adviseTable,
} from "./advise-table.js";
export {
  type AdvisorFinding,
  FINDING_IDS,
  FINDING_KINDS,
  type FindingId,
  type FindingKind,
  type FindingSeverity,
} from "./findings.js";
