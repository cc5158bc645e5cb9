import { TableKitError } from "../../../model/index.js";

/** Checks a concurrency option: an integer from 1 to `max`. */
export function checkConcurrency(value: number, max = 1000): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new TableKitError("InvalidInput", `concurrency must be an integer from 1 to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Runs `work` on every item with at most `concurrency` calls in flight. The first failure stops
 * further starts; it is thrown once the calls in flight have settled, so nothing runs after return.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw failure.error;
}
