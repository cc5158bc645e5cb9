/**
 * What the key-design advisor can find: one stable id per kind of finding, each mapped to the
 * catalogue pattern that fixes it and that pattern's page (docs/advisor.md lists them all).
 */

/** The stable ids of the advisor's findings (never renamed; new ones may be added). */
export const FINDING_IDS = [
  "numeric-key-unpadded",
  "numeric-key-too-narrow",
  "ticks-key-wrong-width",
  "date-key-unsortable",
  "partition-key-grows-with-time",
  "hot-partition",
  "separator-in-component",
  "prefix-over-match",
  "forbidden-key-character",
  "key-order-differs",
  "property-type-mixed",
  "property-count-near-limit",
  "entity-size-near-limit",
  "value-size-near-limit",
  "limit-growth",
  "index-copy-mismatch",
  "model-field-mismatch",
] as const;

export type FindingId = (typeof FINDING_IDS)[number];

/** `error`: the keys or entities are wrong now; `warning`: a risk that grows with the data. */
export type FindingSeverity = "error" | "warning";

/** What every finding of one id shares: its title, the pattern that fixes it and that pattern's page. */
export interface FindingKind {
  readonly title: string;
  /** The catalogue pattern (docs/patterns/README.md) that fixes it. */
  readonly pattern: string;
  /** Its page, relative to docs/. */
  readonly docs: string;
  readonly advice: string;
}

/** One finding: what, where, how many, a few examples, and what to do. */
export interface AdvisorFinding {
  readonly id: FindingId;
  readonly severity: FindingSeverity;
  readonly title: string;
  /** What was seen, in one or two sentences with the numbers. */
  readonly message: string;
  /** Where: `RowKey`, `PartitionKey`, `property 'Price'`, `index 'email'`, `model Employee`. */
  readonly subject: string;
  /** How many keys, entities or properties show it (in what was read). */
  readonly count: number;
  /** A few keys or values that show it, as text. */
  readonly examples: readonly string[];
  readonly pattern: string;
  readonly docs: string;
  readonly advice: string;
}

