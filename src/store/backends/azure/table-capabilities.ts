import { AZURE_LIMITS, type Limits } from "../../../model/index.js";
import type { Capabilities } from "../../tables/table-capabilities.js";

/**
 * Where Azurite departs from the Azure documentation, and what this backend does about it. The
 * handled ones are listed too, so a reader knows why the backend works around them; docs/azure.md
 * carries the same list.
 */
const AZURITE_DIVERGENCES: Capabilities["divergences"] = [
  {
    id: "prototype-property-names",
    description:
      "Azurite silently drops properties named like Object.prototype members (constructor, toString, " +
      "valueOf, __proto__, …) and answers 500 to an entity holding `hasOwnProperty`, after which its " +
      "batches can fail (it keeps entities in plain JavaScript objects; no issue found). Handled: " +
      "writing such a property is NotSupported against Azurite (limits.unstorablePropertyNames), so " +
      "nothing is lost silently.",
  },
  {
    id: "double-negative-zero",
    description:
      "Azurite writes the Double -0 back as 0.0, so -0 reads back as 0 (its EdmDouble serializes " +
      "integral values with toFixed(1); no Azurite issue found, related: #1180, #1796). Not fixable " +
      "on the client: the value is lost on the server.",
  },
  {
    id: "filter-type-blind",
    description:
      "Azurite compares $filter values as JavaScript values whatever their EDM type (123.0L eq '123.0' " +
      "is true; related: #2396, #1827), so it returns entities the service would not, and under `not` " +
      "drops entities the service would return. Handled: every entity returned is re-checked against " +
      "the exact filter, and comparisons other than on keys are evaluated on the client under `not`.",
  },
  {
    id: "filter-datetime-milliseconds",
    description:
      "Azurite compares DateTime values in $filter to the millisecond (JS Date; #2069, PR #2077). " +
      "Handled: DateTime bounds sent are widened to whole milliseconds and the page is filtered exactly.",
  },
  {
    id: "filter-int64-error",
    description:
      "Azurite answers 500 to an Int64 comparison when any entity holds that property as a number or " +
      "boolean (related: #755, #2396). Handled: Int64 comparisons are evaluated on the client.",
  },
  {
    id: "filter-binary-order",
    description:
      "Azurite orders Binary values in $filter by their base64 text, not by bytes (no issue found). " +
      "Handled: Binary range comparisons are evaluated on the client.",
  },
  {
    id: "filter-guid-order",
    description:
      "Azurite's Guid comparisons other than eq return wrong results (#1827). Handled: they are " +
      "evaluated on the client.",
  },
  {
    id: "filter-double-literals",
    description:
      "Azurite reads the NaN and INF literals and numbers with an exponent (1e+300) in $filter as " +
      "property names, and keeps NaN out of `ne` (no issue found). Handled: those comparisons are " +
      "evaluated on the client.",
  },
  {
    id: "filter-not-not",
    description:
      "Azurite rejects `not not (…)` (no issue found). Handled: a double negation is dropped before sending.",
  },
  {
    id: "table-name-case",
    description:
      "Azurite finds a table's entities only under the exact case it was created with (creation itself " +
      "is case-insensitive since #1355). Handled: the backend looks up the created name and uses it.",
  },
  {
    id: "table-list-order",
    description:
      "Azurite lists tables in case-sensitive order. Handled: against Azurite the backend reads the " +
      "whole list and pages it in case-insensitive order itself.",
  },
  {
    id: "merge-limits",
    description:
      "Azurite does not enforce the 252-property cap (#1446) nor the 1 MiB entity size on the result " +
      "of a Merge. Handled: against Azurite each Merge first reads the stored entity and refuses a " +
      "result over the limits (in a transaction, at the failing action's index, earlier failures first).",
  },
  {
    id: "select-missing-null",
    description:
      "$select of a property an entity lacks omits it on Azurite; the service returns null (#2535). " +
      "Handled: the store projects the selection itself.",
  },
  {
    id: "mixed-partition-batch",
    description:
      "Azurite accepts an entity group transaction spanning partitions (#1215). Handled: the core " +
      "rejects it before anything is sent.",
  },
  {
    id: "limits-unenforced",
    description:
      "Azurite does not enforce the 252-property cap on inserts (#1446) nor the 15-comparison " +
      "$filter limit. Handled: the core enforces every limit before anything is sent.",
  },
  {
    id: "malformed-etag-code",
    description:
      "Azurite answers a malformed If-Match with 400 InvalidOperation; the documentation says 400 " +
      "InvalidInput. Handled: the core validates ETags first, and InvalidOperation maps to InvalidInput.",
  },
  {
    id: "sas-key-ranges",
    description:
      "Azurite does not enforce a table SAS's PartitionKey/RowKey ranges (spk, srk, epk, erk; #726). " +
      "Not worked around: such a SAS grants the whole table on Azurite.",
  },
  {
    id: "transaction-overlap",
    description:
      "Concurrent entity group transactions on Azurite can fail with 'Transaction Overlap!' (it keeps one " +
      "global rollback log); the service runs them independently. Not worked around: BackendError.",
  },
];

/** Azurite keeps entities in plain JavaScript objects: it drops these property names (divergence below). */
const AZURITE_UNSTORABLE_PROPERTY_NAMES = Object.freeze(Object.getOwnPropertyNames(Object.prototype).sort());

/** Capabilities of the Azure backend, with the caller's limit overrides merged in. */
export function azureCapabilities(overrides: Partial<Limits> | undefined, emulator: boolean): Capabilities {
  return {
    backend: "azure",
    limits: Object.freeze({
      ...AZURE_LIMITS,
      ...(emulator ? { unstorablePropertyNames: AZURITE_UNSTORABLE_PROPERTY_NAMES } : {}),
      ...overrides,
    }),
    keyOrder: "utf16",
    persistent: true,
    multiProcess: true,
    // The service may end a page anywhere, including mid-partition or across partitions.
    pageEndsAtPartitionBoundary: false,
    divergences: emulator ? AZURITE_DIVERGENCES : [],
  };
}
