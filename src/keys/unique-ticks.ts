import { randomBytes } from "node:crypto";
import { DateTime, MAX_TICKS } from "../model/index.js";
import type { KeyCodec, KeyInterval } from "./codec.js";
import { invalidInput, outOfRange, requireString } from "./errors.js";
import { ticksRange } from "./ticks.js";
import { formatTicks, parseTicks, TICKS_DIGITS, type TimeInput, toDateTime } from "./time-input.js";

/** The parts of a unique time key. */
export interface UniqueTimeKey {
  readonly time: DateTime;
  /** The process-wide creation counter (0 .. 2^48 - 1) when the key was made. */
  readonly counter: number;
  /** Who made it: this process's random node id unless one was given. */
  readonly node: string;
}

/** What `encode` takes: the parts of a key, with the time as a DateTime or a Date. */
export interface UniqueTimeKeyInput {
  readonly time: TimeInput;
  readonly counter: number;
  readonly node: string;
}

export interface UniqueTicksOptions {
  /** Newest first: inverted ticks, and an inverted counter so later keys of one tick come first. */
  readonly inverted?: boolean;
  /** A fixed node id (1-32 of `0-9 A-Z a-z _ -`), e.g. a worker number; default: 12 random hex digits per process. */
  readonly node?: string;
}

/** A unique time key codec: `<19-digit ticks>_<12 hex counter><node>`. */
export interface UniqueTicksCodec extends KeyCodec<UniqueTimeKeyInput, UniqueTimeKey> {
  readonly inverted: boolean;
  readonly node: string;
  /** A new key for `time` (default: `DateTime.now()`), never equal to another key of this process. */
  next(time?: TimeInput): string;
  /** The keys of the instants `from <= t < to`, as for tick keys. */
  range(from: TimeInput, to: TimeInput): KeyInterval;
}

const COUNTER_DIGITS = 12;
/** 2^48 - 1: at a million keys a second, nine years of keys from one process. */
export const MAX_UNIQUE_COUNTER = 2 ** 48 - 1;
const NODE_PATTERN = /^[0-9A-Za-z_-]{1,32}$/;
const COUNTER_PATTERN = /^[0-9a-f]{12}$/;

/** Chosen once per process: two processes share a node id with probability about n²/2^49. */
const PROCESS_NODE = randomBytes(6).toString("hex");
/** Shared by every unique-key codec of the process, so no two of them hand out the same counter. */
let processCounter = 0;

/**
 * Time keys that stay unique when many are made in one tick (a JS `Date` has only millisecond
 * ticks): `<ticks or inverted ticks, 19 digits>_<counter, 12 hex><node>`.
 *
 * Guarantees: (1) keys made by `next()` in one process are all distinct (one process-wide counter
 * that never repeats; it throws OutOfRangeInput after 2^48 keys); (2) keys of different processes
 * are distinct unless the two processes drew the same 48-bit random node id (or were given the same
 * `node`); (3) keys sort by time first; keys of one process and one tick sort by creation — oldest
 * first for chronological keys, newest first for inverted ones — so with the default clock
 * (`DateTime.now()`, strictly increasing) a process's keys sort in creation order. Keys of one tick
 * from different processes sort by counter, then node: unique, but in no meaningful order.
 */
export function uniqueTicks(options: UniqueTicksOptions = {}): UniqueTicksCodec {
  const inverted = options.inverted === true;
  const name = inverted ? "uniqueInvertedTicks" : "uniqueTicks";
  const node = options.node ?? PROCESS_NODE;
  checkNode(name, node);
  const storedTicks = (ticks: bigint) => (inverted ? MAX_TICKS - ticks : ticks);
  const storedCounter = (counter: number) => (inverted ? MAX_UNIQUE_COUNTER - counter : counter);

  const codec: UniqueTicksCodec = {
    name,
    inverted,
    node,
    encode(value: UniqueTimeKeyInput): string {
      if (typeof value !== "object" || value === null)
        throw invalidInput(name, "expected { time, counter, node }");
      const { counter } = value;
      if (typeof counter !== "number" || !Number.isInteger(counter)) {
        throw invalidInput(name, `counter must be an integer, got ${String(counter)}`);
      }
      if (counter < 0 || counter > MAX_UNIQUE_COUNTER) {
        throw outOfRange(name, `counter ${counter} is outside 0..2^48-1`, { value: counter });
      }
      checkNode(name, value.node);
      const ticks = formatTicks(storedTicks(toDateTime(name, value.time).ticks));
      return `${ticks}_${storedCounter(counter).toString(16).padStart(COUNTER_DIGITS, "0")}${value.node}`;
    },
    decode(key: string): UniqueTimeKey {
      requireString(name, key);
      const counterText = key.slice(TICKS_DIGITS + 1, TICKS_DIGITS + 1 + COUNTER_DIGITS);
      const nodeText = key.slice(TICKS_DIGITS + 1 + COUNTER_DIGITS);
      if (key[TICKS_DIGITS] !== "_" || !COUNTER_PATTERN.test(counterText) || !NODE_PATTERN.test(nodeText)) {
        throw invalidInput(name, `expected <19 digits>_<12 hex digits><node>, got ${JSON.stringify(key)}`);
      }
      const ticks = parseTicks(name, key.slice(0, TICKS_DIGITS), key);
      return {
        time: DateTime.fromTicks(storedTicks(ticks)),
        counter: storedCounter(Number.parseInt(counterText, 16)),
        node: nodeText,
      };
    },
    next(time?: TimeInput): string {
      const at = time === undefined ? DateTime.now() : toDateTime(name, time);
      if (processCounter > MAX_UNIQUE_COUNTER) {
        throw outOfRange(name, "this process has used every counter value (2^48 keys)");
      }
      return codec.encode({ time: at, counter: processCounter++, node });
    },
    range: (from, to) => ticksRange(name, inverted, from, to),
    describe: () => {
      const input = { time: DateTime.parse("2010-05-28T00:00:00Z"), counter: 42, node: "0f1e2d3c4b5a" };
      return {
        name,
        parameters: { inverted, node, counterDigits: COUNTER_DIGITS },
        example: { input, output: codec.encode(input) },
      };
    },
  };
  return codec;
}

function checkNode(name: string, node: unknown): void {
  if (typeof node !== "string" || !NODE_PATTERN.test(node)) {
    throw invalidInput(name, `node must be 1-32 characters of 0-9 A-Z a-z _ -, got ${JSON.stringify(node)}`);
  }
}
