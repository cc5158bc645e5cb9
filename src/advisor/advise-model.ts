/**
 * The advisor's checks that need no data, over a model definition: the codecs of its key fields
 * are probed with values across each field's range (order, width, characters), its PartitionKey is
 * checked for time, and its field count against the property limit.
 */
import { AZURE_LIMITS, DateTime, type EdmType, TableKitError } from "../model/index.js";
import type { Model } from "../patterns/entity-models/define-model.js";
import type { Fields } from "../patterns/shared/schema/field.js";
import type { KeyPart, KeySpec } from "../patterns/shared/schema/key-spec.js";
import type { AdvisorReport } from "./advise-table.js";
import { type AdvisorFinding, finding } from "./findings.js";
import { FORBIDDEN_KEY_CHARACTERS, showKey, ticksForm } from "./key-shapes.js";
import { sortFindings } from "./table-analyzer.js";

const date = (iso: string) => DateTime.parse(iso);

/** Values of each EDM type in increasing order, from the range's ends to everyday ones. */
const PROBES: Partial<Record<EdmType, readonly unknown[]>> = {
  Int32: [-2147483648, -1000, -10, -9, -1, 0, 1, 2, 9, 10, 11, 99, 100, 1000, 123456, 2147483647],
  Int64: [-(2n ** 63n), -1000n, -10n, -9n, -1n, 0n, 1n, 9n, 10n, 100n, 10n ** 12n, 2n ** 63n - 1n],
  Double: [
    Number.NEGATIVE_INFINITY,
    -1e10,
    -10,
    -9.5,
    -0.5,
    0,
    0.5,
    1,
    9,
    10,
    1e10,
    Number.POSITIVE_INFINITY,
  ],
  DateTime: [
    date("1601-01-01T00:00:00Z"),
    date("1999-12-31T23:59:59Z"),
    date("2009-04-21T00:00:00Z"),
    date("2010-05-09T00:00:00Z"),
    date("2010-05-27T00:00:00Z"),
    date("2010-05-28T00:00:00Z"),
    date("2010-10-01T00:00:00Z"),
    date("2026-01-02T03:04:05.0000001Z"),
    date("9999-12-31T23:59:59Z"),
  ],
};

/**
 * Checks a model definition without data: key codecs that do not keep numeric or time order,
 * ticks of the wrong width, key text Azure forbids, a PartitionKey that grows with time, and more
 * fields than an entity may hold. See docs/advisor.md.
 *
 * @example adviseModel(Employee).findings // [] for a model whose keys follow the catalogue
 */
// biome-ignore lint/suspicious/noExplicitAny: any model, whatever its fields.
export function adviseModel(model: Model<any, any, any, any, any>): AdvisorReport {
  const m = model.compiled;
  const findings: AdvisorFinding[] = [];
  const keys: [string, KeySpec<Fields, readonly string[]>][] = [
    ["PartitionKey", m.partitionKey],
    ["RowKey", m.rowKey],
    ...m.indexes.map(
      (ix) => [`RowKey of index '${ix.name}'`, ix.key] as [string, KeySpec<Fields, readonly string[]>],
    ),
  ];
  for (const [where, spec] of keys) {
    for (const part of spec.parts) findings.push(...probePart(where, part, m.fields[part.name]!.edm));
  }
  const first = m.partitionKey.parts[0];
  if (first && (m.fields[first.name]!.edm === "DateTime" || /ticks/i.test(first.codec.name))) {
    findings.push(
      finding("partition-key-grows-with-time", "warning", {
        subject: "PartitionKey",
        count: 1,
        message: `The PartitionKey starts with '${first.name}', an instant (${first.codec.name}): every write of a moment goes to the same partition.`,
        examples: [],
      }),
    );
  }
  const properties = Object.keys(m.fields).length + (m.typeProperty ? 1 : 0);
  if (properties >= 0.9 * AZURE_LIMITS.maxProperties) {
    findings.push(
      finding("property-count-near-limit", properties > AZURE_LIMITS.maxProperties ? "error" : "warning", {
        subject: "fields",
        count: properties,
        message: `The model stores ${properties} properties; an entity may have ${AZURE_LIMITS.maxProperties}.`,
        examples: [],
      }),
    );
  }
  return { subject: m.entityType ?? m.table, source: "model", findings: sortFindings(findings) };
}

/** Encodes increasing values through a key part's codec and judges the keys. */
function probePart(where: string, part: KeyPart, edm: EdmType): AdvisorFinding[] {
  const values = PROBES[edm];
  if (!values) return probeText(where, part);
  const encoded: { value: unknown; key: string }[] = [];
  for (const value of values) {
    try {
      encoded.push({ value, key: part.codec.encode(value as never) });
    } catch (err) {
      if (!(err instanceof TableKitError)) throw err; // a value the codec's range excludes
    }
  }
  const subject = `${where}: field '${part.name}' (${part.codec.name})`;
  const out: AdvisorFinding[] = [];
  const keys = encoded.map((e) => e.key);
  const ascending = keys.every((k, i) => i === 0 || keys[i - 1]! < k);
  const descending = keys.every((k, i) => i === 0 || keys[i - 1]! > k);
  if (!ascending && !descending) {
    const i = keys.findIndex((k, j) => j > 0 && keys[j - 1]! < k !== keys[0]! < keys[1]!);
    const example = [encoded[i - 1], encoded[i]].map((e) => `${show(e!.value)} → ${showKey(e!.key)}`);
    out.push(
      finding(edm === "DateTime" ? "date-key-unsortable" : "numeric-key-unpadded", "error", {
        subject,
        count: 1,
        message: `The codec does not keep ${edm === "DateTime" ? "time" : "numeric"} order: its keys sort differently from their values.`,
        examples: example,
      }),
    );
  }
  if (edm === "DateTime" && keys.some((k) => /^\d{18}$/.test(k) && ticksForm(k) === "ticks18")) {
    out.push(
      finding("ticks-key-wrong-width", "warning", {
        subject,
        count: 1,
        message: "The codec writes .NET ticks as 18 digits, not seed 000's 19 ({0:d19}).",
        examples: keys.filter((k) => k.length === 18).slice(0, 2),
      }),
    );
  }
  const forbidden = keys.filter((k) => FORBIDDEN_KEY_CHARACTERS.test(k));
  if (forbidden.length > 0) out.push(forbiddenFinding(subject, forbidden));
  return out;
}

/** A text codec other than "as is" is probed for characters Azure forbids. */
function probeText(where: string, part: KeyPart): AdvisorFinding[] {
  if (part.textual) return [];
  const keys: string[] = [];
  for (const value of ["a/b", "a#b", "a?b", "a\\b", "a\u0001b"]) {
    try {
      keys.push(part.codec.encode(value as never));
    } catch {
      // the codec refuses it: nothing reaches the store
    }
  }
  const forbidden = keys.filter((k) => FORBIDDEN_KEY_CHARACTERS.test(k));
  return forbidden.length > 0
    ? [forbiddenFinding(`${where}: field '${part.name}' (${part.codec.name})`, forbidden)]
    : [];
}

function forbiddenFinding(subject: string, keys: string[]): AdvisorFinding {
  return finding("forbidden-key-character", "error", {
    subject,
    count: keys.length,
    message: "The codec writes / \\ # ? or control characters into keys, which Azure refuses.",
    examples: keys.slice(0, 3).map(showKey),
  });
}

function show(value: unknown): string {
  if (value instanceof DateTime) return value.toISOString();
  return typeof value === "bigint" ? `${value}n` : String(value);
}
