/**
 * Key codec throughput: encode and decode ops/s for every codec of `tablekit/keys`, each against a
 * naive baseline measured in the same run (`String(n).padStart`, `toString()`, `join`/`split`…)
 * that does the formatting without the codec's checks or order guarantees. A ratio of 0.5× means
 * the codec runs at half the baseline's speed. Run: npx tsx bench/keys.bench.ts
 */
import { createHash } from "node:crypto";
import {
  chronologicalTicks,
  compoundKey,
  float64,
  hashBuckets,
  hierarchicalKey,
  int64,
  invertedTicks,
  paddedBigInt,
  paddedInt,
  prefixRange,
  signedInt,
  uniqueTicks,
  validateKeyEverywhere,
  versionKey,
} from "../src/keys/index.js";
import { DateTime } from "../src/model/index.js";
import { sized } from "./support/bench-mode.js";

const MAX_TICKS = 3155378975999999999n;
const N = sized(1024, 16);
const MEASURE_MS = sized(120, 2);

/** Operations per second of `op` over `inputs`, after a short warm-up. */
function measure<T>(inputs: readonly T[], op: (x: T) => unknown): number {
  let sink = 0;
  const run = (ms: number) => {
    let ops = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ms) {
      for (let i = 0; i < inputs.length; i++) sink += op(inputs[i]!) === undefined ? 0 : 1;
      ops += inputs.length;
      now = performance.now();
    }
    return ops / ((now - start) / 1000);
  };
  run(MEASURE_MS / 3);
  const result = run(MEASURE_MS);
  if (sink === -1) console.log("unreachable");
  return result;
}

interface Case<T> {
  name: string;
  inputs: readonly T[];
  encode: (x: T) => string;
  /** Absent where there is nothing to decode (ranges, validation). */
  decode?: (key: string) => unknown;
  baselineEncode?: (x: T) => string;
  baselineDecode?: (key: string) => unknown;
}

const ints = Array.from({ length: N }, (_, i) => (i * 7919) % 1_000_000);
const bigs = Array.from({ length: N }, (_, i) => BigInt(i) * 18_014_398_509_481_951n);
const signed = Array.from({ length: N }, (_, i) => (i % 2 ? -1 : 1) * i * 8_796_093_022_207);
const longs = bigs.map((b, i) => (i % 2 ? -b : b) / 2n);
const doubles = Array.from({ length: N }, (_, i) => (i % 2 ? -1 : 1) * Math.sin(i) * 10 ** (i % 40));
const times = Array.from({ length: N }, (_, i) =>
  DateTime.fromTicks(634_106_016_000_000_000n + BigInt(i) * 9_999_991n),
);
const tuples = Array.from({ length: N }, (_, i) => [
  "empid",
  String(i).padStart(6, "0"),
  i % 3 ? "2012" : "review note",
]);
const paths = Array.from({ length: N }, (_, i) => ["us", i % 2 ? "wa" : "or", "king", `city${i}`]);
const prefixes = Array.from({ length: N }, (_, i) => `email_${String.fromCharCode(97 + (i % 26))}${i}`);
const items = Array.from({ length: N }, (_, i) => ({ version: (i % 999) + 1, item: `Audit${i % 10}` }));
const hourKeys = Array.from({ length: N }, (_, i) => `2014-07-31T${String(i % 24).padStart(2, "0")}_emp${i}`);

const padded = paddedInt({ max: 999999 });
const paddedBig = paddedBigInt({ max: 2n ** 64n - 1n });
const sInt = signedInt();
const i64 = int64();
const f64 = float64();
const chrono = chronologicalTicks();
const inverted = invertedTicks();
const unique = uniqueTicks();
const compound = compoundKey();
const places = hierarchicalKey({ levels: ["country", "region", "state", "city"] });
const versions = versionKey();
const buckets = hashBuckets({ buckets: 16 });

/** Erases a case's input type so cases of different types fit in one list. */
const defineCase = <T>(c: Case<T>) => c as unknown as Case<unknown>;

