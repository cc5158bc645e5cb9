import { type PaddedIntCodec, paddedInt, type TimeInput } from "../../keys/index.js";
import {
  DateTime,
  isTableKitError,
  ownValue,
  type PropertyInput,
  TableKitError,
  validatePropertyName,
} from "../../model/index.js";
import type { OperationOptions, Store, Table } from "../../store/index.js";
import { type RetryOptions, type RetryPolicy, retryLostRaces, retryPolicy } from "../shared/support/retry.js";
import { epochMsOf } from "../shared/support/time.js";

/** The stored type of a series' values. */
export type SeriesValueType = "Int32" | "Int64" | "Double";

export interface DataSeriesOptions extends Omit<RetryOptions, "abortSignal"> {
  /** Points kept: 24 for the seed's "messages sent in each of the last 24 hours". */
  readonly points: number;
  /** The length of one point's period, in ms (default one hour). */
  readonly periodMs?: number;
  /** Point properties are this prefix plus a padded slot number (default "P": P00 … P23). */
  readonly prefix?: string;
  /** Int32 (default), Int64 or Double. */
  readonly valueType?: SeriesValueType;
}

/** The entity a series lives in. */
export interface SeriesKey {
  readonly partitionKey: string;
  readonly rowKey: string;
}

/** A series as read: its points, oldest first, and the ETag to guard a write with. */
export interface SeriesSnapshot {
  /** `points` consecutive periods ending with the newest: each period's start and value (0 when nothing was recorded). */
  readonly points: { readonly start: DateTime; readonly value: number }[];
  /** Undefined when the series entity does not exist yet. */
  readonly etag: string | undefined;
}

/** Options of `add` and `set`. */
export interface SeriesWriteOptions extends OperationOptions {
  /** The instant the value belongs to (default: now). */
  readonly at?: TimeInput;
  /**
   * Write only if the series is still at this ETag (UpdateConditionNotSatisfied otherwise; with
   * `null`, only if it does not exist yet). Without it, a lost race is re-read and retried.
   */
  readonly etag?: string | null;
}

/** The property holding the period number of the newest point. */
const END_PROPERTY = "SeriesEnd";
const INT32_MAX = 2147483647;

/**
 * The data series pattern (seed 001): a whole series in one entity — one property per point
 * (`P00`…`P23`), the seed's hourly message counts — so one point read returns it and one
 * ETag-guarded merge updates it. The series rolls: points are periods of `periodMs` and the
 * entity keeps the last `points` of them (slot = period mod points, plus `SeriesEnd`, the newest
 * period), clearing slots as the window moves. Concurrent increments lose nothing: each is a read
 * and a merge conditional on the ETag read, retried with backoff when another writer came first.
 */
export class DataSeries {
  readonly points: number;
  readonly periodMs: number;
  readonly valueType: SeriesValueType;
  private readonly slot: PaddedIntCodec<number>;
  private readonly prefix: string;
  private readonly policy: RetryPolicy;
  /** Lost races so far (each followed by a retry). */
  conflicts = 0;

  constructor(
    readonly store: Store,
    readonly table: Table,
    options: DataSeriesOptions,
  ) {
    const limits = store.capabilities.limits;
    const points = options?.points;
    if (!Number.isInteger(points) || points < 1 || points > limits.maxProperties - 1) {
      throw new TableKitError(
        "InvalidInput",
        `points must be an integer from 1 to ${limits.maxProperties - 1} (one entity's properties, less SeriesEnd); a longer series is a wide entity`,
        { details: { points, limit: limits.maxProperties - 1 } },
      );
    }
    this.points = points;
    this.periodMs = options.periodMs ?? 3_600_000;
    if (!Number.isSafeInteger(this.periodMs) || this.periodMs < 1) {
      throw new TableKitError("InvalidInput", `periodMs must be a positive integer, got ${options.periodMs}`);
    }
    this.valueType = options.valueType ?? "Int32";
    if (!["Int32", "Int64", "Double"].includes(this.valueType)) {
      throw new TableKitError("InvalidInput", `valueType must be Int32, Int64 or Double`);
    }
    this.prefix = options.prefix ?? "P";
    this.slot = paddedInt({ max: Math.max(points - 1, 1) });
    validatePropertyName(this.propertyOf(points - 1), limits);
    if (this.prefix === END_PROPERTY)
      throw new TableKitError("InvalidInput", `prefix ${END_PROPERTY} is reserved`);
    this.policy = retryPolicy({ maxAttempts: 100, ...options });
  }

  /** The property of slot `i`: `P00`. */
  propertyOf(slot: number): string {
    return this.prefix + this.slot.encode(slot);
  }

  /** The period an instant falls in (ms since the Unix epoch / periodMs, rounded down). */
  periodOf(at: TimeInput | undefined): number {
    return Math.floor((at === undefined ? Date.now() : epochMsOf(at)) / this.periodMs);
  }

  /**
   * The series with one point read: the `points` periods ending at `at` (default now) or at the
   * newest period written, whichever is later. Missing entity: every value 0, no ETag.
   */
  async read(key: SeriesKey, options: OperationOptions & { at?: TimeInput } = {}): Promise<SeriesSnapshot> {
    const state = await this.load(key, options);
    const end = Math.max(this.periodOf(options.at), state.end ?? Number.NEGATIVE_INFINITY);
    const points = [];
    for (let period = end - this.points + 1; period <= end; period++) {
      points.push({
        start: DateTime.fromEpochMilliseconds(period * this.periodMs),
        value: this.valueAt(state, period),
      });
    }
    return { points, etag: state.etag };
  }

