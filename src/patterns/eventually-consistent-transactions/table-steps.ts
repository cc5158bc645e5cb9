import { isTableKitError, TableKitError } from "../../model/index.js";
import {
  carryEntityEvidence,
  EVIDENCE_PROPERTY,
  type Evidence,
  entityLife,
  entityLineageStart,
  etagTicks,
  formatBorn,
  formatEvidence,
  hasMark,
  isLifeId,
  MAX_ENTITY_EVIDENCE_CHARS,
  markOf,
  newLifeId,
  parseEvidence,
} from "../shared/evidence/evidence.js";
import { addMark, recordDeletedMarks, type TableOf } from "../shared/evidence/evidence-upkeep.js";
import { type StepContext, type StepResult, stepRefused } from "./step-context.js";
import type { CheckedStep } from "./steps.js";
import { writableEntity } from "./typed-json.js";

type TableStep = Extract<
  CheckedStep,
  { kind: "insertIfAbsent" | "upsert" | "updateIfMatch" | "deleteIfPresent" }
>;

/** Rounds of read-then-conditional-write a step tries when other writers keep changing its entity. */
const RACE_ROUNDS = 10;

const APPLIED: StepResult = { outcome: "applied" };
/** A step reads only its entity's version and evidence. */
const ONLY_EVIDENCE = { select: [EVIDENCE_PROPERTY] };
const ALREADY: StepResult = { outcome: "already" };
/** A conditional write lost a race: read again and decide again. */
const AGAIN = Symbol("again");

interface Current {
  readonly etag: string;
  readonly evidence: Evidence | undefined;
}

/**
 * A table step (docs/patterns/eventually-consistent-transactions.md#evidence). It reads its
 * entity, decides from the entity's evidence whether the step already ran, and writes
 * conditionally on the version read, with its mark added; a write that loses a race reads again.
 */
export function runTableStep(s: TableStep, ctx: StepContext): Promise<StepResult> {
  if (!ctx.evidence) return runWithoutEvidence(s, ctx);
  if (s.kind !== "deleteIfPresent" && ctx.journal.deleted[String(ctx.ref.step)] !== undefined)
    return Promise.resolve(ALREADY);
  // A create lands or finds an entity: no race to lose. Called directly (no async frame between
  // the worker and the write): the worker runs one per archived entity.
  if (s.kind === "insertIfAbsent") return insert(s, ctx);
  if (
    s.kind === "deleteIfPresent" &&
    s.etag !== undefined &&
    s.found !== undefined &&
    !othersMarked(s.found, ctx.ref)
  ) {
    // Nothing to hand on: delete that version without a read (no async frame between the worker
    // and the write: one per archived entity); another version is read and decided in runRaced.
    return removeVersion(s, ctx, s.etag).then((done) => (done === AGAIN ? runRaced(s, ctx) : done));
  }
  return runRaced(s, ctx);
}

/** A step that reads its entity and may lose a race for it (every table step but a create). */
async function runRaced(
  s: Exclude<TableStep, { kind: "insertIfAbsent" }>,
  ctx: StepContext,
): Promise<StepResult> {
  for (let round = 1; ; round++) {
    try {
      const result = await attempt(s, ctx);
      if (result !== AGAIN) return result;
    } catch (err) {
      if (round >= RACE_ROUNDS || !lostRace(err)) throw err;
      continue;
    }
    if (round >= RACE_ROUNDS)
      throw new TableKitError(
        "ConcurrencyRetriesExhausted",
        `Step ${ctx.ref.step} lost ${round} races for its entity; the worker tries again later`,
      );
  }
}

function lostRace(err: unknown): boolean {
  return (
    isTableKitError(err, "UpdateConditionNotSatisfied", "ResourceNotFound", "EntityAlreadyExists") &&
    err.details?.conflict !== true &&
    err.details?.unverifiable !== true
  );
}

function keysOf(s: TableStep): { partitionKey: string; rowKey: string } {
  return s.kind === "deleteIfPresent" ? s : s.entity;
}

