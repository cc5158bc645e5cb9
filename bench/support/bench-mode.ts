/**
 * Full runs or smoke runs. `npm run bench -- --smoke` (or `TABLEKIT_BENCH_SMOKE=1`) runs every
 * benchmark at tiny sizes and one round, so CI notices a broken benchmark in seconds; the numbers
 * it prints mean nothing. Every benchmark takes its sizes, rounds and durations from here.
 */

/** True in a smoke run. */
export const SMOKE = process.env.TABLEKIT_BENCH_SMOKE === "1" || process.argv.includes("--smoke");

/** `full` in a measuring run, `tiny` in a smoke run (sizes, counts, milliseconds). */
export function sized<T>(full: T, tiny: T): T {
  return SMOKE ? tiny : full;
}

/** Measured rounds: `full`, or one in a smoke run. */
export function rounds(full: number): number {
  return SMOKE ? 1 : full;
}

/**
 * A goal's verdict as a benchmark prints it. A smoke run's numbers mean nothing, so it judges no
 * goal: a "NOT met" printed on every CI run would teach readers to skip the real one.
 */
export function verdict(met: boolean): string {
  if (SMOKE) return "not judged (smoke run)";
  return met ? "met" : "NOT met";
}
