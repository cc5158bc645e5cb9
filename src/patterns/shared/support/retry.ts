import { isTableKitError, sleep, TableKitError } from "../../../model/index.js";

/** The abortable wait between attempts (the model's one). */
export { sleep };

/** How a pattern retries a write that lost an optimistic-concurrency race. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 50, the article's MAXRETRIES). */
  readonly maxAttempts?: number;
  /** Backoff before the second attempt, in ms (default 2); it doubles each attempt. */
  readonly baseDelayMs?: number;
  /** The backoff never exceeds this, in ms (default 250). */
  readonly maxDelayMs?: number;
  /** Random numbers in [0, 1) for the jitter (default `Math.random`); tests pass a seeded one. */
  readonly random?: () => number;
  readonly abortSignal?: AbortSignal;
}

/** Resolved retry settings. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly random: () => number;
}

export function retryPolicy(options: RetryOptions = {}, defaultAttempts = 50): RetryPolicy {
  const maxAttempts = options.maxAttempts ?? defaultAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 10_000) {
    throw new TableKitError(
      "InvalidInput",
      `maxAttempts must be an integer from 1 to 10000, got ${maxAttempts}`,
    );
  }
  const baseDelayMs = options.baseDelayMs ?? 2;
  const maxDelayMs = options.maxDelayMs ?? 250;
  if (!(baseDelayMs >= 0) || !(maxDelayMs >= baseDelayMs)) {
    throw new TableKitError("InvalidInput", "Backoff delays must satisfy 0 <= baseDelayMs <= maxDelayMs");
  }
  return { maxAttempts, baseDelayMs, maxDelayMs, random: options.random ?? Math.random };
}

/**
 * "Full jitter" exponential backoff: a random wait in [0, min(max, base * 2^(attempt-1))), so
 * writers that collided spread out instead of colliding again in step.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.floor(policy.random() * ceiling);
}

/** True for the two answers that mean "someone else wrote first": 412 and 409 on an entity. */
export function isConcurrencyConflict(err: unknown): err is TableKitError {
  return isTableKitError(err, "UpdateConditionNotSatisfied", "EntityAlreadyExists");
}

/** The error after the last attempt lost its race. */
export function retriesExhausted(what: string, attempts: number, cause: unknown): TableKitError {
  return new TableKitError(
    "ConcurrencyRetriesExhausted",
    `${what}: still conflicting after ${attempts} attempts; retry later, or reduce contention (larger id blocks, more partitions)`,
    { cause, details: { attempts } },
  );
}

/** The default of writes that retry when the store throttles them (the Azure SDKs retry 503 too). */
export const BUSY_RETRY: RetryOptions = Object.freeze({ maxAttempts: 8, baseDelayMs: 25, maxDelayMs: 2000 });

/**
 * Runs `work`, and again after a backoff while the store answers ServerBusy (throttled: nothing was
 * done), at most `policy.maxAttempts` times in all; then the last ServerBusy is thrown. `onBusy`
 * counts the refusals.
 */
export async function retryWhileBusy<T>(
  work: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  onBusy?: () => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isTableKitError(err, "ServerBusy")) throw err;
      onBusy?.();
      if (attempt >= policy.maxAttempts) throw err;
      await sleep(backoffDelay(policy, attempt), signal);
    }
  }
}

/**
 * Runs a read-modify-conditional-write `attempt` again, after a backoff, each time it lost a race
 * (412, 409, or 404 when a concurrent writer removed what it read), at most `policy.maxAttempts`
 * times; then ConcurrencyRetriesExhausted naming `what`. `onConflict` counts the lost races.
 */
export async function retryLostRaces<T>(
  what: string,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
  onConflict?: () => void,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isConcurrencyConflict(err) && !isTableKitError(err, "ResourceNotFound")) throw err;
      onConflict?.();
      if (n >= policy.maxAttempts) throw retriesExhausted(what, n, err);
      await sleep(backoffDelay(policy, n), signal);
    }
  }
}

/**
 * A record write: pinned to an ETag it runs once (a lost race is the caller's error); with `*` it
 * runs again after a backoff each time a concurrent writer got there first.
 */
export function retryUnlessPinned<T>(
  etag: string,
  what: string,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  return etag === "*" ? retryLostRaces(what, policy, signal, work) : work();
}
