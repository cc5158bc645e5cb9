import { TableKitError } from "../../../model/index.js";
import type {
  ResourceStateChange,
  StateBackend,
  StatePart,
  StoredResourceState,
  StoredServiceProperties,
} from "../../access/state-backend.js";
import type { StoredContainer } from "../../blobs/blob-backend.js";
import type { CallOptions } from "../../call-options.js";
import { sdkCall } from "./blob-errors.js";
import { leaseViewOf } from "./blob-properties-sdk.js";
import type { SdkBlobServiceClient } from "./blob-sdk.js";
import {
  datedSdkIdentifiers,
  metadataOf,
  publicAccessOf,
  sdkServiceProperties,
  storedPolicies,
  storedServiceProperties,
} from "./state-codec.js";

/** Containers asked for when one container is read from the listing (the exact name is found among them). */
const LISTING_PAGE = 5000;

/**
 * A container as the listing (`include=metadata`) reports it: its ETag, Last-Modified, public access
 * and metadata names in their case (Get Container Properties' headers reach Node lower-cased).
 * Undefined when it does not exist.
 */
export async function listedContainer(
  service: SdkBlobServiceClient,
  name: string,
  call: CallOptions,
): Promise<StoredContainer | undefined> {
  const page = await sdkCall(call, async (o) => {
    const pages = service
      .listContainers({ ...o, prefix: name, includeMetadata: true })
      .byPage({ maxPageSize: LISTING_PAGE });
    const next = await pages.next();
    return next.done ? undefined : next.value;
  });
  const item = page?.containerItems.find((c) => c.name === name);
  if (!item) return undefined;
  const publicAccess = publicAccessOf(item.properties.publicAccess);
  return {
    name,
    etag: item.properties.etag ?? "",
    lastModified: item.properties.lastModified ?? new Date(0),
    metadata: metadataOf(item.metadata),
    ...(publicAccess ? { publicAccess } : {}),
    lease: leaseViewOf(item.properties),
  };
}

/** Container metadata, public access, stored access policies and the Blob service's properties through `@azure/storage-blob`. */
export class AzureBlobState implements StateBackend {
  constructor(private readonly service: () => Promise<SdkBlobServiceClient>) {}

  async getState(name: string, part: StatePart, call: CallOptions): Promise<StoredResourceState> {
    const service = await this.service();
    if (part === "metadata") {
      const found = await listedContainer(service, name, call);
      if (!found) {
        throw new TableKitError("ContainerNotFound", "The specified container does not exist.", {
          details: { containerName: name },
        });
      }
      return { metadata: found.metadata ?? {}, policies: [] };
    }
    const found = await sdkCall(call, (o) => service.getContainerClient(name).getAccessPolicy(o));
    const publicAccess = publicAccessOf(found.blobPublicAccess);
    return {
      metadata: {},
      ...(publicAccess ? { publicAccess } : {}),
      policies: storedPolicies(found.signedIdentifiers),
    };
  }

  async setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void> {
    const client = (await this.service()).getContainerClient(name);
    if ("metadata" in change) {
      await sdkCall(call, (o) => client.setMetadata(change.metadata, o));
      return;
    }
    const { publicAccess, policies } = change.access;
    await sdkCall(call, (o) => client.setAccessPolicy(publicAccess, datedSdkIdentifiers(policies), o));
  }

  async getServiceProperties(call: CallOptions): Promise<StoredServiceProperties> {
    const service = await this.service();
    const found = await sdkCall(call, (o) => service.getProperties(o));
    return storedServiceProperties(found as Record<string, unknown>, "blobAnalyticsLogging");
  }

  async setServiceProperties(properties: StoredServiceProperties, call: CallOptions): Promise<void> {
    const service = await this.service();
    await sdkCall(call, (o) =>
      service.setProperties(sdkServiceProperties(properties, "blobAnalyticsLogging"), o),
    );
  }
}
