import { DateTime } from "../../model/index.js";

/** The Timestamp of a write and its ETag, computed once per write or transaction. */
export interface Stamp {
  readonly timestamp: DateTime;
  readonly etag: string;
}

export function stampOf(timestamp: DateTime): Stamp {
  return { timestamp, etag: etagOf(timestamp) };
}

/** The stamp of a new version of an entity whose previous Timestamp was `previous` ticks. */
export function nextStamp(now: Stamp, previous: bigint): Stamp {
  const ticks = nextTicks(now.timestamp.ticks, previous);
  return ticks === now.timestamp.ticks ? now : stampOf(DateTime.fromTicks(ticks));
}

/** The service's ETag for a Timestamp: `W/"datetime'2026-11-22T02%3A49%3A12.9327936Z'"`. */
export function etagOf(timestamp: DateTime): string {
  return `W/"datetime'${timestamp.toISOString().replaceAll(":", "%3A")}'"`;
}

/**
 * The Timestamp of a new version: the commit time, but always after the entity's previous
 * Timestamp, so an entity's ETag never repeats even when clocks of processes disagree.
 */
export function nextTicks(now: bigint, previous: bigint | undefined): bigint {
  return previous !== undefined && previous >= now ? previous + 1n : now;
}
