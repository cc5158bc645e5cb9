/**
 * The text of keys: characters Azure forbids, dates that do not sort, keys whose order differs
 * between UTF-16 and UTF-8, hand-made separators found inside components, and keys that are a
 * prefix of a longer component (a starts-with query over-matches).
 */
import { compareUtf8, compareUtf16 } from "../model/index.js";
import {
  type AnalyzerSettings,
  boundedGet,
  type Collector,
  Examples,
  type KeyKind,
  plural,
  type ScannedEntity,
} from "./collector.js";
import { type AdvisorFinding, type FindingId, type FindingSeverity, finding } from "./findings.js";
import {
  FORBIDDEN_KEY_CHARACTERS,
  familyOf,
  isCompoundEncoded,
  showKey,
  unsortableDateIn,
} from "./key-shapes.js";

interface Tally {
  count: number;
  readonly examples: Examples;
}

const tally = (): Tally => ({ count: 0, examples: new Examples() });

/** Separator counts of the keys of one family (`empid` + `_`). */
interface SeparatorStats {
  keys: number;
  encoded: number;
  /** Keys by how many separators they hold. */
  readonly byCount: Map<number, number>;
  readonly exampleByCount: Map<number, Examples>;
}

const MAX_FAMILIES = 512;

export class KeyText implements Collector {
  private readonly forbidden = { PartitionKey: tally(), RowKey: tally() };
  private readonly dates = { PartitionKey: tally(), RowKey: tally() };
  private readonly dateFormats = new Set<string>();
  private readonly order = { PartitionKey: tally(), RowKey: tally() };
  private readonly overMatch = { PartitionKey: tally(), RowKey: tally() };
  private readonly separators = new Map<string, SeparatorStats>();
  private readonly previous: Record<KeyKind, string | undefined> = {
    PartitionKey: undefined,
    RowKey: undefined,
  };
  private readonly otherOrder: (a: string, b: string) => number;

  constructor(settings: AnalyzerSettings) {
    this.otherOrder = settings.keyOrder === "utf8" ? compareUtf16 : compareUtf8;
  }

  startPartition(partitionKey: string): void {
    this.key("PartitionKey", partitionKey);
    this.previous.RowKey = undefined;
  }

  add(entity: ScannedEntity): void {
    this.key("RowKey", entity.rowKey);
  }

  endPartition(): void {}

  private key(kind: KeyKind, key: string): void {
    const shown = () => showKey(key);
    if (FORBIDDEN_KEY_CHARACTERS.test(key)) {
      this.forbidden[kind].count++;
      this.forbidden[kind].examples.add(shown());
    }
    const date = unsortableDateIn(key);
    if (date) {
      this.dates[kind].count++;
      this.dates[kind].examples.add(shown());
      if (this.dateFormats.size < 8) this.dateFormats.add(date.format);
    }
    const prev = this.previous[kind];
    if (prev !== undefined) {
      if (this.otherOrder(prev, key) > 0) {
        this.order[kind].count++;
        this.order[kind].examples.add(`${showKey(prev)} > ${showKey(key)}`);
      }
      if (overMatches(prev, key)) {
        this.overMatch[kind].count++;
        this.overMatch[kind].examples.add(`${showKey(prev)} / ${showKey(key)}`);
      }
    }
    this.previous[kind] = key;
    this.separator(kind, key);
  }

  private separator(kind: KeyKind, key: string): void {
    const fam = familyOf(key);
    if (!fam) return;
    const stats = boundedGet(
      this.separators,
      `${kind}\u0000${fam.family}\u0000${fam.separator}`,
      MAX_FAMILIES,
      () => ({
        keys: 0,
        encoded: 0,
        byCount: new Map(),
        exampleByCount: new Map(),
      }),
    );
    if (!stats) return;
    stats.keys++;
    if (isCompoundEncoded(key)) {
      stats.encoded++;
      return;
    }
    const n = Math.min(key.split(fam.separator).length - 1, 32);
    stats.byCount.set(n, (stats.byCount.get(n) ?? 0) + 1);
    if (!stats.exampleByCount.has(n) && stats.exampleByCount.size < 8)
      stats.exampleByCount.set(n, new Examples(3));
    stats.exampleByCount.get(n)?.add(showKey(key));
  }

