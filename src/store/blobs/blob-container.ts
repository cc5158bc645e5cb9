import { TableKitError } from "../../model/index.js";
import { checkResourceMetadata, copyMetadata } from "../access/resource-metadata.js";
import type { PublicAccessLevel, ResourceMetadata, StateBackend } from "../access/state-backend.js";
import { requireState } from "../access/state-port.js";
import type { BlobOperation } from "../access/storage-operations.js";
import { datedIdentifiers, datedPolicies, type SignedIdentifier } from "../access/stored-access-policies.js";
import type { CallOptions, OperationOptions } from "../call-options.js";
import { AppendBlobClient } from "./append-blob-client.js";
import type { BlobType, ContainerBackend, Metadata, StoredBlobItem } from "./blob-backend.js";
import type { BlobBytes } from "./blob-body.js";
import { BlobClient, type BlobDeleteOptions, type BlobWriteResponse } from "./blob-client.js";
import { blobScope, type SegmentedAsyncIterableIterator, segmentedIterator } from "./blob-paging.js";
import { validateContainerName } from "./blob-rules.js";
import { type BlobPort, beginBlobCall, checkBlobAccess, succeededUnless } from "./blob-service.js";
import { requireSnapshots } from "./blob-snapshot.js";
import { BlockBlobClient, type BlockBlobUploadOptions } from "./block-blob-client.js";

/** A blob as listings yield it (`@azure/storage-blob`'s BlobItem, in part). */
export interface BlobItem {
  name: string;
  properties: {
    etag: string;
    lastModified: Date;
    contentLength: number;
    contentType?: string;
    blobType: BlobType;
  };
  /** Present when the listing asked for `includeMetadata`. */
  metadata?: Metadata;
  /** Set on a snapshot (listed with `includeSnapshots`, just before its blob): its time. */
  snapshot?: string;
}

/** A virtual directory of a hierarchical listing: every name that continues `name`. */
export interface BlobPrefix {
  name: string;
}

export interface ListBlobsOptions extends OperationOptions {
  /** Only blobs whose names start with this. */
  prefix?: string;
  includeMetadata?: boolean;
  /** Each blob's snapshots too, oldest first, just before the blob (NotSupported without capabilities.snapshots). */
  includeSnapshots?: boolean;
}

export interface ListBlobsFlatSegment {
  prefix: string;
  segment: { blobItems: BlobItem[] };
  continuationToken?: string;
}

export interface ListBlobsHierarchySegment {
  prefix: string;
  delimiter: string;
  segment: { blobItems: BlobItem[]; blobPrefixes: BlobPrefix[] };
  continuationToken?: string;
}

export interface ContainerCreateOptions extends OperationOptions {
  /** Name/value pairs kept with the container (names kept in case, compared ignoring it). */
  metadata?: ResourceMetadata;
  /** Anonymous reads: of blobs (`blob`), and listing too (`container`); absent: private. */
  access?: PublicAccessLevel;
}

/** `getProperties`'s result (`@azure/storage-blob`'s ContainerGetPropertiesResponse, in part). */
export interface ContainerProperties {
  etag: string;
  lastModified: Date;
  metadata: ResourceMetadata;
  blobPublicAccess?: PublicAccessLevel;
}

export interface ContainerGetAccessPolicyResponse {
  blobPublicAccess?: PublicAccessLevel;
  signedIdentifiers: SignedIdentifier[];
}

function checkAccess(access: unknown): PublicAccessLevel | undefined {
  if (access === undefined || access === "blob" || access === "container") return access;
  throw new TableKitError(
    "InvalidInput",
    `access must be "blob", "container" or absent; got ${JSON.stringify(access)}`,
  );
}

export type HierarchyItem = ({ kind: "prefix" } & BlobPrefix) | ({ kind: "blob" } & BlobItem);

/**
 * One container, like `@azure/storage-blob`'s ContainerClient: create and delete it, reach its
 * blobs, upload and delete by name, list flat or by hierarchy. A handle does no I/O until used.
 */
export class BlobContainer {
  private readonly backend: ContainerBackend;

  constructor(
    private readonly port: BlobPort,
    readonly containerName: string,
  ) {
    this.backend = port.service.container(containerName);
  }

  /** The backend's call options, once the store is open, the name valid and the token allows `operation`. */
  private async begin(options: OperationOptions | undefined, operation: BlobOperation): Promise<CallOptions> {
    const call = beginBlobCall(this.port, options);
    validateContainerName(this.containerName, this.port.capabilities);
    await checkBlobAccess(this.port, operation, this.containerName, undefined, call);
    return call;
  }

