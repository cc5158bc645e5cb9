/**
 * tablekit/advisor: reads a table or a model and reports what in its keys goes against the catalogue
 * (docs/advisor.md). A tool above the patterns: it reads models, it is not one of them.
 */

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