export const FINDING_KINDS: Readonly<Record<FindingId, FindingKind>> = {
  "numeric-key-unpadded": {
    title: "Numbers in keys without padding",
    pattern: "Padded numeric keys",
    docs: "keys/padded-integers.md",
    advice:
      "Keys sort as strings (1, 10, 11, 2): write numbers zero-padded to the width of the largest value (paddedInt, or a model field's default signedInt codec).",
  },
  "numeric-key-too-narrow": {
    title: "Padded numbers wider than their padding",
    pattern: "Padded numeric keys",
    docs: "keys/padded-integers.md",
    advice:
      "Pad to the width of the largest value the key will ever hold (paddedInt({ max }) checks it on every write); rewrite the keys that outgrew the width.",
  },
  "ticks-key-wrong-width": {
    title: ".NET ticks keys of the wrong width",
    pattern: "Chronological keys",
    docs: "patterns/chronological-log.md",
    advice:
      'Write ticks as 19 digits (seed 000: string.Format("{0:d19}", ticks); chronologicalTicks() / invertedTicks()), so every key has the same width.',
  },
  "date-key-unsortable": {
    title: "Dates in keys in a format that does not sort",
    pattern: "Chronological keys",
    docs: "patterns/chronological-log.md",
    advice:
      "Write instants most significant part first with fixed widths (yyyy-MM-ddTHH:mm:ss, or 19-digit ticks: chronologicalTicks()), so string order is time order.",
  },
  "partition-key-grows-with-time": {
    title: "PartitionKey grows with time (the prepend/append anti-pattern)",
    pattern: "Hash partitioning against hot partitions (the prepend/append anti-pattern)",
    docs: "patterns/hash-partitioning.md",
    advice:
      "Seed 001: all inserts at a given moment go to the same partition, which caps throughput at one partition's target. Prefix the PartitionKey with something that spreads writes (a hash bucket: hashBuckets / HashPartitionedTable, or a compound key such as department + employee id) and keep time in the RowKey.",
  },
  "hot-partition": {
    title: "A partition takes a large share of the writes",
    pattern: "Hash partitioning against hot partitions (the prepend/append anti-pattern)",
    docs: "patterns/hash-partitioning.md",
    advice:
      "Azure serves about 2,000 entities/s per partition. Seed 001: spread the writes over several partitions (HashPartitionedTable with N buckets, or a compound PartitionKey) when the volume can reach a partition's target.",
  },
  "separator-in-component": {
    title: "A key separator also appears inside components",
    pattern: "Compound keys",
    docs: "keys/compound.md",
    advice:
      "Splitting such a key is ambiguous and prefix queries over-match. Build compound keys with compoundKey() (or several key fields of a model), which escapes the separator inside components.",
  },
  "prefix-over-match": {
    title: "A key is a prefix of a longer component (over-match)",
    pattern: "Hierarchical sort keys, prefix and between queries at any level",
    docs: "keys/hierarchical.md",
    advice:
      "A starts-with query for the shorter key also returns the longer one (us_wa matches us_washington). Terminate every component (hierarchicalKey / compoundKey end each one with !).",
  },
  "forbidden-key-character": {
    title: "Keys with characters Azure forbids",
    pattern: "Compound keys",
    docs: "keys/validation.md",
    advice:
      "Azure Tables and Cosmos DB refuse / \\ # ? and control characters in keys. Escape components (compoundKey, hierarchicalKey) or encode the value (hex) before it becomes a key.",
  },
  "key-order-differs": {
    title: "Key order differs between UTF-16 (Azure) and UTF-8 (DynamoDB)",
    pattern: "Compound keys",
    docs: "keys/README.md",
    advice:
      "Moving the table between services would reorder these keys. Encode such text with compoundKey() (printable ASCII, one order everywhere).",
  },
  "property-type-mixed": {
    title: "One property holds different types in entities of one type",
    pattern: "Heterogeneous entity types in one table",
    docs: "patterns/mixed-entity-types.md",
    advice:
      "Filters compare typed values (Price gt 5 misses a Double 5.5 stored beside Int32 values). Give each property one EDM type: declare it in a model (defineModel fields) so every write sends it.",
  },
  "property-count-near-limit": {
    title: "Entities near the 252-property limit",
    pattern: "Wide entities (more than 252 properties)",
    docs: "patterns/wide-entities.md",
    advice: "Store the record over several entities with WideEntities (one transaction per write).",
  },
  "entity-size-near-limit": {
    title: "Entities near the entity size limit",
    pattern: "Large entities (blob offload)",
    docs: "patterns/README.md",
    advice:
      "Keep large values in a blob and a reference in the entity, or split the record with WideEntities.",
  },
  "value-size-near-limit": {
    title: "String or Binary values near 64 KiB",
    pattern: "Large entities (blob offload)",
    docs: "patterns/README.md",
    advice:
      "A String or Binary property holds at most 64 KiB: move the value to a blob, or split it over several properties or entities (WideEntities).",
  },
  "limit-growth": {
    title: "Entities growing toward a limit",
    pattern: "Data series",
    docs: "patterns/data-series.md",
    advice:
      "Newer entities are larger: bound what one entity holds (a rolling DataSeries, a new entity per period) before it crosses the limit.",
  },
  "index-copy-mismatch": {
    title: "Index copies that disagree with their entity",
    pattern: "Intra-partition secondary index",
    docs: "patterns/secondary-index.md",
    advice:
      "Write entities through the model's repository, which keeps its index copies in the same entity group transaction; an update through it repairs the copies of that entity.",
  },
  "model-field-mismatch": {
    title: "Entities that do not decode as their model",
    pattern: "Heterogeneous entity types in one table",
    docs: "patterns/mixed-entity-types.md",
    advice:
      "Entities under a model's keys hold a property of another type or lack a required field: write them through the model, or migrate them.",
  },
};

/** Builds a finding of `id`, with its kind's title, pattern, page and advice. */
export function finding(
  id: FindingId,
  severity: FindingSeverity,
  fields: { subject: string; message: string; count: number; examples: readonly string[] },
): AdvisorFinding {
  const kind = FINDING_KINDS[id];
  return {
    id,
    severity,
    title: kind.title,
    message: fields.message,
    subject: fields.subject,
    count: fields.count,
    examples: fields.examples,
    pattern: kind.pattern,
    docs: kind.docs,
    advice: kind.advice,
  };
}
