import { expect } from "vitest";
import type { Table, TransactionAction } from "../../../src/index.js";
import { comparable, inKeyOrder, type KeyOrder } from "./compare.js";
import { PROPERTY_NAMES, type RandomData } from "./ops.js";
import type { Random } from "./random.js";

/**
 * The operations of a differential run. Each is built once from the PRNG and then run on both
 * sides, so both see the same call; what differs per side (its ETags) is looked up at run time.
 */

/** Percentages of each kind of operation (they add up to 100). */
export interface OperationMix {
  readonly create: number;
  readonly upsert: number;
  readonly update: number;
  readonly delete: number;
  readonly get: number;
  readonly transaction: number;
  readonly query: number;
}

/** One store under test, and the ETags its writes returned per row, oldest first. */
export interface Side {
  readonly table: Table;
  readonly etags: Map<string, string[]>;
  /** The key order to put listed entities in before comparing, when this store's own differs. */
  readonly reorderTo: KeyOrder | undefined;
}

/** What an operation observed: its result made comparable, or the TableKitError's code and index. */
export type Outcome = { ok: true; value: unknown } | { ok: false; code: unknown; index: unknown };

/** One step of a run: what it does, in words for the failure message, and how to run it on a side. */
export interface Operation {
  readonly description: string;
  run(side: Side): Promise<Outcome>;
}

type EtagChoice = "*" | "fresh" | "stale" | "bogus";

const BOGUS_ETAG = `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`;

/** A random operation of the kinds and proportions of `mix`. */
export function randomOperation(r: Random, data: RandomData, mix: OperationMix): Operation {
  const { partitions, rows } = data.options;
  const pk = r.pick(partitions);
  const rk = r.pick(rows);
  const mode = r.chance(0.5) ? "Merge" : "Replace";
  const choice = r.pick<EtagChoice>(["*", "fresh", "fresh", "stale", "bogus"]);
  let roll = r.int(100);
  const next = (share: number) => {
    roll -= share;
    return roll < 0;
  };
  if (next(mix.create)) {
    const e = data.entity(pk, rk);
    return write(`create ${pk}/${rk}`, pk, rk, (s) => s.table.createEntity(e));
  }
  if (next(mix.upsert)) {
    const e = data.entity(pk, rk);
    return write(`upsert ${mode} ${pk}/${rk}`, pk, rk, (s) => s.table.upsertEntity(e, mode));
  }
  if (next(mix.update)) {
    const e = data.entity(pk, rk);
    return write(`update ${mode} ${choice} ${pk}/${rk}`, pk, rk, (s) =>
      s.table.updateEntity(e, mode, { etag: etagFor(s, pk, rk, choice) }),
    );
  }
  if (next(mix.delete)) {
    return write(`delete ${choice} ${pk}/${rk}`, pk, rk, async (s) => {
      await s.table.deleteEntity(pk, rk, { etag: etagFor(s, pk, rk, choice) });
    });
  }
  if (next(mix.get)) {
    const select = r.chance(0.3) ? [...PROPERTY_NAMES.filter(() => r.chance(0.5)), "zz"] : undefined;
    return {
      description: `get ${pk}/${rk}`,
      run: (s) =>
        outcome(async () =>
          comparable(await s.table.getEntity(pk, rk, select ? { queryOptions: { select } } : {})),
        ),
    };
  }
  if (next(mix.transaction)) return transaction(r, data, pk);
  return query(r, data);
}

/** A scan of the whole table, comparing the full state of both stores. */
export function wholeTable(): Operation {
  return {
    description: "scan of the whole table",
    run: (side) =>
      outcome(async () => {
        const rows: Record<string, unknown>[] = [];
        for await (const e of side.table.listEntities()) rows.push(e);
        return inKeyOrder(rows, side.reorderTo).map(comparable);
      }),
  };
}

