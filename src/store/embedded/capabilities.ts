import { AZURE_LIMITS, AZURE_QUEUE_LIMITS, type Limits } from "../../model/index.js";
import { AZURE_BLOB_RULES, type BlobCapabilities } from "../blob-backend.js";
import type { Capabilities } from "../capabilities.js";
import type { QueueCapabilities } from "../queue-backend.js";

/** What the embedded engine does: the Azure rules, keys in UTF-16 order, pages per partition. */
export function embeddedCapabilities(options: { memory: boolean; limits?: Partial<Limits> }): Capabilities {
  return Object.freeze({
    backend: "embedded",
    limits: Object.freeze({ ...AZURE_LIMITS, ...options.limits }),
    keyOrder: "utf16",
    persistent: !options.memory,
    multiProcess: !options.memory,
    pageEndsAtPartitionBoundary: true,
    divergences: [],
  });
}

/** What the embedded queues do: Azure Queue Storage's rules, on the database's clock. */
export function embeddedQueueCapabilities(options: { memory: boolean }): QueueCapabilities {
  return Object.freeze({
    backend: "embedded",
    limits: AZURE_QUEUE_LIMITS,
    persistent: !options.memory,
    multiProcess: !options.memory,
    clock: "service",
    timeResolutionMs: 1,
    divergences: [],
  });
}

/** The Blob service's limits (docs/blobs.md), kept by the embedded engine exactly. */
export function embeddedBlobCapabilities(memory: boolean): BlobCapabilities {
  return Object.freeze({
    backend: "embedded",
    ...AZURE_BLOB_RULES,
    nameOrder: "utf8",
    persistent: !memory,
    divergences: [],
  } satisfies BlobCapabilities);
}
