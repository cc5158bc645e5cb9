import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { openStore, type Store } from "../../../src/index.js";
import { type Operation, type OperationMix, randomOperation, type Side, wholeTable } from "./operations.js";
import { type DataOptions, RandomData } from "./ops.js";
import { Random } from "./random.js";
import { CoverageTally } from "./report.js";

/** A server a differential test runs against, as the harnesses in test/support start them. */
export interface DifferentialServer {
  readonly storeUrl: string;
  readonly storeOptions?: import("../../../src/index.js").StoreOptions;
  stop(): Promise<void>;
}

/** What a backend's differential test declares; everything else is shared. */
export interface DifferentialOptions {
  /** The backend's name in titles and messages. */
  readonly title: string;
  /** Starts the backend's server (called once, in beforeAll). */
  readonly startServer: () => Promise<DifferentialServer>;
  readonly timeoutMs: number;
  readonly data: DataOptions;
  readonly mix: OperationMix;
}

/** Every 100th operation compares the whole table, so silent divergences in state surface. */
const WHOLE_TABLE_EVERY = 100;

/**
 * Declares a vitest suite running seeded random operations against `memory:` (the reference) and
 * against the backend: every observable result must match — outcomes, error codes and transaction
 * indexes, entities with their typed values, query results in key order (page boundaries may
 * differ). Replay a failure with TABLEKIT_SEED=<seed>; TABLEKIT_DIFF_OPS sets the length (2,000).
 */
export function describeDifferential(options: DifferentialOptions): void {
  const seed = Number(process.env.TABLEKIT_SEED ?? randomInt(2 ** 31));
  const operations = Number(process.env.TABLEKIT_DIFF_OPS ?? 2_000);
  const shares = Object.values(options.mix).reduce((a, b) => a + b, 0);
  if (shares !== 100) throw new Error(`operation mix adds up to ${shares}, not 100`);
  let server: DifferentialServer | undefined;
  let stores: Store[] = [];

  afterAll(async () => {
    for (const s of stores) await s.close();
    await server?.stop();
  });

  let reference: Store;
  let candidate: Store;
  beforeAll(async () => {
    server = await options.startServer();
    reference = await openStore("memory:");
    candidate = await openStore(server.storeUrl, server.storeOptions);
    stores = [reference, candidate];
  });

  describe(`${options.title} differential test against memory:`, () => {
    it(`${operations} random operations give the same results (seed ${seed})`, {
      timeout: options.timeoutMs,
    }, async () => {
      onTestFailed(() =>
        console.error(`${options.title} differential test failed: replay with TABLEKIT_SEED=${seed}`),
      );
      const name = `diff${seed}`;
      for (const s of stores) await s.createTable(name);
      const keyOrder = candidate.capabilities.keyOrder;
      const sides: [Side, Side] = [
        {
          table: reference.table(name),
          etags: new Map(),
          reorderTo: reference.capabilities.keyOrder === keyOrder ? undefined : keyOrder,
        },
        { table: candidate.table(name), etags: new Map(), reorderTo: undefined },
      ];
      const r = new Random(seed);
      const data = new RandomData(r, options.data, candidate.capabilities);
      const tally = new CoverageTally();
      for (let i = 0; i < operations; i++) {
        const op: Operation =
          i % WHOLE_TABLE_EVERY === WHOLE_TABLE_EVERY - 1
            ? wholeTable()
            : randomOperation(r, data, options.mix);
        const expected = await op.run(sides[0]);
        const actual = await op.run(sides[1]);
        expect(actual, `seed ${seed}, operation ${i}: ${op.description}`).toEqual(expected);
        tally.record(op.description, expected);
      }
      console.log(tally.summary(options.title, operations, seed));
    });
  });
}
