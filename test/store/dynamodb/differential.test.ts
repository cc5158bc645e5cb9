import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { DateTime, openStore, type Store, type Table, type TransactionAction } from "../../../src/index.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../support/dynamodb-local.js";
import { PARTITIONS, PROPERTY_NAMES, Random, ROWS, randomEntity, randomFilter } from "./differential-ops.js";

/**
 * Seeded random operations against `memory:` (the reference) and against DynamoDB Local through
 * the dynamodb backend: every observable result must match — outcomes, error codes and
 * transaction indexes, entities with their typed values, query results in order (page boundaries
 * may differ). Replay a failure with TABLEKIT_SEED=<seed>; TABLEKIT_DIFF_OPS sets the length.
 */
const SEED = Number(process.env.TABLEKIT_SEED ?? randomInt(2 ** 31));
const OPERATIONS = Number(process.env.TABLEKIT_DIFF_OPS ?? 2_000);
const BOGUS_ETAG = `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`;

type EtagChoice = "*" | "fresh" | "stale" | "bogus";
type Outcome = { ok: true; value: unknown } | { ok: false; code: unknown; index: unknown };

/** One store under test, and the ETags its writes returned per row, oldest first. */
interface Side {
  readonly table: Table;
  readonly etags: Map<string, string[]>;
}

interface Operation {
  readonly description: string;
  run(side: Side): Promise<Outcome>;
}

let server: DynamoDbLocal;
let stores: Store[] = [];
let sides: [Side, Side];

beforeAll(async () => {
  server = await startDynamoDbLocal();
  const memory = await openStore("memory:");
  const dynamodb = await openStore(server.storeUrl);
  stores = [memory, dynamodb];
  const name = `diff${SEED}`;
  sides = [
    { table: memory.table(name), etags: new Map() },
    { table: dynamodb.table(name), etags: new Map() },
  ];
  for (const s of stores) await s.createTable(name);
});

afterAll(async () => {
  for (const s of stores) await s.close();
  await server?.stop();
});

describe("dynamodb differential test against memory:", () => {
  it(`${OPERATIONS} random operations give the same results (seed ${SEED})`, {
    timeout: 240_000,
  }, async () => {
    onTestFailed(() => console.error(`dynamodb differential test failed: replay with TABLEKIT_SEED=${SEED}`));
    const r = new Random(SEED);
    const started = performance.now();
    const counts = new Map<string, number>();
    const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    for (let i = 0; i < OPERATIONS; i++) {
      const op = i % 100 === 99 ? wholeTable() : randomOperation(r);
      const reference = await op.run(sides[0]);
      const dynamodb = await op.run(sides[1]);
      expect(dynamodb, `seed ${SEED}, operation ${i}: ${op.description}`).toEqual(reference);
      count(op.description.split(" ")[0]!);
      count(reference.ok ? "succeeded" : String(reference.code));
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `dynamodb differential: ${OPERATIONS} operations in ${seconds} s (seed ${SEED}): ${[...counts].map(([k, n]) => `${k} ${n}`).join(", ")}`,
    );
  });
});

