import { TableKitError } from "../../../model/index.js";
import type {
  AccessTier,
  BackendConditions,
  StoredBlobProperties,
  StoredTaggedBlob,
} from "../../blobs/blob-backend.js";
import type { BlobTags } from "../../blobs/blob-tags.js";
import {
  evaluateTagCondition,
  type TagComparison,
  type TagQuery,
  tagConditionNotMet,
  tagsNamedBy,
} from "../../blobs/tag-expression.js";
import type { Db } from "./connection.js";
import type { SqliteStatement } from "./sqlite-database.js";

/**
 * Blob index tags and access tiers, beside the blob rows: one row per tag, indexed by (key, value)
 * so Find Blobs by Tags seeks to the blobs of its most selective comparison instead of scanning;
 * one row per blob whose tier was set (none: Hot, inferred). Written in the transaction of the
 * blob write they belong to; a blob's rows go with it, a container's with the container.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS tk_blob_tags (
    container INTEGER NOT NULL,
    blob TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (container, blob, key)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS tk_blob_tags_by_value ON tk_blob_tags (key, value, container, blob);
  CREATE TABLE IF NOT EXISTS tk_blob_tiers (
    container INTEGER NOT NULL,
    blob TEXT NOT NULL,
    tier TEXT NOT NULL,
    changed INTEGER NOT NULL,
    PRIMARY KEY (container, blob)
  ) WITHOUT ROWID;`;

/** The tier a blob reports when none was set: the account's default. */
const DEFAULT_TIER: AccessTier = "Hot";
const SQL_OPERATORS: Readonly<Record<TagComparison["op"], string>> = {
  "=": "=",
  "<>": "<>",
  ">": ">",
  ">=": ">=",
  "<": "<",
  "<=": "<=",
};

export class EmbeddedBlobAnnotations {
  private readonly sql: Record<string, SqliteStatement>;
  /** Find Blobs by Tags statements by shape (their texts differ only by the comparisons' count and operators). */
  private readonly finds = new Map<string, SqliteStatement>();

  constructor(private readonly db: Db) {
    db.exec(SCHEMA);
    const prepare = (text: string) => db.prepare(text);
    this.sql = {
      tags: prepare("SELECT key, value FROM tk_blob_tags WHERE container = ? AND blob = ?"),
      tagCount: prepare("SELECT count(*) FROM tk_blob_tags WHERE container = ? AND blob = ?").pluck(),
      insertTag: prepare("INSERT INTO tk_blob_tags (container, blob, key, value) VALUES (?, ?, ?, ?)"),
      dropTags: prepare("DELETE FROM tk_blob_tags WHERE container = ? AND blob = ?"),
      dropContainerTags: prepare("DELETE FROM tk_blob_tags WHERE container = ?"),
      tier: prepare("SELECT tier, changed FROM tk_blob_tiers WHERE container = ? AND blob = ?"),
      setTier: prepare(
        "INSERT OR REPLACE INTO tk_blob_tiers (container, blob, tier, changed) VALUES (?, ?, ?, ?)",
      ),
      dropTier: prepare("DELETE FROM tk_blob_tiers WHERE container = ? AND blob = ?"),
      dropContainerTiers: prepare("DELETE FROM tk_blob_tiers WHERE container = ?"),
    };
  }

  tags(container: number, blob: string): BlobTags {
    const rows = this.sql.tags!.all(container, blob) as { key: string; value: string }[];
    const out: BlobTags = {};
    for (const r of rows) out[r.key] = r.value;
    return out;
  }

  /** Replaces the blob's tags: in the caller's transaction. */
  setTags(container: number, blob: string, tags: BlobTags): void {
    this.sql.dropTags!.run(container, blob);
    for (const [key, value] of Object.entries(tags)) this.sql.insertTag!.run(container, blob, key, value);
  }

  setTier(container: number, blob: string, tier: AccessTier, changed: number): void {
    this.sql.setTier!.run(container, blob, tier, changed);
  }

  tier(container: number, blob: string): { tier: AccessTier; changed: number } | undefined {
    return this.sql.tier!.get(container, blob) as { tier: AccessTier; changed: number } | undefined;
  }

  /** What a new version of the blob starts with (an upload or commit): its tags and tier, or none. */
  replace(container: number, blob: string, upload: { tags?: BlobTags; tier?: AccessTier }): void {
    this.setTags(container, blob, upload.tags ?? {});
    if (upload.tier) this.setTier(container, blob, upload.tier, Date.now());
    else this.sql.dropTier!.run(container, blob);
  }

