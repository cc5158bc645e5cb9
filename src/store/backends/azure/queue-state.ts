import { TableKitError } from "../../../model/index.js";
import type {
  ResourceStateChange,
  StateBackend,
  StatePart,
  StoredResourceState,
  StoredServiceProperties,
} from "../../access/state-backend.js";
import type { CallOptions } from "../../call-options.js";
import { queueSdkCall } from "./queue-errors.js";
import type { AzureQueueClient, AzureQueueServiceClient } from "./queue-sdk.js";
import {
  datedSdkIdentifiers,
  metadataOf,
  sdkServiceProperties,
  storedPolicies,
  storedServiceProperties,
} from "./state-codec.js";

/** Names asked for when a queue's metadata is read from the listing (the exact name is found among them). */
const LISTING_PAGE = 5000;

/**
 * Queue metadata, stored access policies and the Queue service's properties through
 * `@azure/storage-queue`'s own calls. Metadata is read from the listing (`include=metadata`), whose
 * XML keeps the names' case; Get Queue Metadata's headers reach Node lower-cased.
 */
export class AzureQueueState implements StateBackend {
  constructor(
    private readonly service: () => Promise<AzureQueueServiceClient>,
    private readonly client: (name: string) => Promise<AzureQueueClient>,
  ) {}

  async getState(name: string, part: StatePart, call: CallOptions): Promise<StoredResourceState> {
    if (part === "metadata") {
      const service = await this.service();
      const page = await queueSdkCall(call, async (o) => {
        const pages = service
          .listQueues({ ...o, prefix: name, includeMetadata: true })
          .byPage({ maxPageSize: LISTING_PAGE });
        const next = await pages.next();
        return next.done ? undefined : next.value;
      });
      const item = page?.queueItems?.find((q) => q.name === name);
      if (!item) {
        throw new TableKitError("QueueNotFound", "The specified queue does not exist.", {
          details: { queueName: name },
        });
      }
      return { metadata: metadataOf(item.metadata), policies: [] };
    }
    const client = await this.client(name);
    const found = await queueSdkCall(call, (o) => client.getAccessPolicy(o));
    return { metadata: {}, policies: storedPolicies(found.signedIdentifiers) };
  }

  async setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void> {
    const client = await this.client(name);
    if ("metadata" in change) {
      await queueSdkCall(call, (o) => client.setMetadata(change.metadata, o));
      return;
    }
    const identifiers = datedSdkIdentifiers(change.access.policies);
    await queueSdkCall(call, (o) => client.setAccessPolicy(identifiers, o));
  }

  async getServiceProperties(call: CallOptions): Promise<StoredServiceProperties> {
    const service = await this.service();
    const found = await queueSdkCall(call, (o) => service.getProperties(o));
    return storedServiceProperties(found as Record<string, unknown>, "queueAnalyticsLogging");
  }

  async setServiceProperties(properties: StoredServiceProperties, call: CallOptions): Promise<void> {
    const service = await this.service();
    await queueSdkCall(call, (o) =>
      service.setProperties(sdkServiceProperties(properties, "queueAnalyticsLogging"), o),
    );
  }
}
