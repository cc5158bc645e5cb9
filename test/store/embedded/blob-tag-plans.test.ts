import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { findStatement } from "../../../src/store/backends/embedded/blob-annotations.js";
import { EmbeddedBlobCatalogue } from "../../../src/store/backends/embedded/blob-catalogue.js";
import { EmbeddedMemoryContent } from "../../../src/store/backends/embedded/blob-content.js";
import type { Db } from "../../../src/store/backends/embedded/connection.js";
import { parseTagQuery } from "../../../src/store/blobs/tag-expression.js";

/** SQLite's plan of a Find Blobs by Tags page, as its `EXPLAIN QUERY PLAN` details. */
function plan(db: Database.Database, where: string, after?: { container: string; blob: string }): string[] {
  const { text, params } = findStatement(parseTagQuery(where), after, 100);
  return (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map(
    (r) => r.detail,
  );
}

describe("Find Blobs by Tags on the embedded engine seeks, never scans", () => {
  const db = new Database(":memory:");
  new EmbeddedBlobCatalogue(db as unknown as Db, new EmbeddedMemoryContent());

  it("an equality seeks (key, value); every other comparison is a primary-key lookup", () => {
    for (const where of [
      `"batch" = 'b42'`,
      `"n" >= '1' AND "batch" = 'b42' AND "m" < '9'`,
      `"n" >= '0050000'`,
      `@container = 'c' AND "n" > '1' AND "n" < '5'`,
    ]) {
      const steps = plan(db, where, { container: "c", blob: "x" });
      expect(steps[0], where).toMatch(
        /^SEARCH t0 USING (COVERING )?INDEX tk_blob_tags_by_value \(key=\? AND value[=><]/,
      );
      for (const step of steps.slice(1)) {
        expect({ where, step }).not.toMatchObject({ step: expect.stringMatching(/^SCAN/) });
      }
      expect(steps.filter((s) => /^SEARCH t\d+ USING PRIMARY KEY/.test(s))).toHaveLength(
        parseTagQuery(where).comparisons.length - 1,
      );
    }
  });
});
