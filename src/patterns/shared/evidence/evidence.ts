import { randomBytes, randomUUID } from "node:crypto";
import { timestampOfEtag } from "../../../model/index.js";

/**
 * Evidence of what transactions did to an entity or a blob, written with every change tablekit
 * makes to it (docs/patterns/eventually-consistent-transactions.md#evidence):
 * - the marks of the recent transaction steps that wrote it (a step's effect stays recognisable
 *   after later writers changed it, as long as they write through tablekit, which keeps the marks);
 * - its lineage: whether tablekit created it ("born") or first wrote it after it was written
 *   elsewhere ("adopted"), and when that life of the key started, so a redelivered step can tell
 *   a key deleted and created again from one changed in between.
 */

/** The entity property that holds an entity's evidence. */
export const EVIDENCE_PROPERTY = "tablekit_tx";
/** The blob metadata name that holds a blob's evidence. */
export const EVIDENCE_METADATA = "tablekittx";
/** Longest evidence of an entity (UTF-8 bytes, so characters too); a step's entity must leave room for it. */
export const MAX_ENTITY_EVIDENCE_CHARS = 8192;
/** Longest evidence of a blob (its metadata value; S3 takes 2 KiB of metadata). */
export const MAX_BLOB_EVIDENCE_CHARS = 1024;

const FORMAT = "1";

/** One transaction step that wrote the target. */
export interface Mark {
  /** The table of the transaction's journal. */
  readonly journal: string;
  /** The transaction's id. */
  readonly id: string;
  readonly step: number;
  /** When it was made, in seconds since the Unix epoch (the writer's clock): marks of transactions without a journal row expire. */
  readonly at: number;
}

/** What a target carries. */
export interface Evidence {
  /** "born": tablekit created it; "adopted": tablekit first wrote it after it was written elsewhere. */
  readonly origin: "born" | "adopted";
  /**
   * This life of the key, as far as tablekit knows it. An entity born through tablekit: the life
   * id its create drew (`lifeId`); an adopted entity: the ticks of the Timestamp of the version
   * tablekit first overwrote. A blob: a lineage id.
   */
  readonly lineage?: string;
  readonly marks: readonly Mark[];
}

/** The transaction step a mark names. */
export interface StepRef {
  readonly journal: string;
  readonly id: string;
  readonly step: number;
}

/** True when `evidence` holds the mark of `ref`. */
export function hasMark(evidence: Evidence | undefined, ref: StepRef): boolean {
  return (
    evidence?.marks.some((m) => m.id === ref.id && m.step === ref.step && m.journal === ref.journal) === true
  );
}

/** The evidence text: `1|<origin>|<lineage>|<journal>|<step>:<at>:<id>/…` (`@<journal>:` before a mark of another journal). */
export function formatEvidence(evidence: Evidence): string {
  const journal = evidence.marks[0]?.journal ?? "";
  const marks = evidence.marks.map(
    (m) => `${m.journal === journal ? "" : `@${m.journal}:`}${m.step}:${m.at}:${m.id}`,
  );
  // Transaction ids are PartitionKeys: they never hold "/", so it separates marks.
  return `${FORMAT}|${evidence.origin === "born" ? "b" : "a"}|${evidence.lineage ?? ""}|${journal}|${marks.join("/")}`;
}

/**
 * `formatEvidence` of a create's evidence (born, life id `lineage`, the one mark of `ref` made
 * now), without the objects: it runs once per created entity.
 */
export function formatBorn(lineage: string, ref: StepRef): string {
  return `${FORMAT}|b|${lineage}|${ref.journal}|${ref.step}:${markSeconds()}:${ref.id}`;
}

/** The evidence a stored value holds; undefined when there is none, or it is not tablekit's. */
export function parseEvidence(value: unknown): Evidence | undefined {
  if (typeof value !== "string") return undefined;
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < 4; i++) {
    const bar = value.indexOf("|", from);
    if (bar < 0) return undefined;
    parts.push(value.slice(from, bar));
    from = bar + 1;
  }
  const [format, origin, lineage, journal] = parts as [string, string, string, string];
  if (format !== FORMAT || (origin !== "b" && origin !== "a")) return undefined;
  const marks: Mark[] = [];
  const rest = value.slice(from);
  for (const text of rest === "" ? [] : rest.split("/")) {
    const mark = parseMark(text, journal);
    if (!mark) return undefined;
    marks.push(mark);
  }
  return {
    origin: origin === "b" ? "born" : "adopted",
    ...(lineage === "" ? {} : { lineage }),
    marks,
  };
}

function parseMark(text: string, defaultJournal: string): Mark | undefined {
  let journal = defaultJournal;
  let rest = text;
  if (rest.startsWith("@")) {
    const colon = rest.indexOf(":");
    if (colon < 0) return undefined;
    journal = rest.slice(1, colon);
    rest = rest.slice(colon + 1);
  }
  const first = rest.indexOf(":");
  const second = first < 0 ? -1 : rest.indexOf(":", first + 1);
  if (second < 0) return undefined;
  const step = Number(rest.slice(0, first));
  const at = Number(rest.slice(first + 1, second));
  const id = rest.slice(second + 1);
  if (!Number.isInteger(step) || step < 0 || !Number.isFinite(at) || id === "" || journal === "")
    return undefined;
  return { journal, id, step, at };
}

