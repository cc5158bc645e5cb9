import { afterAll, beforeAll, describe } from "vitest";
import { abortSuite } from "./abort.js";
import { accessPoliciesSuite } from "./access-policies.js";
import { checkedEntitiesSuite } from "./checked-entities.js";
import { closedStoreSuite } from "./closed-store.js";
import { entityCrudSuite } from "./entity-crud.js";
import { etagConcurrencySuite } from "./etag-concurrency.js";
import type { ConformanceSetup, ConformanceTarget } from "./factory.js";
import { filterSemanticsSuite } from "./filter-semantics.js";
import { limitsAndBadInputSuite } from "./limits-and-bad-input.js";
import { queriesAndPagingSuite } from "./queries-and-paging.js";
import { sdkPortingSuite } from "./sdk-porting.js";
import { tablesSuite } from "./tables.js";
import { transactionSizeSuite } from "./transaction-size.js";
import { transactionsSuite } from "./transactions.js";
import { typedValuesSuite } from "./typed-values.js";

export type { ConformanceSetup, ConformanceTarget, TargetOptions } from "./factory.js";
export { randomAlphanumeric, targetFromStore } from "./factory.js";

/** Every feature suite, in the order they are registered. */
export const SUITES = [
  entityCrudSuite,
  checkedEntitiesSuite,
  typedValuesSuite,
  sdkPortingSuite,
  etagConcurrencySuite,
  queriesAndPagingSuite,
  filterSemanticsSuite,
  transactionsSuite,
  transactionSizeSuite,
  limitsAndBadInputSuite,
  tablesSuite,
  accessPoliciesSuite,
  abortSuite,
  closedStoreSuite,
] as const;

/**
 * Registers the whole conformance suite (or only `suites`) for one backend: opens it before the
 * tests, disposes of it after. Call from a `*.test.ts` file.
 *
 * @example runConformance({ name: "memory", open: () => embeddedTarget("memory", "memory") })
 */
export function runConformance(
  setup: ConformanceSetup,
  suites: readonly ((target: () => ConformanceTarget) => void)[] = SUITES,
): void {
  describe(`conformance: ${setup.name}`, () => {
    let target: ConformanceTarget | undefined;
    beforeAll(async () => {
      target = await setup.open();
    });
    afterAll(async () => {
      await target?.dispose();
    });
    const ref = (): ConformanceTarget => {
      if (!target) throw new Error(`the conformance target ${setup.name} did not open`);
      return target;
    };
    for (const suite of suites) suite(ref);
  });
}
