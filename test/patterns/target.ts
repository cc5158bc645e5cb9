import { afterAll, beforeAll, describe } from "vitest";
import type { ConformanceSetup, ConformanceTarget } from "../conformance/factory.js";

export { itWhen } from "../support/it-when.js";

/** A backend under test for the pattern suites: a conformance target, plus how another process can open it. */
export interface PatternsTarget extends ConformanceTarget {
  /** A store URL a separate process can open to reach the same data; absent: multi-process tests skip. */
  readonly sharedUrl?: string;
  /** Operations of the long randomized runs here (full size on the embedded engine, CI-sized on servers). */
  readonly randomOperations?: number;
}

/** How a runner hands a backend to `runPatterns` (the conformance suite's factory shape). */
export interface PatternsSetup extends Omit<ConformanceSetup, "open"> {
  open(): Promise<PatternsTarget>;
  /** PatternsTarget.randomOperations for this world. */
  readonly randomOperations?: number;
}

/** What a suite receives: the target, available once the backend is open (inside tests only). */
export type PatternsRef = () => PatternsTarget;

/** Registers `suites` for one backend: opens it before the tests, disposes of it after. */
export function registerPatterns(
  setup: PatternsSetup,
  suites: readonly ((ref: PatternsRef) => void)[],
): void {
  describe(`patterns: ${setup.name}`, () => {
    let target: PatternsTarget | undefined;
    beforeAll(async () => {
      const opened = await setup.open();
      target =
        setup.randomOperations === undefined
          ? opened
          : { ...opened, randomOperations: setup.randomOperations };
    });
    afterAll(async () => {
      await target?.dispose();
    });
    const ref = (): PatternsTarget => {
      if (!target) throw new Error(`the patterns target ${setup.name} did not open`);
      return target;
    };
    for (const suite of suites) suite(ref);
  });
}

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
