/** Statistics of paired A/B rounds: the mean of the pairs' costs and a bootstrap interval of it. */

export const mean = (xs: readonly number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;

/** A 90% bootstrap interval of the mean of `xs` (resampled 2,000 times, a fixed seed: a run reprints it). */
export function bootstrapInterval(xs: readonly number[]): [low: number, high: number] {
  let seed = 22;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const means = Array.from({ length: 2000 }, () =>
    mean(Array.from({ length: xs.length }, () => xs[Math.floor(next() * xs.length)]!)),
  ).sort((a, b) => a - b);
  return [means[100]!, means[1899]!];
}