  /** Adds `by` (default 1) to the point of `at` (default now): one read and one conditional merge per attempt. */
  async add(key: SeriesKey, by = 1, options: SeriesWriteOptions = {}): Promise<SeriesSnapshot> {
    if (typeof by !== "number" || !Number.isFinite(by))
      throw new TableKitError("InvalidInput", "by must be a finite number");
    return this.write(key, options, (current) => current + by);
  }

  /** Sets the point of `at` (default now) to `value`. */
  async set(key: SeriesKey, value: number, options: SeriesWriteOptions = {}): Promise<SeriesSnapshot> {
    if (typeof value !== "number" || !Number.isFinite(value))
      throw new TableKitError("InvalidInput", "value must be a finite number");
    return this.write(key, options, () => value);
  }

  private write(
    key: SeriesKey,
    options: SeriesWriteOptions,
    next: (current: number) => number,
  ): Promise<SeriesSnapshot> {
    const period = this.periodOf(options.at);
    const once = async () => {
      const state = await this.load(key, options);
      const expected = options.etag === null ? undefined : options.etag;
      if (options.etag !== undefined && expected !== state.etag) {
        throw new TableKitError(
          "UpdateConditionNotSatisfied",
          "The series changed since the ETag given was read",
          {
            details: { ...key, etag: state.etag },
          },
        );
      }
      const end = state.end ?? period;
      if (period <= end - this.points) {
        throw new TableKitError(
          "OutOfRangeInput",
          `The instant is older than the series' ${this.points} periods`,
          {
            details: { period, oldest: end - this.points + 1 },
          },
        );
      }
      const changes: Record<string, PropertyInput> = {};
      // Moving the window on: periods between the old end and the new one start from 0.
      for (let p = Math.max(end + 1, period - this.points + 1); p < period; p++)
        changes[this.propertyOf(this.slotOf(p))] = this.stored(0);
      const value = next(period > end || state.end === undefined ? 0 : this.valueAt(state, period));
      changes[this.propertyOf(this.slotOf(period))] = this.stored(value);
      if (state.end === undefined || period > state.end) changes[END_PROPERTY] = BigInt(period);
      const entity = { ...key, ...changes };
      const response =
        state.etag === undefined
          ? await this.table.createEntity(entity, options)
          : await this.table.updateEntity(entity, "Merge", { ...options, etag: state.etag });
      return this.snapshotAfter(state, changes, response.etag, Math.max(period, state.end ?? period));
    };
    if (options.etag !== undefined) return once();
    return retryLostRaces(
      `Series ${key.partitionKey}/${key.rowKey}`,
      this.policy,
      options.abortSignal,
      once,
      () => {
        this.conflicts++;
      },
    );
  }

  private slotOf(period: number): number {
    return ((period % this.points) + this.points) % this.points;
  }

  /** The value a point holds in `state`, 0 outside the stored window. */
  private valueAt(state: SeriesState, period: number): number {
    if (state.end === undefined || period > state.end || period <= state.end - this.points) return 0;
    return state.values[this.slotOf(period)] ?? 0;
  }

  /** A value in its stored form, range-checked before anything is sent. */
  private stored(value: number): PropertyInput {
    if (this.valueType === "Double") return { value, type: "Double" };
    if (!Number.isSafeInteger(value) || (this.valueType === "Int32" && Math.abs(value) > INT32_MAX)) {
      throw new TableKitError(
        "OutOfRangeInput",
        `${value} is not a valid ${this.valueType} value of the series`,
      );
    }
    return this.valueType === "Int32" ? value : BigInt(value);
  }

  private snapshotAfter(
    state: SeriesState,
    changes: Record<string, PropertyInput>,
    etag: string,
    end: number,
  ): SeriesSnapshot {
    const values = [...state.values];
    for (let slot = 0; slot < this.points; slot++) {
      const changed = changes[this.propertyOf(slot)];
      if (changed !== undefined) values[slot] = toNumber(changed);
    }
    const next: SeriesState = { values, end, etag };
    const points = [];
    for (let period = end - this.points + 1; period <= end; period++) {
      points.push({
        start: DateTime.fromEpochMilliseconds(period * this.periodMs),
        value: this.valueAt(next, period),
      });
    }
    return { points, etag };
  }

  private async load(key: SeriesKey, options: OperationOptions): Promise<SeriesState> {
    try {
      const entity = await this.table.getEntity(key.partitionKey, key.rowKey, options);
      const values = Array.from({ length: this.points }, (_, slot) =>
        toNumber(ownValue(entity, this.propertyOf(slot))),
      );
      const end = ownValue(entity, END_PROPERTY);
      return {
        values,
        end: end === undefined || end === null ? undefined : toNumber(end),
        etag: entity.etag,
      };
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound")) return { values: [], end: undefined, etag: undefined };
      throw err;
    }
  }
}

interface SeriesState {
  readonly values: number[];
  /** The newest period written (undefined: no entity). */
  readonly end: number | undefined;
  readonly etag: string | undefined;
}

function toNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "object" && v !== null && "value" in v) return Number((v as { value: unknown }).value);
  return 0;
}