async function read(s: TableStep, ctx: StepContext): Promise<Current | undefined> {
  const { partitionKey, rowKey } = keysOf(s);
  try {
    const e = await ctx.store
      .table(s.table)
      .getEntity(partitionKey, rowKey, { ...ctx.call, queryOptions: ONLY_EVIDENCE });
    return { etag: e.etag, evidence: parseEvidence(e[EVIDENCE_PROPERTY]) };
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return undefined;
    throw err;
  }
}

/** Evidence fits the room a step's entity keeps for it (in UTF-8 bytes, so in characters too). */
const fits = (candidate: Evidence) =>
  Buffer.byteLength(formatEvidence(candidate), "utf8") <= MAX_ENTITY_EVIDENCE_CHARS;

function tableOf(ctx: StepContext): TableOf {
  return (name) => ctx.store.table(name);
}

/** The step's entity as written: its properties and its evidence. */
function entityWith(s: Exclude<TableStep, { kind: "deleteIfPresent" }>, evidence: Evidence) {
  return { ...writableEntity(s.entity), [EVIDENCE_PROPERTY]: formatEvidence(evidence) };
}

/** The evidence after this step's write over `current`. */
function evidenceAfter(ctx: StepContext, current: Current): Promise<Evidence> {
  const carried = carryEntityEvidence(current.evidence, current.etag);
  return addMark(tableOf(ctx), carried, markOf(ctx.ref), ctx.finished, fits, ctx.call);
}

/**
 * A create's write: the step's entity with its evidence (a new life, the step's mark); an entity
 * already at the key is `ifExists` when given. One promise derived from the write's (no async
 * frame): the worker runs one per archived entity.
 */
function create(
  s: Exclude<TableStep, { kind: "deleteIfPresent" }>,
  ctx: StepContext,
  ifExists?: StepResult,
): Promise<StepResult> {
  const lineage = newLifeId();
  const entity: Record<string, unknown> = writableEntity(s.entity); // a new object: add to it
  entity[EVIDENCE_PROPERTY] = formatBorn(lineage, ctx.ref);
  return ctx.writer.write(s.table, ["create", entity as StepEntity]).then(
    (etag): StepResult => ({ outcome: "applied", created: { etag: etag!, lineage } }),
    (err: unknown) => {
      if (ifExists !== undefined && isTableKitError(err, "EntityAlreadyExists")) return ifExists;
      throw err;
    },
  );
}

type StepEntity = ReturnType<typeof writableEntity>;

/** An insert-if-absent: a create; an entity at the key counts as done. */
function insert(s: Extract<TableStep, { kind: "insertIfAbsent" }>, ctx: StepContext): Promise<StepResult> {
  return create(s, ctx, ALREADY);
}

async function attempt(s: TableStep, ctx: StepContext): Promise<StepResult | typeof AGAIN> {
  switch (s.kind) {
    case "insertIfAbsent":
      return insert(s, ctx);
    case "upsert": {
      const current = await read(s, ctx);
      if (!current) return create(s, ctx);
      if (hasMark(current.evidence, ctx.ref)) return ALREADY;
      const entity = entityWith(s, await evidenceAfter(ctx, current));
      await ctx.writer.write(s.table, ["update", entity, s.mode, { etag: current.etag }]);
      return APPLIED;
    }
    case "updateIfMatch": {
      const current = await read(s, ctx);
      if (!current) {
        if ((await ctx.deletedNow())[String(ctx.ref.step)] !== undefined) return ALREADY;
        throw stepRefused(s, "ResourceNotFound", "the entity is gone");
      }
      if (hasMark(current.evidence, ctx.ref)) return ALREADY;
      if (current.etag !== s.etag) throw changedSince(s, ctx, current, s.etag);
      const entity = entityWith(s, await evidenceAfter(ctx, current));
      await ctx.writer.write(s.table, ["update", entity, s.mode, { etag: s.etag }]);
      return APPLIED;
    }
    case "deleteIfPresent":
      return deleteStep(s, ctx);
  }
}

/**
 * An ETag-guarded step whose entity holds neither its mark nor the version it names. On a first
 * attempt it is a conflict. Otherwise the step may have run before: a conflict when the entity's
 * evidence shows only tablekit wrote it since that version (its mark would have stayed), else
 * unverifiable (written outside tablekit since: no evidence, or evidence adopted after it).
 */
