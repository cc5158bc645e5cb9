import { AZURE_QUEUE_LIMITS } from "../../../model/index.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";

/** What the embedded queues do: Azure Queue Storage's rules, on the database's clock. */
export function embeddedQueueCapabilities(options: { memory: boolean }): QueueCapabilities {
  return Object.freeze({
    backend: "embedded",
    limits: AZURE_QUEUE_LIMITS,
    persistent: !options.memory,
    multiProcess: !options.memory,
    clock: "service",
    sendsOnce: true, // a local SQLite insert: no transport to retry it
    timeResolutionMs: 1,
    deletedNameHold: true, // tk_deleted_names, written with each delete
    divergences: [],
  });
}