const cases: Case<unknown>[] = [
  defineCase({
    name: "paddedInt",
    inputs: ints,
    encode: (n: number) => padded.encode(n),
    decode: (k) => padded.decode(k),
    baselineEncode: (n: number) => String(n).padStart(6, "0"),
    baselineDecode: (k) => Number(k),
  }),
  defineCase({
    name: "paddedBigInt",
    inputs: bigs,
    encode: (n: bigint) => paddedBig.encode(n),
    decode: (k) => paddedBig.decode(k),
    baselineEncode: (n: bigint) => n.toString().padStart(20, "0"),
    baselineDecode: (k) => BigInt(k),
  }),
  defineCase({
    name: "signedInt",
    inputs: signed,
    encode: (n: number) => sInt.encode(n),
    decode: (k) => sInt.decode(k),
    baselineEncode: (n: number) => String(n),
    baselineDecode: (k) => Number(k),
  }),
  defineCase({
    name: "int64",
    inputs: longs,
    encode: (n: bigint) => i64.encode(n),
    decode: (k) => i64.decode(k),
    baselineEncode: (n: bigint) => n.toString(),
    baselineDecode: (k) => BigInt(k),
  }),
  defineCase({
    name: "float64",
    inputs: doubles,
    encode: (x: number) => f64.encode(x),
    decode: (k) => f64.decode(k),
    baselineEncode: (x: number) => x.toString(),
    baselineDecode: (k) => Number(k),
  }),
  defineCase({
    name: "chronologicalTicks",
    inputs: times,
    encode: (t: DateTime) => chrono.encode(t),
    decode: (k) => chrono.decode(k),
    baselineEncode: (t: DateTime) => t.ticks.toString(),
    baselineDecode: (k) => BigInt(k),
  }),
  defineCase({
    name: "invertedTicks",
    inputs: times,
    encode: (t: DateTime) => inverted.encode(t),
    decode: (k) => inverted.decode(k),
    baselineEncode: (t: DateTime) => (MAX_TICKS - t.ticks).toString(),
    baselineDecode: (k) => MAX_TICKS - BigInt(k),
  }),
  defineCase({
    name: "uniqueTicks.next(t)",
    inputs: times,
    encode: (t: DateTime) => unique.next(t),
    decode: (k) => unique.decode(k),
    baselineEncode: (t: DateTime) => `${t.ticks.toString()}_${unique.node}`,
    baselineDecode: (k) => BigInt(k.slice(0, 19)),
  }),
  defineCase({
    name: "compoundKey",
    inputs: tuples,
    encode: (t: string[]) => compound.encode(t),
    decode: (k) => compound.decode(k),
    baselineEncode: (t: string[]) => t.join("_"),
    baselineDecode: (k) => k.split("_"),
  }),
  defineCase({
    name: "hierarchicalKey",
    inputs: paths,
    encode: (p: string[]) => places.encode(p),
    decode: (k) => places.decode(k),
    baselineEncode: (p: string[]) => p.join("#"),
    baselineDecode: (k) => k.split("#"),
  }),
  defineCase({
    name: "prefixRange (upper)",
    inputs: prefixes,
    encode: (p: string) => prefixRange(p).upper!,
    baselineEncode: (p: string) => p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1),
  }),
  defineCase({
    name: "versionKey",
    inputs: items,
    encode: (v: { version: number; item: string }) => versions.encode(v),
    decode: (k) => versions.decode(k),
    baselineEncode: (v: { version: number; item: string }) =>
      `v${String(v.version).padStart(6, "0")}_${v.item}`,
  }),
  defineCase({
    name: "hashBuckets (FNV-1a)",
    inputs: hourKeys,
    encode: (k: string) => buckets.encode(k),
    decode: (k) => buckets.decode(k),
    baselineEncode: (k: string) =>
      `${String(Number.parseInt(createHash("sha256").update(k).digest("hex").slice(0, 8), 16) % 16).padStart(2, "0")}_${k}`,
  }),
  defineCase({
    name: "validateKeyEverywhere",
    inputs: tuples.map((t) => compound.encode(t)),
    encode: (k: string) => validateKeyEverywhere("RowKey", k),
    baselineEncode: (k: string) => (/[/\\#?\u0000-\u001f\u007f-\u009f]/.test(k) ? "" : k),
  }),
];

const fmt = (n: number | undefined) => (n === undefined ? "—" : Math.round(n).toLocaleString("en-US"));
const ratio = (a: number, b: number | undefined) => (b === undefined ? "—" : `${(a / b).toFixed(2)}×`);

const rows: Record<string, string>[] = [];
for (const c of cases) {
  const keys = c.inputs.map((x) => c.encode(x));
  const encodeOps = measure(c.inputs, c.encode);
  const baseEncodeOps = c.baselineEncode ? measure(c.inputs, c.baselineEncode) : undefined;
  const decodeOps = c.decode ? measure(keys, c.decode) : undefined;
  const baseDecodeOps = c.baselineDecode ? measure(keys, c.baselineDecode) : undefined;
  rows.push({
    codec: c.name,
    "encode ops/s": fmt(encodeOps),
    "encode baseline": fmt(baseEncodeOps),
    "encode ratio": ratio(encodeOps, baseEncodeOps),
    "decode ops/s": fmt(decodeOps),
    "decode baseline": fmt(baseDecodeOps),
    "decode ratio": decodeOps === undefined ? "—" : ratio(decodeOps, baseDecodeOps),
  });
}

console.log("Key codecs (ratio = codec ops/s ÷ naive baseline ops/s, same run)\n");
console.table(rows);
