import { type ErrorCode, isTableKitError, TableKitError } from "../../model/index.js";
import type { AccessPolicy } from "../access/access-policy.js";
import { copyMetadata } from "../access/resource-metadata.js";
import type { PublicAccessLevel, ResourceMetadata } from "../access/state-backend.js";
import type { BlobOperation } from "../access/storage-operations.js";
import type { CallOptions } from "../call-options.js";
import { assertOpen, callOptions, type OperationOptions, type StoreLifecycle } from "../call-options.js";
import type { BlobServiceBackend } from "./blob-backend.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import type { LeaseDuration, LeaseState, LeaseStatus } from "./blob-leases.js";
import {
  blobScope,
  containerNameMarkers,
  type SegmentedAsyncIterableIterator,
  segmentedIterator,
} from "./blob-paging.js";
import { validateContainerName } from "./blob-rules.js";

/** What every blob handle shares: the store's blob backend, its open/closed state and the store's access token. */
export interface BlobPort {
  readonly service: BlobServiceBackend;
  readonly capabilities: BlobCapabilities;
  readonly lifecycle: StoreLifecycle;
  /** What the store's access token allows; absent means everything. */
  readonly access?: AccessPolicy;
  /** Seconds a deleted container's name is refused (the store option `deletedNameHold`). */
  readonly deletedNameHoldSeconds: number;
}

/** The port of a store (InvalidInput once it is closed), or NotSupported when its URL configures no blobs. */
export function blobPort(
  service: BlobServiceBackend | undefined,
  lifecycle: StoreLifecycle,
  url: string,
  access?: AccessPolicy,
  deletedNameHoldSeconds = 0,
): BlobPort {
  assertOpen(lifecycle);
  if (!service) {
    throw new TableKitError(
      "NotSupported",
      `The store ${url} has no blob backend (see docs/blobs.md for the URLs that configure one)`,
    );
  }
  const port = { service, capabilities: service.capabilities, lifecycle, deletedNameHoldSeconds };
  return access ? { ...port, access } : port;
}

/** Throws if the store is closed or the signal aborted; the options for the backend call. */
export function beginBlobCall(port: BlobPort, options: OperationOptions | undefined): CallOptions {
  return callOptions(port.lifecycle, options);
}

/**
 * Throws unless the store's token allows `operation` on the container (and blob) now. An anonymous
 * caller's check reads the container's public access level first (one backend read): a container
 * that does not exist opens nothing.
 */
export async function checkBlobAccess(
  port: BlobPort,
  operation: BlobOperation,
  container: string | undefined,
  blob: string | undefined,
  call: CallOptions,
): Promise<void> {
  const access = port.access;
  if (!access) return;
  if (access.anonymous && container !== undefined) {
    const found = await port.service.container(container).getContainerProperties(call);
    const publicAccess = found?.publicAccess;
    access.checkBlob(operation, {
      container,
      ...(blob === undefined ? {} : { blob }),
      ...(publicAccess ? { publicAccess } : {}),
    });
    return;
  }
  access.checkBlob(operation, {
    ...(container === undefined ? {} : { container }),
    ...(blob === undefined ? {} : { blob }),
  });
}

/** A container as `listContainers` yields it (`@azure/storage-blob`'s ContainerItem, in part). */
export interface ContainerItem {
  name: string;
  properties: {
    etag: string;
    lastModified: Date;
    publicAccess?: PublicAccessLevel;
    /** Where capabilities.leases. */
    leaseState?: LeaseState;
    leaseStatus?: LeaseStatus;
    leaseDuration?: LeaseDuration;
  };
  /** Present when the listing asked for `includeMetadata` (and the backend keeps metadata). */
  metadata?: ResourceMetadata;
}

export interface ListContainersOptions extends OperationOptions {
  /** Only containers whose names start with this. */
  prefix?: string;
  includeMetadata?: boolean;
}

export interface ListContainersSegment {
  containerItems: ContainerItem[];
  continuationToken?: string;
}

/** Containers in name order; `byPage()` yields `{ containerItems, continuationToken }`. */
export function listContainers(
  port: BlobPort,
  options: ListContainersOptions = {},
): SegmentedAsyncIterableIterator<ContainerItem, ListContainersSegment> {
  const max = port.capabilities.maxListPageSize;
  const names = containerNameMarkers<ContainerItem>(port.capabilities);
  return segmentedIterator(
    async (maxPageSize, continuation, after) => {
      const call = beginBlobCall(port, options);
      port.access?.checkBlob("listContainers");
      const prefix = options.prefix ?? "";
      if (typeof prefix !== "string") throw new TableKitError("InvalidInput", "prefix must be a string");
      const page = await port.service.listContainers(
        {
          prefix,
          maxPageSize,
          ...(continuation === undefined ? {} : { continuation }),
          ...(after === undefined ? {} : { after }),
        },
        call,
      );
      return {
        items: page.items.map((c) => ({
          name: c.name,
          properties: {
            etag: c.etag,
            lastModified: c.lastModified,
            ...(c.publicAccess ? { publicAccess: c.publicAccess } : {}),
            ...(c.lease
              ? {
                  leaseState: c.lease.state,
                  leaseStatus: c.lease.status,
                  ...(c.lease.duration ? { leaseDuration: c.lease.duration } : {}),
                }
              : {}),
          },
          ...(options.includeMetadata ? { metadata: copyMetadata(c.metadata ?? {}) } : {}),
        })),
        continuation: page.continuation,
      };
    },
    {
      defaultPageSize: max,
      maxPageSize: max,
      tokenScope: blobScope("containers", "", options.prefix),
      ...(names ? { names } : {}),
    },
    (containerItems, continuationToken) =>
      continuationToken === undefined ? { containerItems } : { containerItems, continuationToken },
  );
}

/** Checks a container name against a store's rules without touching the store. */
export function checkContainerName(port: BlobPort, name: unknown): string {
  return validateContainerName(name, port.capabilities);
}

/**
 * The SDK's `*IfExists` / `*IfNotExists` answer: `{ succeeded: true, …result }`, or
 * `{ succeeded: false }` when the call failed with `code` (the state the caller wanted is there).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: `work` may be a call that resolves to nothing (delete).
export async function succeededUnless<T extends object | void>(
  code: ErrorCode,
  work: () => Promise<T>,
): Promise<{ succeeded: boolean } & Partial<T>> {
  try {
    const result = await work();
    return { succeeded: true, ...(result ?? {}) } as { succeeded: boolean } & Partial<T>;
  } catch (err) {
    if (isTableKitError(err, code)) return { succeeded: false } as { succeeded: boolean } & Partial<T>;
    throw err;
  }
}