  /** ContainerAlreadyExists when it exists. A new container starts with no stored access policies. */
  async create(options: ContainerCreateOptions = {}): Promise<void> {
    const call = await this.begin(options, "createContainer");
    const metadata = checkResourceMetadata(options.metadata);
    const publicAccess = checkAccess(options.access);
    const initial = { metadata, ...(publicAccess ? { publicAccess } : {}) };
    const stateful = Object.keys(metadata).length > 0 || publicAccess !== undefined;
    if (stateful) this.state("container metadata and public access");
    await this.port.service.createContainer(this.containerName, call, stateful ? initial : undefined);
  }

  private state(what: string): StateBackend {
    return requireState(this.port.service.state, this.port.capabilities.backend, what);
  }

  /** Replaces the container's metadata (`{}` or none removes it); ContainerNotFound when absent. */
  async setMetadata(metadata?: ResourceMetadata, options: OperationOptions = {}): Promise<void> {
    const call = await this.begin(options, "setContainerMetadata");
    const checked = checkResourceMetadata(metadata);
    await this.state("container metadata").setState(this.containerName, { metadata: checked }, call);
  }

  /** The public access level and stored access policies; ContainerNotFound when absent. */
  async getAccessPolicy(options: OperationOptions = {}): Promise<ContainerGetAccessPolicyResponse> {
    const call = await this.begin(options, "getContainerAcl");
    const found = await this.state("stored access policies").getState(this.containerName, "access", call);
    return {
      ...(found.publicAccess ? { blobPublicAccess: found.publicAccess } : {}),
      signedIdentifiers: datedIdentifiers(found.policies),
    };
  }

  /**
   * Replaces the public access level (absent: private) and the stored access policies (at most
   * five; permissions from `racwdxltmeop`), as `ContainerClient.setAccessPolicy`.
   */
  async setAccessPolicy(
    access?: PublicAccessLevel,
    identifiers?: SignedIdentifier[],
    options: OperationOptions = {},
  ): Promise<void> {
    const call = await this.begin(options, "setContainerAcl");
    const publicAccess = checkAccess(access);
    const policies = datedPolicies(identifiers, "container");
    await this.state("stored access policies").setState(
      this.containerName,
      { access: { ...(publicAccess ? { publicAccess } : {}), policies } },
      call,
    );
  }

  async createIfNotExists(options: ContainerCreateOptions = {}): Promise<{ succeeded: boolean }> {
    return succeededUnless("ContainerAlreadyExists", () => this.create(options));
  }

  /** Deletes the container and every blob in it; ContainerNotFound when absent. */
  async delete(options: OperationOptions = {}): Promise<void> {
    await this.port.service.deleteContainer(this.containerName, await this.begin(options, "deleteContainer"));
  }

  async deleteIfExists(options: OperationOptions = {}): Promise<{ succeeded: boolean }> {
    return succeededUnless("ContainerNotFound", () => this.delete(options));
  }

  async exists(options: OperationOptions = {}): Promise<boolean> {
    return (
      (await this.backend.getContainerProperties(await this.begin(options, "getContainerProperties"))) !==
      undefined
    );
  }

  /** ContainerNotFound when absent. Metadata and public access as kept (`{}` and private on a backend without state). */
  async getProperties(options: OperationOptions = {}): Promise<ContainerProperties> {
    const found = await this.backend.getContainerProperties(
      await this.begin(options, "getContainerProperties"),
    );
    if (!found) {
      throw new TableKitError("ContainerNotFound", "The specified container does not exist.", {
        details: { containerName: this.containerName },
      });
    }
    return {
      etag: found.etag,
      lastModified: found.lastModified,
      metadata: copyMetadata(found.metadata ?? {}),
      ...(found.publicAccess ? { blobPublicAccess: found.publicAccess } : {}),
    };
  }

  getBlobClient(name: string): BlobClient {
    return new BlobClient(this.port, this.containerName, name);
  }

  getBlockBlobClient(name: string): BlockBlobClient {
    return new BlockBlobClient(this.port, this.containerName, name);
  }

  getAppendBlobClient(name: string): AppendBlobClient {
    return new AppendBlobClient(this.port, this.containerName, name);
  }

  async uploadBlockBlob(
    name: string,
    body: BlobBytes,
    contentLength: number,
    options: BlockBlobUploadOptions = {},
  ): Promise<{ blockBlobClient: BlockBlobClient; response: BlobWriteResponse }> {
    const blockBlobClient = this.getBlockBlobClient(name);
    return { blockBlobClient, response: await blockBlobClient.upload(body, contentLength, options) };
  }

