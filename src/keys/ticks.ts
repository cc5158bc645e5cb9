import { DateTime, MAX_TICKS } from "../model/index.js";
import type { KeyCodec, KeyInterval } from "./codec.js";
import { invalidInput } from "./errors.js";
import { formatTicks, parseTicks, type TimeInput, toDateTime } from "./time-input.js";

/** A .NET-ticks key codec: 19 digits, exact to 100 ns (BigInt), decoding to a `DateTime`. */
export interface TicksCodec extends KeyCodec<TimeInput, DateTime> {
  /** True for the reverse-chronological form (newest first). */
  readonly inverted: boolean;
  /**
   * The keys of the instants `from <= t < to`, including any key that extends them (the unique
   * time keys of those instants): `RowKey ge lower and RowKey lt upper` reads that time window.
   */
  range(from: TimeInput, to: TimeInput): KeyInterval;
}

const SAMPLE = DateTime.parse("2010-05-28T00:00:00Z");

/**
 * Chronological keys (seed 000): `String.Format("{0:D19}", DateTime.UtcNow.Ticks)`, oldest first.
 * `chronologicalTicks().encode(DateTime.parse("2010-05-28T00:00:00Z"))` is `"0634106016000000000"`.
 */
export function chronologicalTicks(): TicksCodec {
  return ticksCodec("chronologicalTicks", false);
}

/**
 * Reverse-chronological keys (seeds 000 and 002): `{0:D19}` of `DateTime.MaxValue.Ticks - ticks`,
 * so the newest entity comes first in a partition (the log-tail query). 2010-05-28 (UTC midnight)
 * is `"2521272959999999999"`.
 */
export function invertedTicks(): TicksCodec {
  return ticksCodec("invertedTicks", true);
}

function ticksCodec(name: string, inverted: boolean): TicksCodec {
  const stored = (ticks: bigint) => (inverted ? MAX_TICKS - ticks : ticks);
  const codec: TicksCodec = {
    name,
    inverted,
    encode: (value) => formatTicks(stored(toDateTime(name, value).ticks)),
    decode: (key) => DateTime.fromTicks(stored(parseTicks(name, key, key))),
    range: (from, to) => ticksRange(name, inverted, from, to),
    describe: () => ({
      name,
      parameters: { width: 19, inverted, maxTicks: MAX_TICKS },
      example: { input: SAMPLE, output: codec.encode(SAMPLE) },
    }),
  };
  return codec;
}

/** The half-open key interval of the instants `from <= t < to` for (inverted) tick keys. */
export function ticksRange(codec: string, inverted: boolean, from: TimeInput, to: TimeInput): KeyInterval {
  const a = toDateTime(codec, from).ticks;
  const b = toDateTime(codec, to).ticks;
  if (a > b) throw invalidInput(codec, "range: `from` is after `to`");
  // Inverted keys of a <= t < b are MAX - b < v <= MAX - a; a key extending v sorts below v + 1.
  return inverted
    ? { lower: formatTicks(MAX_TICKS - b + 1n), upper: formatTicks(MAX_TICKS - a + 1n) }
    : { lower: formatTicks(a), upper: formatTicks(b) };
}