  drop(container: number, blob: string): void {
    this.sql.dropTags!.run(container, blob);
    this.sql.dropTier!.run(container, blob);
  }

  dropContainer(container: number): void {
    this.sql.dropContainerTags!.run(container);
    this.sql.dropContainerTiers!.run(container);
  }

  /** The tag count and tier fields of a blob's properties. */
  describe(container: number, blob: string, properties: StoredBlobProperties): StoredBlobProperties {
    const tagCount = this.sql.tagCount!.get(container, blob) as number;
    const withTags = tagCount > 0 ? { ...properties, tagCount } : properties;
    if (properties.blobType !== "BlockBlob") return withTags;
    const set = this.tier(container, blob);
    return set
      ? {
          ...withTags,
          accessTier: set.tier,
          accessTierInferred: false,
          accessTierChangedOn: new Date(Math.floor(set.changed / 1000) * 1000),
        }
      : { ...withTags, accessTier: DEFAULT_TIER, accessTierInferred: true };
  }

  /** ConditionNotMet unless the blob's tags meet the conditions' `tagConditions` (a missing blob has none). */
  checkTagConditions(container: number, blob: string, exists: boolean, conditions: BackendConditions): void {
    const c = conditions.tagConditions;
    if (!c) return;
    const tags = exists ? this.tags(container, blob) : {};
    if (!evaluateTagCondition(c.condition, tags)) throw tagConditionNotMet(blob);
  }

  /** BlobArchived when the blob is in the Archive tier (its bytes cannot be read or rewritten in place). */
  checkOnline(container: number, blob: string): void {
    if (this.tier(container, blob)?.tier === "Archive") {
      throw new TableKitError("BlobArchived", "This operation is not permitted on an archived blob.", {
        details: { blobName: blob },
      });
    }
  }

  /**
   * Blobs whose tags meet the query, by container name then blob name, after `after`. The first
   * comparison that is an equality (else the first) drives the seek on (key, value); every other
   * comparison joins on the blob's primary key. CROSS JOIN keeps that order: SQLite would
   * otherwise drive a range comparison's many rows (measured: 28 ms instead of 0.7 for 50 of 100,000).
   */
  find(
    query: TagQuery,
    after: { container: string; blob: string } | undefined,
    limit: number,
  ): StoredTaggedBlob[] {
    const { text, params } = findStatement(query, after, limit);
    let statement = this.finds.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      if (this.finds.size < 256) this.finds.set(text, statement);
    }
    const rows = statement.all(...params) as { id: number; container: string; blob: string }[];
    return rows.map((r) => ({
      containerName: r.container,
      name: r.blob,
      tags: tagsNamedBy(query, this.tags(r.id, r.blob)),
    }));
  }
}

/**
 * The statement of one Find Blobs by Tags page and its parameters (exported for the plan test):
 * the first equality (else the first comparison) seeks tk_blob_tags_by_value, each other
 * comparison is one primary-key lookup of the same blob.
 */
export function findStatement(
  query: TagQuery,
  after: { container: string; blob: string } | undefined,
  limit: number,
): { text: string; params: unknown[] } {
  const ordered = [...query.comparisons].sort((a, b) => Number(b.op === "=") - Number(a.op === "="));
  const [lead, ...rest] = ordered;
  const joins = rest
    .map(
      (c, i) =>
        ` CROSS JOIN tk_blob_tags t${i + 1} ON t${i + 1}.container = t0.container AND t${i + 1}.blob = t0.blob` +
        ` AND t${i + 1}.key = ? AND t${i + 1}.value ${SQL_OPERATORS[c.op]} ?`,
    )
    .join("");
  const text =
    "SELECT t0.container AS id, c.name AS container, t0.blob AS blob FROM tk_blob_tags t0" +
    joins +
    " CROSS JOIN tk_containers c ON c.id = t0.container" +
    ` WHERE t0.key = ? AND t0.value ${SQL_OPERATORS[lead!.op]} ?` +
    (query.container === undefined ? "" : " AND c.name = ?") +
    (after ? " AND (c.name > ? OR (c.name = ? AND t0.blob > ?))" : "") +
    " ORDER BY c.name, t0.blob LIMIT ?";
  const params: unknown[] = [];
  for (const c of rest) params.push(c.key, c.value);
  params.push(lead!.key, lead!.value);
  if (query.container !== undefined) params.push(query.container);
  if (after) params.push(after.container, after.container, after.blob);
  params.push(limit);
  return { text, params };
}
