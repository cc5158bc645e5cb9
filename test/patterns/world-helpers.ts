/** Fresh queues, containers and a transaction queue for the suites that need more than a table. */

import type { StepHandler, TransactionQueue as TQ } from "../../src/patterns/index.js";
import { TransactionQueue } from "../../src/patterns/index.js";
import { randomAlphanumeric } from "../conformance/factory.js";
import type { PatternsTarget } from "./target.js";

/** A valid, unique queue or container name (lowercase letters and digits). */
export function freshName(prefix: string): string {
  return `${prefix}${randomAlphanumeric(12).toLowerCase()}`;
}

/** A transaction queue on fresh names (queue, poison queue, journal table, payload container), created. */
export async function freshTransactions(
  target: PatternsTarget,
  handlers: readonly StepHandler<never>[] = [],
): Promise<TQ> {
  const transactions = new TransactionQueue(target.store, {
    queue: freshName("tx"),
    journalTable: target.freshTableName(),
    payloadContainer: freshName("txp"),
    handlers,
  });
  await transactions.ensure();
  return transactions;
}

/** Every blob of a container as `name → text`. */
export async function blobTexts(target: PatternsTarget, container: string): Promise<Record<string, string>> {
  const c = target.store.container(container);
  const out: Record<string, string> = {};
  for await (const b of c.listBlobsFlat())
    out[b.name] = (await c.getBlobClient(b.name).downloadToBuffer()).toString("utf8");
  return out;
}
