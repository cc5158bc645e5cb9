import { AZURE_QUEUE_LIMITS } from "../../../model/index.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";
import type { Capabilities } from "../../tables/table-capabilities.js";

/** Where the table-backed queue departs from Azure Queue Storage, and why. */
export const TABLE_QUEUE_DIVERGENCES: QueueCapabilities["divergences"] = [
  {
    id: "client-clock",
    description:
      "Visibility and expiry are decided by each client's clock, not a service's: a consumer whose clock " +
      "runs ahead by d sees messages d early, so skew between consumers shortens visibility windows by it. " +
      "Exclusivity itself never depends on clocks (a lease is an ETag-conditional write). Keep clocks in sync.",
  },
  {
    id: "catalogue-cache",
    description:
      "A queue's existence is read once and trusted for `catalogueTtlMs` (1 s by default): for that long after " +
      "another process deletes the queue, this process's sends still succeed (into the deleted queue's " +
      "partition, never into a queue recreated under the name) instead of failing with QueueNotFound.",
  },
  {
    id: "count-cost",
    description:
      "getProperties counts the queue's markers by reading them: a round trip per 1,000 messages, where the " +
      "service answers from a counter.",
  },
];

/** The table-backed queue's capabilities, from those of the table port it is built on. */
export function tableQueueCapabilities(tables: Capabilities): QueueCapabilities {
  return Object.freeze({
    backend: `table-queue (${tables.backend})`,
    limits: AZURE_QUEUE_LIMITS,
    persistent: tables.persistent,
    multiProcess: tables.multiProcess,
    sendsOnce: false, // a retried insert of the message's entity: left to the table's SDK
    clock: "client",
    timeResolutionMs: 1,
    deletedNameHold: false,
    divergences: TABLE_QUEUE_DIVERGENCES,
  });
}
