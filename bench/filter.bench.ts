/**
 * `$filter` throughput: parsing (against JSON.parse of the same tree as a native yardstick), key
 * range derivation, and evaluation per entity (interpreted and compiled, against a hand-written
 * predicate doing the same checks). Run: npx tsx bench/filter.bench.ts
 */
import {
  compileFilter,
  evaluateFilter,
  type FilterableEntity,
  keyRanges,
  parseFilter,
} from "../src/filter/index.js";
import { DateTime, type TypedValue } from "../src/model/index.js";
import { sized } from "./support/bench-mode.js";

const MEASURE_MS = sized(300, 5);

const FILTERS = {
  point: "PartitionKey eq 'customers' and RowKey eq '000123'",
  range: "PartitionKey eq 'orders' and RowKey ge '2024-01' and RowKey lt '2024-02' and Total gt 100.5",
  mixed:
    "(Status eq 'open' or Status eq 'pending') and not (Priority lt 3) and Created ge datetime'2024-01-01T00:00:00Z' and Owner ne guid'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'",
  fifteen: Array.from({ length: 15 }, (_, i) => `Tag${i} eq 'value-${i}'`).join(" or "),
};

/** Runs `fn` repeatedly for about `ms` after a warm-up; returns operations per second. */
function measure(fn: () => unknown, opsPerCall = 1, ms = MEASURE_MS): number {
  let sink = 0;
  const deadline = performance.now() + ms / 3;
  while (performance.now() < deadline) sink += fn() ? 1 : 0;
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 16; i++) sink += fn() ? 1 : 0;
    calls += 16;
    now = performance.now();
  }
  if (sink === -1) console.log("unreachable");
  return (calls * opsPerCall) / ((now - start) / 1000);
}

function table(title: string, rows: { name: string; ops: number; baseline: number }[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((r) => ({
      case: r.name,
      "ops/s": Math.round(r.ops).toLocaleString("en-US"),
      "vs baseline": `${(r.ops / r.baseline).toFixed(2)}x`,
    })),
  );
}

// Parsing: the baseline is V8's native JSON.parse reading the same tree (an upper bound to aim at).
const parseRows = Object.entries(FILTERS).flatMap(([name, text]) => {
  const json = JSON.stringify(parseFilter(text), (_, v) => (typeof v === "bigint" ? v.toString() : v));
  const baseline = measure(() => JSON.parse(json));
  return [
    { name: `${name}: JSON.parse of the tree (baseline)`, ops: baseline, baseline },
    { name: `${name}: parseFilter`, ops: measure(() => parseFilter(text)), baseline },
  ];
});
table("parse (ops = filters parsed)", parseRows);

const rangeRows = Object.entries(FILTERS).map(([name, text]) => {
  const node = parseFilter(text);
  const ops = measure(() => keyRanges(node));
  return {
    name: `${name}: keyRanges`,
    ops,
    baseline: parseRows.find((r) => r.name === `${name}: parseFilter`)!.ops,
  };
});
table("key ranges (baseline: parsing the same filter)", rangeRows);

// Evaluation over 1,000 entities; ops = entities tested.
const statuses = ["open", "pending", "closed"];
const entities: FilterableEntity[] = Array.from({ length: 1000 }, (_, i) => {
  const properties = new Map<string, TypedValue>([
    ["Total", { type: "Double", value: (i * 7.31) % 500 }],
    ["Status", { type: "String", value: statuses[i % 3]! }],
    ["Priority", { type: "Int32", value: i % 6 }],
    [
      "Created",
      { type: "DateTime", value: DateTime.fromEpochMilliseconds(1_700_000_000_000 + i * 86_400_000) },
    ],
    [
      "Owner",
      {
        type: "Guid",
        value: i % 10 === 0 ? "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee" : "00000000-0000-0000-0000-000000000000",
      },
    ],
  ]);
  for (let t = 0; t < 15; t++)
    if (i % 15 === t) properties.set(`Tag${t}`, { type: "String", value: `value-${t}` });
  const partitionKey = i % 2 ? "orders" : "customers";
  return { partitionKey, rowKey: `2024-${String((i % 12) + 1).padStart(2, "0")}-${i}`, properties };
});

const CREATED = DateTime.parse("2024-01-01T00:00:00Z").ticks;
const HAND_WRITTEN: Record<string, (e: FilterableEntity) => boolean> = {
  point: (e) => e.partitionKey === "customers" && e.rowKey === "000123",
  range: (e) => {
    const t = e.properties.get("Total");
    return (
      e.partitionKey === "orders" &&
      e.rowKey >= "2024-01" &&
      e.rowKey < "2024-02" &&
      t?.type === "Double" &&
      t.value > 100.5
    );
  },
  mixed: (e) => {
    const s = e.properties.get("Status");
    const p = e.properties.get("Priority");
    const c = e.properties.get("Created");
    const o = e.properties.get("Owner");
    return (
      s?.type === "String" &&
      (s.value === "open" || s.value === "pending") &&
      !(p?.type === "Int32" && p.value < 3) &&
      c?.type === "DateTime" &&
      c.value.ticks >= CREATED &&
      o?.type === "Guid" &&
      o.value !== "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
    );
  },
  fifteen: (e) => {
    for (let t = 0; t < 15; t++) {
      const v = e.properties.get(`Tag${t}`);
      if (v?.type === "String" && v.value === `value-${t}`) return true;
    }
    return false;
  },
};

const scan = (predicate: (e: FilterableEntity) => boolean) => () => {
  let n = 0;
  for (const e of entities) if (predicate(e)) n++;
  return n;
};
const evalRows = Object.entries(FILTERS).flatMap(([name, text]) => {
  const node = parseFilter(text);
  const compiled = compileFilter(node);
  const hand = HAND_WRITTEN[name]!;
  for (const e of entities) {
    if (hand(e) !== compiled(e) || compiled(e) !== evaluateFilter(node, e))
      throw new Error(`${name} disagrees`);
  }
  const baseline = measure(scan(hand), entities.length);
  return [
    { name: `${name}: hand-written predicate (baseline)`, ops: baseline, baseline },
    {
      name: `${name}: evaluateFilter`,
      ops: measure(
        scan((e) => evaluateFilter(node, e)),
        entities.length,
      ),
      baseline,
    },
    { name: `${name}: compileFilter`, ops: measure(scan(compiled), entities.length), baseline },
  ];
});
table("evaluate (ops = entities tested)", evalRows);
