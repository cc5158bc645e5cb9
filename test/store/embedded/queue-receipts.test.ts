import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { EmbeddedQueues } from "../../../src/store/backends/embedded/embedded-queues.js";
import { embeddedQueueCapabilities } from "../../../src/store/backends/embedded/queue-capabilities.js";

describe("embedded pop receipts", () => {
  // A receipt is drawn from a random prefix per store. One that began with "-" would be read as an
  // option by `tablekit queue delete NAME ID RECEIPT`; with a bare base64url prefix that is 1 store in 64,
  // so 512 stores would all pass by chance about 3 times in 10,000.
  it("never begin with '-', whatever the store's random prefix", () => {
    const db = new Database(":memory:");
    const capabilities = embeddedQueueCapabilities({ memory: true });
    const leading = new Set<string>();
    for (let i = 0; i < 512; i++) {
      const receipt = new EmbeddedQueues(db, capabilities).newReceipt();
      expect(receipt).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/);
      leading.add(receipt.slice(1, 2));
    }
    // The prefix stays random: the character after the fixed one varies.
    expect(leading.size).toBeGreaterThan(40);
    db.close();
  });
});
