/**
 * Numbers inside keys: digit runs of one key shape (`empid_#`, `#`, `v#_*`) whose widths vary
 * sort as strings (1, 10, 2) — unpadded, or padded narrower than the values grew — and .NET ticks
 * written with 18 digits instead of seed 000's 19.
 */
import { boundedGet, type Collector, type KeyKind, plural, type ScannedEntity } from "./collector.js";
import { type AdvisorFinding, finding } from "./findings.js";
import { numericShape, showKey, ticksForm, unsortableDateIn } from "./key-shapes.js";

/** The digit runs at one place of one key shape. */
interface RunStats {
  count: number;
  /** Runs by width. */
  readonly widths: Map<number, number>;
  /** Zero-led runs (padded) by width. */
  readonly paddedWidths: Map<number, number>;
  /** The key of the first run of each width. */
  readonly exampleByWidth: Map<number, string>;
  /** Per width, the lowest and highest run in string order, with their keys. */
  readonly lowest: Map<number, [run: string, key: string]>;
  readonly highest: Map<number, [run: string, key: string]>;
  /** Runs that read as ticks: 18-digit, 19-digit, inverted. */
  ticks18: number;
  ticks19: number;
  /** The template segment holds a `v` version prefix (`v0_` is the latest copy, not a number). */
  readonly versionMarker: boolean;
}

const MAX_SHAPES = 256;

export class NumericKeys implements Collector {
  private readonly shapes = new Map<string, RunStats[]>();

  startPartition(partitionKey: string): void {
    this.addKey("PartitionKey", partitionKey);
  }

  add(entity: ScannedEntity): void {
    this.addKey("RowKey", entity.rowKey);
  }

  private addKey(kind: KeyKind, key: string): void {
    if (unsortableDateIn(key)) return; // the date finding says it better
    const shape = numericShape(key);
    if (!shape) return;
    // Ticks form their own group: 19-digit instants beside small numbers are two schemes, not one.
    const tokens = [...shape.tokens];
    shape.runs.forEach((run, i) => {
      if (ticksForm(run)) tokens[shape.runAt[i]!] = tokens[shape.runAt[i]!]!.replace(/#$/, "T");
    });
    const template = JSON.stringify([kind, ...tokens]);
    const stats = boundedGet(this.shapes, template, MAX_SHAPES, () =>
      shape.runs.map((_, i) => ({
        count: 0,
        widths: new Map(),
        paddedWidths: new Map(),
        exampleByWidth: new Map(),
        lowest: new Map(),
        highest: new Map(),
        ticks18: 0,
        ticks19: 0,
        versionMarker: /^v[#T]$/.test(tokens[shape.runAt[i]!]!),
      })),
    );
    if (!stats) return;
    shape.runs.forEach((run, i) => {
      const s = stats[i]!;
      s.count++;
      s.widths.set(run.length, (s.widths.get(run.length) ?? 0) + 1);
      if (run.length > 1 && run.startsWith("0"))
        s.paddedWidths.set(run.length, (s.paddedWidths.get(run.length) ?? 0) + 1);
      if (!s.exampleByWidth.has(run.length) && s.exampleByWidth.size < 16)
        s.exampleByWidth.set(run.length, key);
      if (s.exampleByWidth.has(run.length)) {
        const low = s.lowest.get(run.length);
        if (!low || run < low[0]) s.lowest.set(run.length, [run, key]);
        const high = s.highest.get(run.length);
        if (!high || run > high[0]) s.highest.set(run.length, [run, key]);
      }
      const form = ticksForm(run);
      if (form === "ticks18") s.ticks18++;
      else if (form) s.ticks19++;
    });
  }

  endPartition(): void {}

  findings(): AdvisorFinding[] {
    const out: AdvisorFinding[] = [];
    for (const [id, runs] of this.shapes) {
      const [kind, ...tokens] = JSON.parse(id) as [KeyKind, ...string[]];
      const template = tokens.join("");
      for (const s of runs) {
        const f = judge(kind, template, s);
        if (f) out.push(f);
      }
    }
    return out;
  }
}

function judge(kind: KeyKind, template: string, s: RunStats): AdvisorFinding | undefined {
  const where = /^[#T]$/.test(template) ? kind : `${kind} (shape ${template.replaceAll("T", "#")})`;
  if (s.ticks18 + s.ticks19 >= 0.9 * s.count) {
    if (s.ticks18 === 0) return undefined;
    const mixed = s.ticks19 > 0;
    return finding("ticks-key-wrong-width", mixed ? "error" : "warning", {
      subject: where,
      count: s.ticks18,
      message: mixed
        ? `${plural(s.ticks18, "key")} hold 18-digit .NET ticks beside ${plural(s.ticks19, "19-digit one")}: the two widths do not sort together.`
        : `${plural(s.ticks18, "key")} hold .NET ticks as 18 digits, not seed 000's 19 ({0:d19}): keys written by any 19-digit writer (chronologicalTicks, .NET's D19) sort before all of them.`,
      examples: [s.exampleByWidth.get(18), s.exampleByWidth.get(19)].filter(isString).map(showKey),
    });
  }
  if (s.widths.size < 2) return undefined;
  const widths = [...s.widths.keys()].sort((a, b) => a - b);
  const padded = modal(s.paddedWidths);
  if (padded === undefined) {
    const shorter = s.count - (s.widths.get(widths.at(-1)!) ?? 0);
    const [shortRun, short] = s.highest.get(widths[0]!)!;
    const [longRun, long] = s.lowest.get(widths.at(-1)!)!;
    const shown =
      longRun < shortRun
        ? `${showKey(long)} comes before ${showKey(short)}`
        : `the next numbers will sort among the small ones (10 before 9)`;
    return finding("numeric-key-unpadded", "error", {
      subject: where,
      count: shorter,
      message: `Digit-only parts of ${plural(s.count, "key")} have ${widths.length} widths (${widths.join(", ")} digits) and no padding, so they sort as strings: ${shown}.`,
      examples: widths.map((w) => showKey(s.exampleByWidth.get(w)!)),
    });
  }
  const wider = widths.filter((w) => w > padded);
  if (wider.length > 0) {
    const n = wider.reduce((sum, w) => sum + s.widths.get(w)!, 0);
    return finding("numeric-key-too-narrow", "error", {
      subject: where,
      count: n,
      message: `Keys are zero-padded to ${padded} digits, but ${plural(n, "key")} outgrew that width (up to ${widths.at(-1)} digits) and sort among the small numbers.`,
      examples: [padded, ...wider].map((w) => showKey(s.exampleByWidth.get(w)!)),
    });
  }
  const narrower = widths.filter((w) => w < padded && !(w === 1 && s.versionMarker));
  if (narrower.length === 0) return undefined;
  const n = narrower.reduce((sum, w) => sum + s.widths.get(w)!, 0);
  return finding("numeric-key-unpadded", "error", {
    subject: where,
    count: n,
    message: `Most keys are zero-padded to ${padded} digits, but ${plural(n, "key")} ${n === 1 ? "is" : "are"} not (${narrower.join(", ")} digits), so they sort out of numeric order.`,
    examples: [...narrower, padded].map((w) => showKey(s.exampleByWidth.get(w)!)),
  });
}

function modal(counts: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  for (const [w, n] of counts) if (best === undefined || n > counts.get(best)!) best = w;
  return best;
}

const isString = (s: string | undefined): s is string => s !== undefined;