/** A write's outcome is success or the error's code; a success records the new ETag. */
function write(
  description: string,
  pk: string,
  rk: string,
  call: (side: Side) => Promise<unknown>,
): Operation {
  return {
    description,
    run: (side) =>
      outcome(async () => {
        const result = (await call(side)) as { etag?: string } | undefined;
        if (result?.etag) remember(side, pk, rk, result.etag);
        return "ok";
      }),
  };
}

function transaction(r: Random, data: RandomData, pk: string): Operation {
  const rows = data.options.rows.filter(() => r.chance(0.3)).slice(0, 6);
  if (rows.length === 0) rows.push(r.pick(data.options.rows));
  const plan = rows.map((rk) => ({
    rk,
    kind: r.pick(["create", "upsert", "update", "delete"] as const),
    mode: r.chance(0.5) ? ("Merge" as const) : ("Replace" as const),
    choice: r.pick<EtagChoice>(["*", "fresh", "fresh", "stale"]),
    entity: data.entity(pk, rk),
  }));
  return {
    description: `transaction ${pk} ${plan.map((p) => `${p.kind}:${p.rk}:${p.choice}`).join(",")}`,
    run: (side) =>
      outcome(async () => {
        const actions = plan.map((p): TransactionAction => {
          const etag = etagFor(side, pk, p.rk, p.choice);
          if (p.kind === "create") return ["create", p.entity];
          if (p.kind === "upsert") return ["upsert", p.entity, p.mode];
          if (p.kind === "update") return ["update", p.entity, p.mode, { etag }];
          return ["delete", { partitionKey: pk, rowKey: p.rk }, { etag }];
        });
        const response = await side.table.submitTransaction(actions);
        for (const sub of response.subResponses) if (sub.etag) remember(side, pk, sub.rowKey, sub.etag);
        return response.subResponses.map((sub) => [sub.status, sub.rowKey, sub.etag !== undefined]);
      }),
  };
}

function query(r: Random, data: RandomData): Operation {
  const filter = r.chance(0.85) ? data.filter() : undefined;
  const select = r.chance(0.25) ? [...PROPERTY_NAMES.filter(() => r.chance(0.5)), "zz"] : undefined;
  const maxPageSize = r.pick([1, 2, 3, 7, 1000]);
  const resume = r.chance(0.3);
  const queryOptions = { ...(filter === undefined ? {} : { filter }), ...(select ? { select } : {}) };
  return {
    description: `query ${JSON.stringify(queryOptions)} pages of ${maxPageSize}${resume ? ", resumed" : ""}`,
    run: (side) =>
      outcome(async () => {
        const rows: Record<string, unknown>[] = [];
        let token: string | undefined;
        for await (const page of side.table.listEntities({ queryOptions }).byPage({ maxPageSize })) {
          expect(page.length).toBeLessThanOrEqual(maxPageSize);
          rows.push(...page);
          token = page.continuationToken;
          if (resume) break;
        }
        // Resume from the first page's token in a new call, as a client coming back later would.
        if (resume && token !== undefined) {
          const rest = side.table
            .listEntities({ queryOptions })
            .byPage({ maxPageSize, continuationToken: token });
          for await (const page of rest) {
            expect(page.length).toBeLessThanOrEqual(maxPageSize);
            rows.push(...page);
          }
        }
        return inKeyOrder(rows, side.reorderTo).map(comparable);
      }),
  };
}

function etagFor(side: Side, pk: string, rk: string, choice: EtagChoice): string {
  const history = side.etags.get(`${pk}/${rk}`) ?? [];
  if (choice === "*") return "*";
  if (choice === "fresh") return history.at(-1) ?? BOGUS_ETAG;
  if (choice === "stale") return history.at(-2) ?? BOGUS_ETAG;
  return BOGUS_ETAG;
}

function remember(side: Side, pk: string, rk: string, etag: string): void {
  const key = `${pk}/${rk}`;
  side.etags.set(key, [...(side.etags.get(key) ?? []), etag]);
}

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    const e = err as { code?: unknown; index?: unknown; name?: string };
    if (e.name !== "TableKitError") throw err;
    return { ok: false, code: e.code, index: e.index };
  }
}