  async deleteBlob(name: string, options: BlobDeleteOptions = {}): Promise<void> {
    await this.getBlobClient(name).delete(options);
  }

  /** Every blob whose name starts with `prefix`, in name order; `byPage()` yields the SDK's segments. */
  listBlobsFlat(
    options: ListBlobsOptions = {},
  ): SegmentedAsyncIterableIterator<BlobItem, ListBlobsFlatSegment> {
    const prefix = options.prefix ?? "";
    return segmentedIterator(
      async (maxPageSize, continuation) => {
        const page = await this.listPage(options, maxPageSize, continuation);
        const withMetadata = options.includeMetadata === true;
        return {
          items: page.items.map((i) => toBlobItem(i as StoredBlobItem, withMetadata)),
          continuation: page.continuation,
        };
      },
      this.pageSizes(prefix),
      (blobItems, continuationToken) => withToken({ prefix, segment: { blobItems } }, continuationToken),
    );
  }

  /**
   * Blobs and virtual directories one level below `prefix`: a name holding `delimiter` after the
   * prefix rolls up into the prefix that ends there. Items come in name order, directories as
   * `{ kind: "prefix", name }`; a page counts both.
   */
  listBlobsByHierarchy(
    delimiter: string,
    options: ListBlobsOptions = {},
  ): SegmentedAsyncIterableIterator<HierarchyItem, ListBlobsHierarchySegment> {
    const prefix = options.prefix ?? "";
    return segmentedIterator(
      async (maxPageSize, continuation) => {
        if (typeof delimiter !== "string" || delimiter === "") {
          throw new TableKitError("InvalidInput", "The delimiter is a non-empty string, e.g. '/'");
        }
        const page = await this.listPage(options, maxPageSize, continuation, delimiter);
        return {
          items: page.items.map(
            (i): HierarchyItem =>
              i.kind === "prefix"
                ? { kind: "prefix", name: i.name }
                : { kind: "blob", ...toBlobItem(i, options.includeMetadata === true) },
          ),
          continuation: page.continuation,
        };
      },
      this.pageSizes(prefix, typeof delimiter === "string" ? delimiter : ""),
      (items, continuationToken) =>
        withToken(
          {
            prefix,
            delimiter,
            segment: {
              blobItems: items.flatMap(({ kind, ...item }) => (kind === "blob" ? [item as BlobItem] : [])),
              blobPrefixes: items.flatMap((i) => (i.kind === "prefix" ? [{ name: i.name }] : [])),
            },
          },
          continuationToken,
        ),
    );
  }

  private async listPage(
    options: ListBlobsOptions,
    maxPageSize: number,
    continuation: string | undefined,
    delimiter?: string,
  ) {
    const call = await this.begin(options, "listBlobs");
    const prefix = options.prefix ?? "";
    if (typeof prefix !== "string") throw new TableKitError("InvalidInput", "prefix must be a string");
    if (options.includeSnapshots === true) requireSnapshots(this.port.capabilities);
    return this.backend.list(
      {
        prefix,
        ...(delimiter === undefined ? {} : { delimiter }),
        maxPageSize,
        ...(continuation === undefined ? {} : { continuation }),
        includeMetadata: options.includeMetadata === true,
        ...(options.includeSnapshots === true ? { includeSnapshots: true } : {}),
      },
      call,
    );
  }

  /** Page sizes, and what the listing's tokens are bound to. */
  private pageSizes(prefix: string, delimiter = "") {
    const max = this.port.capabilities.maxListPageSize;
    return {
      defaultPageSize: max,
      maxPageSize: max,
      tokenScope: blobScope("blobs", this.containerName, prefix, delimiter),
    };
  }
}

function toBlobItem(item: StoredBlobItem, includeMetadata: boolean): BlobItem {
  const p = item.properties;
  return {
    name: item.name,
    ...(item.snapshot === undefined ? {} : { snapshot: item.snapshot }),
    properties: {
      etag: p.etag,
      lastModified: p.lastModified,
      contentLength: p.contentLength,
      ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
      blobType: p.blobType,
    },
    ...(includeMetadata ? { metadata: { ...p.metadata } } : {}),
  };
}

function withToken<T extends object>(
  segment: T,
  continuationToken: string | undefined,
): T & { continuationToken?: string } {
  return continuationToken === undefined ? segment : { ...segment, continuationToken };
}
