import { AZURE_QUEUE_LIMITS } from "../../../model/index.js";
import type { QueueCapabilities } from "../../queues/queue-capabilities.js";

/** Where Azurite's queue service departs from the Azure documentation (docs/queues.md lists the same). */
export const AZURITE_QUEUE_DIVERGENCES: QueueCapabilities["divergences"] = [
  {
    id: "queue-list-paging",
    description:
      "Azurite's List Queues continuation marker is an internal creation id while its pages are sorted by name " +
      "(LokiQueueMetadataStore.listQueues): when queues were not created in name order, following the marker " +
      "repeats or skips names, forever in the worst case. Handled: against Azurite the backend reads every " +
      "name in one request and pages by name itself.",
  },
  {
    id: "carriage-return",
    description:
      "A message text holding a carriage return comes back changed: the SDK sends CR as the character " +
      "reference &#xD; (XML would otherwise normalize it to LF) and Azurite stores the reference's text " +
      "literally, so 'a\\rb' is received as 'a&#xD;b'. The service decodes it. Not worked around (decoding " +
      "on receive would corrupt texts that really hold '&#xD;'): avoid raw CRs against Azurite, or base64-encode.",
  },
  {
    id: "multibyte-chunk-boundary",
    description:
      "Azurite decodes a request body chunk by chunk (readRequestIntoText joins the Buffers as strings), so a " +
      "multi-byte UTF-8 character that straddles a chunk boundary (the first at 64 KiB) becomes U+FFFD: a " +
      "message near 64 KiB with non-ASCII text is stored corrupted, or refused with RequestBodyTooLarge when the " +
      "replacement characters push it past the limit. Depends on how the body arrives; not fixable on the client.",
  },
  {
    id: "queue-recreate-immediate",
    description:
      "Azurite lets a deleted queue's name be created again at once; the service answers QueueBeingDeleted (409) " +
      "while it garbage-collects the old queue (about 30 s). Not worked around: code that recreates queues must " +
      "retry QueueBeingDeleted against the service.",
  },
];

/**
 * The SDK's own limit, whatever the server: @azure/storage-queue parses responses with an XML
 * parser that decodes no character reference (a `&#xD;` comes back as those five characters)
 * and normalizes a raw CR to LF, so no XML a server can write brings a CR back.
 */
/** @azure/storage-queue sends metadata names lower-cased (`metadataToRawHeaders`): the service keeps what it is sent. */
export const SDK_METADATA_CASE: QueueCapabilities["divergences"][number] = {
  id: "metadata-names-lowercased",
  description:
    "Queue metadata names come back lower-cased: @azure/storage-queue lower-cases them as it sends them (the service keeps the case it receives). Names compare case-insensitively either way.",
};

export const SDK_CARRIAGE_RETURN: QueueCapabilities["divergences"][number] = {
  id: "carriage-return",
  description:
    "A message text holding a carriage return does not come back through @azure/storage-queue: its XML parser " +
    "decodes no character reference (the service's '&#xD;' arrives as text) and turns a raw CR into LF. " +
    "Base64-encode texts that hold CRs (checked against tablekit serve, which writes CR as '&#xD;').",
};

/** Capabilities of Azure Queue Storage (or Azurite's queue service). */
export function azureQueueCapabilities(emulator: boolean): QueueCapabilities {
  return Object.freeze({
    backend: "azure",
    limits: AZURE_QUEUE_LIMITS,
    persistent: true,
    multiProcess: true,
    clock: "service",
    sendsOnce: false, // the SDK retries a Put Message whose answer was lost
    // Times come back as RFC 1123 dates: whole seconds.
    timeResolutionMs: 1000,
    // Azure itself answers QueueBeingDeleted for about 30 s; the store option has no place to keep times.
    deletedNameHold: false,
    divergences: emulator
      ? [...AZURITE_QUEUE_DIVERGENCES, SDK_METADATA_CASE]
      : [SDK_CARRIAGE_RETURN, SDK_METADATA_CASE],
  });
}
