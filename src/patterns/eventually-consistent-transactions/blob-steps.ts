import { isTableKitError, TableKitError } from "../../model/index.js";
import type { BlobRequestConditions } from "../../store/index.js";
import {
  blobLineage,
  carryBlobEvidence,
  EVIDENCE_METADATA,
  type Evidence,
  formatEvidence,
  hasMark,
  MAX_BLOB_EVIDENCE_CHARS,
  markOf,
  parseEvidence,
} from "../shared/evidence/evidence.js";
import { addMark, recordDeletedMarks } from "../shared/evidence/evidence-upkeep.js";
import { type StepContext, type StepResult, stepRefused } from "./step-context.js";
import type { CheckedStep } from "./steps.js";

type PutBlobStep = Extract<CheckedStep, { kind: "putBlob" }>;
type BlobStep = Extract<CheckedStep, { kind: "putBlob" | "deleteBlobIfPresent" }>;

const RACE_ROUNDS = 10;
const APPLIED: StepResult = { outcome: "applied" };
const ALREADY: StepResult = { outcome: "already" };
const AGAIN = Symbol("again");

interface CurrentBlob {
  readonly etag: string;
  readonly evidence: Evidence | undefined;
}

/** Blob metadata values are printable ASCII: the evidence text, percent-encoded. */
const encode = (evidence: Evidence) => encodeURIComponent(formatEvidence(evidence));
const fits = (candidate: Evidence) => encode(candidate).length <= MAX_BLOB_EVIDENCE_CHARS;

/**
 * A blob step, by the same rules as a table step (docs/patterns/eventually-consistent-transactions.md#evidence):
 * the blob's metadata carries the marks of the steps that wrote it and its lineage; a delete
 * records the lineage it deletes first. Where the backend cannot write conditionally
 * (`blobCapabilities.conditionalWrites` false), the version read is not enforced by the write:
 * a writer outside the transaction between the two may be overwritten (documented degrade).
 */
export async function runBlobStep(s: BlobStep, ctx: StepContext): Promise<StepResult> {
  if (s.kind === "putBlob" && ctx.journal.deleted[String(ctx.ref.step)] !== undefined) return ALREADY;
  for (let round = 1; ; round++) {
    try {
      const result = s.kind === "putBlob" ? await put(s, ctx) : await remove(s, ctx);
      if (result !== AGAIN) return result;
    } catch (err) {
      const race =
        isTableKitError(err, "ConditionNotMet", "BlobAlreadyExists", "BlobNotFound") &&
        err.details?.conflict !== true &&
        err.details?.unverifiable !== true;
      if (!race || round >= RACE_ROUNDS) throw err;
      continue;
    }
    if (round >= RACE_ROUNDS)
      throw new TableKitError(
        "ConcurrencyRetriesExhausted",
        `Step ${ctx.ref.step} lost ${round} races for its blob`,
      );
  }
}

async function read(s: BlobStep, ctx: StepContext): Promise<CurrentBlob | undefined> {
  try {
    const p = await ctx.store.container(s.container).getBlobClient(s.name).getProperties(ctx.call);
    const text = p.metadata[EVIDENCE_METADATA];
    return { etag: p.etag, evidence: parseEvidence(text === undefined ? undefined : safeDecode(text)) };
  } catch (err) {
    if (isTableKitError(err, "BlobNotFound")) return undefined;
    throw err;
  }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function conditional(ctx: StepContext): boolean {
  return ctx.store.blobCapabilities?.conditionalWrites === true;
}

async function put(s: PutBlobStep, ctx: StepContext): Promise<StepResult | typeof AGAIN> {
  const current = await read(s, ctx);
  if (current && hasMark(current.evidence, ctx.ref)) return ALREADY;
  if (s.ifNoneMatch !== undefined && current) {
    const ev = current.evidence;
    throw stepRefused(s, "BlobAlreadyExists", "the blob exists with other content", {
      unverifiable: !ctx.firstAttempt && !ev,
    });
  }
  if (s.ifMatch !== undefined) {
    if (!current) {
      if ((await ctx.deletedNow())[String(ctx.ref.step)] !== undefined) return ALREADY;
      throw stepRefused(s, "ConditionNotMet", "the blob is gone");
    }
    if (current.etag !== s.ifMatch)
      throw stepRefused(s, "ConditionNotMet", "the blob changed since its ETag was taken", {
        unverifiable: !ctx.firstAttempt && !current.evidence,
      });
  }
  const carried = carryBlobEvidence(current?.evidence, current?.etag);
  const evidence = current
    ? await addMark((n) => ctx.store.table(n), carried, markOf(ctx.ref), ctx.finished, fits, ctx.call)
    : { ...carried, marks: [markOf(ctx.ref)] };
  const conditions: BlobRequestConditions = current ? { ifMatch: current.etag } : { ifNoneMatch: "*" };
  const written = await ctx.store
    .container(s.container)
    .getBlockBlobClient(s.name)
    .upload(s.data, s.data.byteLength, {
      ...ctx.call,
      metadata: { [EVIDENCE_METADATA]: encode(evidence) },
      ...(s.contentType === undefined ? {} : { blobHTTPHeaders: { blobContentType: s.contentType } }),
      ...(conditional(ctx) ? { conditions } : {}),
    });
  return current
    ? APPLIED
    : { outcome: "applied", created: { lineage: evidence.lineage!, etag: written.etag } };
}

/**
 * A blob delete (never guarded by an ETag): the lineage of the version read is recorded in the
 * journal first, so a redelivery that finds a blob of another lineage knows the delete ran.
 */
async function remove(
  s: Extract<BlobStep, { kind: "deleteBlobIfPresent" }>,
  ctx: StepContext,
): Promise<StepResult | typeof AGAIN> {
  const current = await read(s, ctx);
  if (!current) return ALREADY;
  const lineage = blobLineage(current.evidence, current.etag);
  const intent = ctx.journal.deleting[String(ctx.ref.step)];
  if (intent === undefined) await ctx.recordDeleting(lineage);
  else if (intent !== lineage) {
    if (current.evidence?.origin === "born") return ALREADY; // deleted, then created again by tablekit
    throw stepRefused(
      s,
      "ConditionNotMet",
      "the blob was written outside tablekit since the step read it: whether the delete ran is unknown",
      { unverifiable: true },
    );
  }
  await recordDeletedMarks((n) => ctx.store.table(n), current.evidence, lineage, ctx.call, ctx.ref);
  try {
    await ctx.store
      .container(s.container)
      .getBlobClient(s.name)
      .delete({ ...ctx.call, ...(conditional(ctx) ? { conditions: { ifMatch: current.etag } } : {}) });
    return APPLIED;
  } catch (err) {
    if (isTableKitError(err, "BlobNotFound")) return ALREADY;
    if (isTableKitError(err, "ConditionNotMet")) return AGAIN;
    throw err;
  }
}