function randomOperation(r: Random): Operation {
  const pk = r.pick(PARTITIONS);
  const rk = r.pick(ROWS);
  const mode = r.chance(0.5) ? "Merge" : "Replace";
  const choice = r.pick<EtagChoice>(["*", "fresh", "fresh", "stale", "bogus"]);
  const roll = r.int(100);
  if (roll < 18) {
    const e = randomEntity(r, pk, rk);
    return write(`create ${pk}/${rk}`, pk, rk, (s) => s.table.createEntity(e));
  }
  if (roll < 32) {
    const e = randomEntity(r, pk, rk);
    return write(`upsert ${mode} ${pk}/${rk}`, pk, rk, (s) => s.table.upsertEntity(e, mode));
  }
  if (roll < 46) {
    const e = randomEntity(r, pk, rk);
    return write(`update ${mode} ${choice} ${pk}/${rk}`, pk, rk, (s) =>
      s.table.updateEntity(e, mode, { etag: etagFor(s, pk, rk, choice) }),
    );
  }
  if (roll < 54) {
    return write(`delete ${choice} ${pk}/${rk}`, pk, rk, async (s) => {
      await s.table.deleteEntity(pk, rk, { etag: etagFor(s, pk, rk, choice) });
    });
  }
  if (roll < 62) {
    const select = r.chance(0.3) ? [...PROPERTY_NAMES.filter(() => r.chance(0.5)), "zz"] : undefined;
    return {
      description: `get ${pk}/${rk}`,
      run: (s) =>
        outcome(async () =>
          comparable(await s.table.getEntity(pk, rk, select ? { queryOptions: { select } } : {})),
        ),
    };
  }
  if (roll < 78) return transaction(r, pk);
  return query(r);
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

function transaction(r: Random, pk: string): Operation {
  const rows = ROWS.filter(() => r.chance(0.3)).slice(0, 6);
  if (rows.length === 0) rows.push(r.pick(ROWS));
  const plan = rows.map((rk) => ({
    rk,
    kind: r.pick(["create", "upsert", "update", "delete"] as const),
    mode: r.chance(0.5) ? ("Merge" as const) : ("Replace" as const),
    choice: r.pick<EtagChoice>(["*", "fresh", "fresh", "stale"]),
    entity: randomEntity(r, pk, rk),
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

function query(r: Random): Operation {
  const filter = r.chance(0.85) ? randomFilter(r) : undefined;
  const select = r.chance(0.25) ? [...PROPERTY_NAMES.filter(() => r.chance(0.5)), "zz"] : undefined;
  const maxPageSize = r.pick([1, 2, 3, 7, 1000]);
  const resume = r.chance(0.3);
  const queryOptions = { ...(filter === undefined ? {} : { filter }), ...(select ? { select } : {}) };
  return {
    description: `query ${JSON.stringify(queryOptions)} pages of ${maxPageSize}${resume ? ", resumed" : ""}`,
    run: (side) =>
      outcome(async () => {
        const rows: unknown[] = [];
        let token: string | undefined;
        for await (const page of side.table.listEntities({ queryOptions }).byPage({ maxPageSize })) {
          expect(page.length).toBeLessThanOrEqual(maxPageSize);
          rows.push(...page.map(comparable));
          token = page.continuationToken;
          if (resume) break;
        }
        // Resume from the first page's token in a new call, as a client coming back later would.
        if (resume && token !== undefined) {
          const rest = side.table
            .listEntities({ queryOptions })
            .byPage({ maxPageSize, continuationToken: token });
          for await (const page of rest) rows.push(...page.map(comparable));
        }
        return rows;
      }),
  };
}

function wholeTable(): Operation {
  return {
    description: "scan of the whole table",
    run: (side) =>
      outcome(async () => {
        const rows: unknown[] = [];
        for await (const e of side.table.listEntities()) rows.push(comparable(e));
        return rows;
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

/** An entity as read, minus what legitimately differs (ETag, Timestamp), its values made comparable. */
function comparable(entity: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(entity)) {
    if (name === "etag" || name === "timestamp") continue;
    out[name] = describeValue(value);
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value instanceof DateTime) return `DateTime ${value.toISOString()}`;
  if (value instanceof Uint8Array) return `Binary ${Buffer.from(value).toString("hex")}`;
  if (typeof value === "bigint") return `Int64 ${value}`;
  if (typeof value === "number") return `number ${Object.is(value, -0) ? "-0" : String(value)}`;
  if (typeof value === "object" && value !== null) {
    const { type, value: v } = value as { type: string; value: unknown };
    return `${type} ${Object.is(v, -0) ? "-0" : String(v)}`;
  }
  return `${typeof value} ${String(value)}`;
}
