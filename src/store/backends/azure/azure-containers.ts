import { TableKitError } from "../../../model/index.js";
import type { InitialResourceState } from "../../access/state-backend.js";
import type {
  BackendTagQuery,
  BlobServiceBackend,
  ContainerBackend,
  StoredContainer,
  StoredTaggedBlob,
} from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import { tagsNamedBy } from "../../blobs/tag-expression.js";
import type { CallOptions } from "../../call-options.js";
import { AzureContainer } from "./azure-container.js";
import { sdkCall } from "./blob-errors.js";
import { leaseViewOf } from "./blob-properties-sdk.js";
import { type BlobSdk, loadBlobSdk, type SdkBlobServiceClient, type SdkContainerClient } from "./blob-sdk.js";
import { AzureBlobState, listedContainer } from "./blob-state.js";
import { metadataOf, publicAccessOf } from "./state-codec.js";

/** How to reach the account's Blob service: a connection string naming it, or a URL and credential. */
export type AzureBlobTarget =
  | { readonly connectionString: string }
  | { readonly url: string; readonly credential?: object };

/**
 * Azure Blob Storage (or Azurite's blob service) as the blob port of an `azure:` store, through
 * `@azure/storage-blob`, loaded on the first blob call so table-only users need not install it.
 */
export class AzureContainers implements BlobServiceBackend {
  private clientPromise?: Promise<SdkBlobServiceClient>;
  private readonly containers = new Map<string, AzureContainer>();
  readonly state = new AzureBlobState(() => this.client());

  constructor(
    private readonly target: AzureBlobTarget,
    readonly capabilities: BlobCapabilities,
    private readonly clientOptions: object,
    private readonly loadSdk: () => Promise<BlobSdk> = loadBlobSdk,
  ) {}

  /** The SDK's service client, created once. */
  client(): Promise<SdkBlobServiceClient> {
    this.clientPromise ??= this.loadSdk().then(({ BlobServiceClient }) => {
      try {
        return "connectionString" in this.target
          ? BlobServiceClient.fromConnectionString(this.target.connectionString, this.clientOptions)
          : new BlobServiceClient(this.target.url, this.target.credential, this.clientOptions);
      } catch (cause) {
        throw new TableKitError(
          "InvalidStoreUrl",
          `Cannot reach a Blob service with these settings: ${(cause as Error).message}`,
          {
            cause,
          },
        );
      }
    });
    return this.clientPromise;
  }

  /** Find Blobs by Tags on the account; a container scope the expression does not name is added to it. */
  async findBlobsByTags(
    request: BackendTagQuery,
    call: CallOptions,
  ): Promise<{ items: StoredTaggedBlob[]; continuation?: string }> {
    const client = await this.client();
    const { query } = request;
    // A container's search (the core scoped it) goes to the container's own operation.
    const scoped = query.container !== undefined && !/@container/i.test(query.text);
    const source = scoped ? client.getContainerClient(query.container!) : client;
    const page = await sdkCall(call, async (o) => {
      const pages = source.findBlobsByTags(query.text, o).byPage({
        maxPageSize: request.maxPageSize,
        ...(request.continuation ? { continuationToken: request.continuation } : {}),
      });
      const next = await pages.next();
      return next.done ? undefined : next.value;
    });
    const items = (page?.blobs ?? []).map((b) => ({
      containerName: b.containerName,
      name: b.name,
      tags: tagsNamedBy(query, b.tags ?? {}),
    }));
    return { items, ...(page?.continuationToken ? { continuation: page.continuationToken } : {}) };
  }

  async createContainer(name: string, call: CallOptions, initial?: InitialResourceState): Promise<void> {
    const client = await this.client();
    const options = initial
      ? { metadata: initial.metadata, ...(initial.publicAccess ? { access: initial.publicAccess } : {}) }
      : {};
    await sdkCall(call, (o) => client.getContainerClient(name).create({ ...o, ...options }));
  }

  async deleteContainer(name: string, call: CallOptions, leaseId?: string): Promise<void> {
    const client = await this.client();
    const conditions = leaseId === undefined ? {} : { conditions: { leaseId } };
    await sdkCall(call, (o) => client.getContainerClient(name).delete({ ...o, ...conditions }));
  }

  async listContainers(
    query: { prefix: string; maxPageSize: number; continuation?: string },
    call: CallOptions,
  ): Promise<{ items: StoredContainer[]; continuation?: string }> {
    const client = await this.client();
    const page = await sdkCall(call, async (o) => {
      const pages = client
        .listContainers({ ...o, includeMetadata: true, ...(query.prefix ? { prefix: query.prefix } : {}) })
        .byPage({
          maxPageSize: query.maxPageSize,
          ...(query.continuation ? { continuationToken: query.continuation } : {}),
        });
      const next = await pages.next();
      return next.done ? undefined : next.value;
    });
    return {
      items: (page?.containerItems ?? []).map((c) => {
        const publicAccess = publicAccessOf(c.properties.publicAccess);
        return {
          name: c.name,
          etag: c.properties.etag ?? "",
          lastModified: c.properties.lastModified ?? new Date(0),
          metadata: metadataOf(c.metadata),
          ...(publicAccess ? { publicAccess } : {}),
          lease: leaseViewOf(c.properties),
        };
      }),
      ...(page?.continuationToken ? { continuation: page.continuationToken } : {}),
    };
  }

  /** One backend (and one SDK ContainerClient) per container name, made on first use. */
  container(name: string): ContainerBackend {
    let container = this.containers.get(name);
    if (!container) {
      let client: SdkContainerClient | undefined;
      container = new AzureContainer(
        async () => {
          client ??= (await this.client()).getContainerClient(name);
          return client;
        },
        this.capabilities,
        async (call) => listedContainer(await this.client(), name, call),
      );
      this.containers.set(name, container);
    }
    return container;
  }
}