function changedSince(s: TableStep, ctx: StepContext, current: Current, etag: string): TableKitError {
  const why = "the entity changed since its ETag was taken";
  if (ctx.firstAttempt) return stepRefused(s, "UpdateConditionNotSatisfied", why);
  const ev = current.evidence;
  const taken = etagTicks(etag);
  const start = ev ? entityLineageStart(ev, current.etag) : undefined;
  if (!ev || (ev.origin === "adopted" && start !== undefined && taken !== undefined && start > BigInt(taken)))
    return stepRefused(
      s,
      "UpdateConditionNotSatisfied",
      `${why}, by a write outside tablekit that left no evidence of whether this step ran`,
      { unverifiable: true },
    );
  return stepRefused(s, "UpdateConditionNotSatisfied", why);
}

type DeleteStep = Extract<TableStep, { kind: "deleteIfPresent" }>;

/**
 * What `enqueue` records of the version an ETag-guarded delete names (CheckedStep.found): its
 * evidence text ("" for none), or false when the key held no such version any more.
 */
export async function foundVersion(
  store: StepContext["store"],
  s: DeleteStep,
  call: StepContext["call"],
): Promise<string | false> {
  try {
    const e = await store
      .table(s.table)
      .getEntity(s.partitionKey, s.rowKey, { ...call, queryOptions: ONLY_EVIDENCE });
    if (e.etag !== s.etag) return false;
    const text = e[EVIDENCE_PROPERTY];
    return typeof text === "string" ? text : "";
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound", "TableNotFound")) return false;
    throw err;
  }
}

/** True when the version `found` names carries marks of other transactions (their journals hear of its delete first). */
function othersMarked(found: string | false, ref: StepContext["ref"]): boolean {
  if (found === false || found === "") return false;
  const marks = parseEvidence(found)?.marks ?? [];
  return marks.some((m) => !(m.id === ref.id && m.journal === ref.journal));
}

/**
 * A delete. Absent counts as done. With an ETag: the version named is deleted; another version
 * is a conflict if it is in the life of the key that version was in (the delete never ran), done
 * if in a later life (the key was deleted, then created again by tablekit). Which life the named
 * version was in, `enqueue` recorded (`found`); when it carried no marks of other transactions
 * there is nothing to hand on, and the delete goes out without a read. Without an ETag: the life
 * of the version read is recorded in the journal first, so a redelivery that finds a later life
 * of the key knows the delete ran.
 */
async function deleteStep(s: DeleteStep, ctx: StepContext): Promise<StepResult | typeof AGAIN> {
  const current = await read(s, ctx);
  if (!current) return ALREADY;
  const ev = current.evidence;
  if (s.etag !== undefined) {
    if (current.etag !== s.etag) return otherVersion(s, ctx, s.etag, current);
  } else {
    const intent = ctx.journal.deleting[String(ctx.ref.step)];
    if (intent === undefined) await ctx.recordDeleting(entityLife(ev, current.etag));
    else if (laterLife(s, intent, current)) return ALREADY;
  }
  if (ev && ev.marks.length > 0)
    await recordDeletedMarks(tableOf(ctx), ev, entityLife(ev, current.etag), ctx.call, ctx.ref);
  return removeVersion(s, ctx, current.etag);
}

/** Deletes exactly the version `etag` names: gone counts as done, another version as AGAIN (read and decide). */
async function removeVersion(
  s: DeleteStep,
  ctx: StepContext,
  etag: string,
): Promise<StepResult | typeof AGAIN> {
  try {
    await ctx.writer.write(s.table, ["delete", keysOf(s), { etag }]);
    return APPLIED;
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return ALREADY;
    if (isTableKitError(err, "UpdateConditionNotSatisfied")) return AGAIN;
    throw err;
  }
}

/**
 * An ETag-guarded delete finds another version of its entity. A conflict when the step cannot
 * have run (a first attempt, or its version was gone before the message was sent), or when the
 * entity is still in the life of the version named (the delete never ran); done when in a later
 * life that tablekit created; unverifiable when only a write outside tablekit explains it.
 */