  findings(): AdvisorFinding[] {
    const out: AdvisorFinding[] = [];
    const formats = [...this.dateFormats].join("; ");
    for (const kind of ["PartitionKey", "RowKey"] as const) {
      const tallies: [FindingId, FindingSeverity, Tally, (n: number) => string][] = [
        [
          "forbidden-key-character",
          "error",
          this.forbidden[kind],
          (n) =>
            `${plural(n, "key")} hold / \\ # ? or a control character, which Azure Tables and Cosmos DB refuse.`,
        ],
        [
          "date-key-unsortable",
          "error",
          this.dates[kind],
          (n) => `${plural(n, "key")} hold a date as ${formats}: string order is not time order.`,
        ],
        [
          "key-order-differs",
          "warning",
          this.order[kind],
          (n) =>
            `${plural(n, "pair")} of neighbouring keys sort one way by UTF-16 code units (Azure, the embedded engine) and the other way by UTF-8 bytes (DynamoDB).`,
        ],
        [
          "prefix-over-match",
          "warning",
          this.overMatch[kind],
          (n) =>
            `${plural(n, "key")} are the start of a longer key's last component: a starts-with query for the first returns the second too.`,
        ],
      ];
      for (const [id, severity, t, message] of tallies) {
        if (t.count === 0) continue;
        out.push(
          finding(id, severity, {
            subject: kind,
            count: t.count,
            message: message(t.count),
            examples: t.examples.list,
          }),
        );
      }
    }
    out.push(...this.separatorFindings());
    return out;
  }

  private separatorFindings(): AdvisorFinding[] {
    const out: AdvisorFinding[] = [];
    for (const [id, s] of this.separators) {
      const [kind, family, sep] = id.split("\u0000") as [KeyKind, string, string];
      const plain = s.keys - s.encoded;
      if (plain < 5 || s.encoded >= 0.9 * s.keys) continue;
      let modal = 0;
      for (const [n, c] of s.byCount) if (c > (s.byCount.get(modal) ?? 0)) modal = n;
      const share = (s.byCount.get(modal) ?? 0) / plain;
      if (modal < 1 || share < 0.6) continue;
      const more = [...s.byCount].filter(([n]) => n > modal);
      if (more.length === 0) continue;
      const count = more.reduce((sum, [, c]) => sum + c, 0);
      out.push(
        finding("separator-in-component", "warning", {
          subject: `${kind} (${family ? `${family}${sep}…` : `keys joined by ${sep}`})`,
          count,
          message: `${plural(plain, "key")} are joined by '${sep}' with ${modal} separator${modal === 1 ? "" : "s"} as a rule, but ${plural(count, "key")} hold more: a component contains '${sep}', so splitting is ambiguous and prefix queries over-match.`,
          examples: more.flatMap(([n]) => s.exampleByCount.get(n)?.list ?? []).slice(0, 5),
        }),
      );
    }
    return out;
  }
}

/**
 * `prev` is a whole compound key and `next` (its successor in key order) extends prev's last
 * component: `us_wa` then `us_washington`. Digit-only last components are the padding checks' job.
 */
function overMatches(prev: string, next: string): boolean {
  if (next.length <= prev.length || !next.startsWith(prev)) return false;
  const fam = familyOf(prev);
  if (!fam || prev.endsWith(fam.separator) || prev.endsWith("!")) return false;
  const last = prev.slice(prev.lastIndexOf(fam.separator) + 1);
  if (last === "" || /^\d+$/.test(last)) return false;
  return /[A-Za-z0-9]/.test(next[prev.length]!);
}
