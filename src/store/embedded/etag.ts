import type { DateTime } from "../../model/index.js";

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