function otherVersion(s: DeleteStep, ctx: StepContext, etag: string, current: Current): StepResult {
  const changed = "the entity changed since its ETag was taken";
  if (ctx.firstAttempt || s.found === false) throw stepRefused(s, "UpdateConditionNotSatisfied", changed);
  const ev = current.evidence;
  if (ev?.origin === "born" && isLifeId(ev.lineage)) {
    // Born through tablekit: the same life id as the version named is the same life.
    const named = s.found === undefined ? undefined : parseEvidence(s.found);
    if (s.found === undefined)
      throw stepRefused(
        s,
        "UpdateConditionNotSatisfied",
        `${changed}; the message does not say which life it named`,
        {
          unverifiable: true,
        },
      );
    if (named?.lineage === ev.lineage) throw stepRefused(s, "UpdateConditionNotSatisfied", changed);
    return ALREADY;
  }
  const start = ev ? entityLineageStart(ev, current.etag) : undefined;
  const taken = etagTicks(etag);
  if (ev && start !== undefined && taken !== undefined && start <= BigInt(taken))
    throw stepRefused(s, "UpdateConditionNotSatisfied", changed);
  if (ev?.origin === "born" && start !== undefined) return ALREADY; // born before life ids
  throw changedSince(s, ctx, current, etag);
}

/**
 * A delete without an ETag whose journal records the life of the version it read (`intent`):
 * true when the entity now is in a later life created by tablekit (the delete ran); false when in
 * the same life (delete it); unverifiable when only a write outside tablekit explains it.
 */
function laterLife(s: DeleteStep, intent: string, current: Current): boolean {
  const ev = current.evidence;
  if (ev?.origin === "born" && isLifeId(ev.lineage)) return ev.lineage !== intent;
  if (!isLifeId(intent)) {
    const start = ev ? entityLineageStart(ev, current.etag) : undefined;
    const since = start ?? (ev ? undefined : BigInt(etagTicks(current.etag) ?? "-1"));
    if (since === undefined || since <= BigInt(intent)) return false;
    if (ev?.origin === "born") return true; // born before life ids: deleted, then created again by tablekit
  }
  throw stepRefused(
    s,
    "UpdateConditionNotSatisfied",
    "the entity was written outside tablekit since the step read it: whether the delete ran is unknown",
    { unverifiable: true },
  );
}

/**
 * Steps without evidence, kept only to measure what evidence costs (bench/transactions.bench.ts):
 * insert-if-absent and delete-if-present count "already there"/"already gone" as done, an upsert
 * writes again, a guarded update that fails is a conflict. Not exact after a crash.
 */
function runWithoutEvidence(s: TableStep, ctx: StepContext): Promise<StepResult> {
  // As lean as the steps with evidence (no async frame): the comparison charges the evidence only.
  let written: Promise<unknown>;
  if (s.kind === "insertIfAbsent") written = ctx.writer.write(s.table, ["create", writableEntity(s.entity)]);
  else if (s.kind === "upsert")
    written = ctx.store.table(s.table).upsertEntity(writableEntity(s.entity), s.mode, ctx.call);
  else if (s.kind === "updateIfMatch")
    written = ctx.writer.write(s.table, ["update", writableEntity(s.entity), s.mode, { etag: s.etag }]);
  else written = ctx.writer.write(s.table, ["delete", keysOf(s), { etag: s.etag ?? "*" }]);
  return written.then(
    () => APPLIED,
    (err: unknown) => {
      if (s.kind === "insertIfAbsent" && isTableKitError(err, "EntityAlreadyExists")) return ALREADY;
      if (s.kind === "deleteIfPresent" && isTableKitError(err, "ResourceNotFound")) return ALREADY;
      if (isTableKitError(err, "UpdateConditionNotSatisfied", "ResourceNotFound"))
        throw stepRefused(
          s,
          err.code as "UpdateConditionNotSatisfied",
          "the entity changed since its ETag was taken",
          { cause: err },
        );
      throw err;
    },
  );
}
