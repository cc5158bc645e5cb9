/**
 * The codecs `tablekit keys` can show, each with how to read its inputs from the command line and
 * how to print what it decodes. One spec per codec; the command itself is generic.
 */
import {
  chronologicalTicks,
  compoundKey,
  float64,
  hashBuckets,
  hierarchicalKey,
  int64,
  invertedTicks,
  type KeyCodec,
  paddedBigInt,
  paddedInt,
  signedInt,
  versionKey,
} from "../../keys/index.js";
import { DateTime, TableKitError } from "../../model/index.js";
import { doubleText } from "../formats/value-text.js";

/** Options the codec subcommands accept (each spec reads the ones it needs). */
export interface KeysOptions {
  max?: string;
  width?: string;
  descending?: boolean;
  levels?: string;
  buckets?: string;
  digits?: string;
}

/** How one codec meets the command line. */
export interface CodecSpec {
  /** Subcommand name. */
  readonly command: string;
  readonly summary: string;
  /** The argument's help text. */
  readonly argument: string;
  /** Commander option flags this codec reads, with their descriptions. */
  readonly options: readonly (readonly [flags: string, description: string])[];
  /** True when all arguments together make one value (the components of a compound key). */
  readonly oneValue?: boolean;
  codec(opts: KeysOptions): KeyCodec<unknown, unknown>;
  /** The value the arguments stand for. */
  parse(args: readonly string[]): unknown;
  /** A value as text, for the table. */
  show(value: unknown): string;
}

function invalid(message: string): TableKitError {
  return new TableKitError("InvalidInput", message);
}

function integerOption(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text))
    throw invalid(`--${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

function oneArg(args: readonly string[]): string {
  return args[0]!;
}

const showPlain = (v: unknown) => (typeof v === "number" ? doubleText(v) : String(v));
const showJson = (v: unknown) => JSON.stringify(v);

function parseNumber(text: string): number {
  const n = Number(text);
  if (text.trim() === "" || (Number.isNaN(n) && text !== "NaN"))
    throw invalid(`not a number: ${JSON.stringify(text)}`);
  return n;
}

function parseTime(text: string): DateTime {
  if (text === "now") return DateTime.now();
  // A bare date means its UTC midnight, as in the seed articles.
  return DateTime.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
}

const TICKS_ARGUMENT =
  "instants: ISO 8601 (UTC unless an offset is given, up to 7 fractional digits) or 'now'";

export const CODEC_SPECS: readonly CodecSpec[] = [
  {
    command: "padded",
    summary: "zero-padded non-negative integers (seeds 000, 003)",
    argument: "integers",
    options: [
      ["--max <n>", "the largest value a key will hold; fixes the width (default 999999)"],
      ["--width <digits>", "pad to this many digits instead"],
      ["--descending", "write max - n, so larger values sort first"],
    ],
    codec: (o) => {
      const max = BigInt(o.max ?? "999999");
      const width = o.width === undefined ? undefined : integerOption(o.width, "width", 0);
      const base = { ...(width === undefined ? {} : { width }), descending: o.descending === true };
      return (
        max <= BigInt(Number.MAX_SAFE_INTEGER)
          ? paddedInt({ ...base, max: Number(max) })
          : paddedBigInt({ ...base, max })
      ) as KeyCodec<unknown, unknown>;
    },
    parse: (args) => {
      const text = oneArg(args);
      if (!/^-?\d+$/.test(text)) throw invalid(`not an integer: ${JSON.stringify(text)}`);
      return BigInt(text) <= BigInt(Number.MAX_SAFE_INTEGER) && BigInt(text) >= 0n
        ? Number(text)
        : BigInt(text);
    },
    show: showPlain,
  },
  {
    command: "signed",
    summary: "safe integers, negatives included, in numeric order",
    argument: "integers",
    options: [],
    codec: () => signedInt() as KeyCodec<unknown, unknown>,
    parse: (args) => parseNumber(oneArg(args)),
    show: showPlain,
  },
  {
    command: "int64",
    summary: "Int64 values (-2^63 .. 2^63-1), in numeric order",
    argument: "integers",
    options: [],
    codec: () => int64() as KeyCodec<unknown, unknown>,
    parse: (args) => {
      const text = oneArg(args);
      if (!/^-?\d+$/.test(text)) throw invalid(`not an integer: ${JSON.stringify(text)}`);
      return BigInt(text);
    },
    show: showPlain,
  },
  {
    command: "double",
    summary: "doubles as 16 hex digits in numeric order (-Infinity … NaN)",
    argument: "numbers (NaN, Infinity, -Infinity, -0 allowed)",
    options: [],
    codec: () => float64() as KeyCodec<unknown, unknown>,
    parse: (args) => parseNumber(oneArg(args)),
    show: showPlain,
  },
  {
    command: "ticks",
    summary: "chronological .NET ticks, 19 digits, oldest first (seed 000)",
    argument: TICKS_ARGUMENT,
    options: [],
    codec: () => chronologicalTicks() as KeyCodec<unknown, unknown>,
    parse: (args) => parseTime(oneArg(args)),
    show: showPlain,
  },
  {
    command: "inverted-ticks",
    summary: "DateTime.MaxValue.Ticks - ticks, 19 digits, newest first (seeds 000, 002)",
    argument: TICKS_ARGUMENT,
    options: [],
    codec: () => invertedTicks() as KeyCodec<unknown, unknown>,
    parse: (args) => parseTime(oneArg(args)),
    show: showPlain,
  },
  {
    command: "compound",
    summary: "one key made of several string components, in component order",
    argument: "the components of one key (with --decode: keys)",
    options: [],
    oneValue: true,
    codec: () => compoundKey() as KeyCodec<unknown, unknown>,
    parse: (args) => [...args],
    show: showJson,
  },
  {
    command: "hierarchical",
    summary: "a path of a fixed hierarchy as one sort key (seed 004)",
    argument: "the segments of one path, outermost first (with --decode: keys)",
    options: [
      [
        "--levels <names>",
        "level names, comma-separated (default country,region,state,county,city,neighborhood)",
      ],
    ],
    oneValue: true,
    codec: (o) =>
      hierarchicalKey({
        levels: (o.levels ?? "country,region,state,county,city,neighborhood").split(",").map((s) => s.trim()),
      }) as KeyCodec<unknown, unknown>,
    parse: (args) => [...args],
    show: showJson,
  },
  {
    command: "version",
    summary: "v0_ latest copy and zero-padded history versions (seed 004)",
    argument: "a version number then an optional item, e.g. '3 Audit' (with --decode: keys)",
    options: [["--digits <n>", "digits of a history version (default 6)"]],
    oneValue: true,
    codec: (o) =>
      versionKey(o.digits === undefined ? {} : { digits: integerOption(o.digits, "digits", 6) }) as KeyCodec<
        unknown,
        unknown
      >,
    parse: (args) => {
      if (args.length > 2) throw invalid("give a version and at most one item");
      const version = args[0] ?? "";
      if (!/^\d+$/.test(version))
        throw invalid(`the version must be an integer, got ${JSON.stringify(version)}`);
      return { version: Number(version), item: args[1] ?? "" };
    },
    show: showJson,
  },
  {
    command: "bucket",
    summary: "hash-bucket prefixes that spread a hot key over partitions",
    argument: "keys to bucket",
    options: [["--buckets <n>", "how many buckets (default 16)"]],
    codec: (o) =>
      hashBuckets({ buckets: integerOption(o.buckets, "buckets", 16) }) as unknown as KeyCodec<
        unknown,
        unknown
      >,
    parse: (args) => oneArg(args),
    show: showPlain,
  },
];