/** The ticks of an entity ETag's Timestamp, as text (undefined for an ETag that names none). */
export function etagTicks(etag: string): string | undefined {
  return timestampOfEtag(etag)?.ticks.toString();
}

/** This process's life ids: a random prefix (72 bits), then a counter — unique without a random draw per create. */
const LIFE_PREFIX = `i${randomBytes(9).toString("base64url")}`;
let lives = 0;

/** A new life id: what a create through tablekit writes as its entity's lineage (never all digits, unlike ticks). */
export function newLifeId(): string {
  return `${LIFE_PREFIX}${(lives++).toString(36)}`;
}

/** True when `lineage` is a life id drawn by a create (not the ticks of an adopted version). */
export function isLifeId(lineage: string | undefined): lineage is string {
  return lineage !== undefined && !/^\d+$/.test(lineage);
}

/**
 * The evidence an entity keeps through a write of tablekit's: `before` is what the version it
 * overwrites carried (undefined: none), `overwritten` that version's ETag (undefined: a create).
 * A create starts a born life with a new life id; the first write over an entity written elsewhere
 * adopts it at that version. (Entities born before life ids get, at their next write, the ticks
 * of the version it overwrites.)
 */
export function carryEntityEvidence(before: Evidence | undefined, overwritten: string | undefined): Evidence {
  if (overwritten === undefined) return { origin: "born", lineage: newLifeId(), marks: [] };
  if (!before) {
    const ticks = etagTicks(overwritten);
    return { origin: "adopted", ...(ticks === undefined ? {} : { lineage: ticks }), marks: [] };
  }
  if (before.lineage === undefined && before.origin === "born") {
    const ticks = etagTicks(overwritten);
    return ticks === undefined ? before : { ...before, lineage: ticks };
  }
  return before;
}

/**
 * The evidence a blob keeps through a write of tablekit's (`overwritten`: the ETag of the version it
 * replaces, undefined for a create). A blob's lineage is an id: a new one for a create, the ETag
 * tablekit first overwrote for an adopted blob.
 */
export function carryBlobEvidence(before: Evidence | undefined, overwritten: string | undefined): Evidence {
  if (overwritten === undefined) return { origin: "born", lineage: randomUUID(), marks: [] };
  return before ?? { origin: "adopted", lineage: overwritten, marks: [] };
}

/** A blob's lineage: its evidence's, or for a blob tablekit never wrote, its ETag (what adopting it would record). */
export function blobLineage(evidence: Evidence | undefined, etag: string): string {
  return evidence?.lineage ?? etag;
}

/**
 * When the entity's current life started, in ticks, where the evidence says it: an adopted
 * lineage, or for an entity born before life ids and not written since its create, the Timestamp
 * of the version read (that create). Undefined for a life id (its begin is not known: compare ids)
 * and for an adopted lineage without a Timestamp (an ETag of another format).
 */
export function entityLineageStart(evidence: Evidence, etag: string): bigint | undefined {
  if (isLifeId(evidence.lineage)) return undefined;
  const text = evidence.lineage ?? (evidence.origin === "born" ? etagTicks(etag) : undefined);
  return text === undefined ? undefined : BigInt(text);
}

/**
 * The life of the key a version (its evidence and ETag) belongs to, as the journal records it when
 * tablekit deletes it: its life id, or the ticks its life started at (or, unknown, of the version).
 */
export function entityLife(evidence: Evidence | undefined, etag: string): string {
  if (isLifeId(evidence?.lineage)) return evidence.lineage;
  return (evidence && entityLineageStart(evidence, etag)?.toString()) ?? etagTicks(etag) ?? "0";
}

/** `evidence` with `mark` added (a mark of the same step replaced). */
export function withMark(evidence: Evidence, mark: Mark): Evidence {
  const marks = evidence.marks.filter(
    (m) => !(m.id === mark.id && m.step === mark.step && m.journal === mark.journal),
  );
  return { ...evidence, marks: [...marks, mark] };
}

/** The mark of `ref` made now. */
export function markOf(ref: StepRef): Mark {
  return { ...ref, at: markSeconds() };
}

/** A new mark's `at`: now, in whole seconds since the Unix epoch. */
function markSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The evidence property of a tablekit write of an entity over `read` (the entity as read, with
 * its ETag; undefined for a create): the marks and lineage the read version carried, kept.
 */
export function keptEvidence(read: { readonly etag: string } | undefined): Record<string, string> {
  const before = read ? parseEvidence((read as Record<string, unknown>)[EVIDENCE_PROPERTY]) : undefined;
  return { [EVIDENCE_PROPERTY]: formatEvidence(carryEntityEvidence(before, read?.etag)) };
}
