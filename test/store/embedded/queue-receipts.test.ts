import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { EmbeddedQueues } from "../../../src/store/backends/embedded/embedded-queues.js";
import { embeddedQueueCapabilities } from "../../../src/store/backends/embedded/queue-capabilities.js";
import { prepareStateSchema } from "../../../src/store/backends/embedded/resource-state.js";

/** A bare database with the state tables the queue port keeps its metadata in (as the store creates them). */
function database(): Database.Database {
  const db = new Database(":memory:");
  prepareStateSchema(db);
  return db;
}

describe("embedded pop receipts", () => {
  // A receipt is 128 random bits. One that began with "-" would be read as an option by
  // `tablekit queue delete NAME ID RECEIPT`; with bare base64url that is 1 receipt in 64, so 512
  // receipts would all pass by chance about 3 times in 10,000.
  it("never begin with '-', whatever the store's random prefix", () => {
    const db = database();
    const capabilities = embeddedQueueCapabilities({ memory: true });
    const leading = new Set<string>();
    for (let i = 0; i < 512; i++) {
      const receipt = new EmbeddedQueues(db, capabilities).newReceipt();
      expect(receipt).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/);
      leading.add(receipt.slice(1, 2));
    }
    // The receipt stays random: the character after the fixed one varies.
    expect(leading.size).toBeGreaterThan(40);
    db.close();
  });

  it("carry 128 random bits each: successive receipts of one store share no prefix, counter or position", () => {
    const db = database();
    const queues = new EmbeddedQueues(db, embeddedQueueCapabilities({ memory: true }));
    // More than one pool of random bytes (256 receipts), so a refill is crossed too.
    const receipts = Array.from({ length: 1_000 }, () => queues.newReceipt());
    for (const r of receipts) expect(Buffer.from(r.slice(1), "base64url").length).toBeGreaterThanOrEqual(16);
    expect(new Set(receipts).size).toBe(receipts.length);
    // No two share their first 6 random characters (36 bits: a collision among 1,000 is ~7 in a million).
    expect(new Set(receipts.map((r) => r.slice(1, 7))).size).toBe(receipts.length);
    // Every position of the random part varies (a counter's high digits would not).
    for (let i = 1; i < receipts[0]!.length - 1; i++)
      expect(new Set(receipts.map((r) => r[i])).size, `position ${i}`).toBeGreaterThan(50);
    db.close();
  });
});
