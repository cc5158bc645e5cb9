import { TableKitError } from "../../model/index.js";
import type { AccessTier } from "./blob-backend.js";
import type { BlobClient, BlobDeleteOptions, BlobSetTierOptions } from "./blob-client.js";

/**
 * Like `@azure/storage-blob`'s BlobBatchClient, for the store's blob port: `deleteBlobs` and
 * `setBlobsAccessTier` over up to 256 blobs, each run as the single call it stands for (its own
 * checks, authorization and conditions), one result per blob in order. No request is batched on
 * the wire: a port has no batch operation, and the calls' outcomes are the same.
 */

/** The most blobs one batch may name (the Blob service's limit). */
export const MAX_BLOB_BATCH = 256;

/** One blob's outcome: 202 (deleted) or 200 (tier set), or the error's status and code. */
export interface BlobBatchSubResponse {
  readonly containerName: string;
  readonly blobName: string;
  readonly status: number;
  readonly errorCode?: string;
  readonly error?: TableKitError;
}

export interface BlobBatchResponse {
  readonly subResponses: readonly BlobBatchSubResponse[];
  readonly subResponsesSucceededCount: number;
  readonly subResponsesFailedCount: number;
}

/** A blob named by its client (`container.getBlobClient(name)`), or by name inside a container's batch. */
export type BatchBlob = BlobClient | string;

export class BlobBatchClient {
  /**
   * @param client a blob's client by container and name (the store's or the container's factory).
   * @param containerName set for a container's batch: every blob must be in it.
   */
  constructor(
    private readonly client: (containerName: string, blobName: string) => BlobClient,
    private readonly containerName?: string,
  ) {}

  /** Deletes each blob; a blob's failure (not found, a condition, a token's permission) is its own result. */
  deleteBlobs(blobs: readonly BatchBlob[], options: BlobDeleteOptions = {}): Promise<BlobBatchResponse> {
    return this.run(blobs, 202, (client) => client.delete(options));
  }

  /**
   * Sets each blob's access tier through the port's Set Blob Tier; where the port has none, each
   * blob's result is 501 NotSupported.
   */
  setBlobsAccessTier(
    blobs: readonly BatchBlob[],
    tier: string,
    options: BlobSetTierOptions = {},
  ): Promise<BlobBatchResponse> {
    return this.run(blobs, 200, async (client) => {
      await client.setAccessTier(tier as AccessTier, options);
    });
  }

  private resolve(blobs: readonly BatchBlob[]): BlobClient[] {
    if (!Array.isArray(blobs) || blobs.length === 0) {
      throw new TableKitError("InvalidInput", "A blob batch names at least one blob.");
    }
    if (blobs.length > MAX_BLOB_BATCH) {
      throw new TableKitError("InvalidInput", `A blob batch names at most ${MAX_BLOB_BATCH} blobs.`, {
        details: { limit: MAX_BLOB_BATCH, given: blobs.length },
      });
    }
    return blobs.map((blob) => {
      if (typeof blob === "string") {
        if (this.containerName === undefined) {
          throw new TableKitError("InvalidInput", "A service's blob batch names blobs by their clients.");
        }
        return this.client(this.containerName, blob);
      }
      if (this.containerName !== undefined && blob.containerName !== this.containerName) {
        throw new TableKitError(
          "InvalidInput",
          `A container's blob batch names only blobs of '${this.containerName}', not of '${blob.containerName}'.`,
        );
      }
      return blob;
    });
  }

  /** Checks every item before any call runs, then runs them one after another, in order. */
  private async run(
    blobs: readonly BatchBlob[],
    status: number,
    call: (client: BlobClient) => Promise<unknown>,
  ): Promise<BlobBatchResponse> {
    const clients = this.resolve(blobs);
    const subResponses: BlobBatchSubResponse[] = [];
    for (const client of clients) {
      const item = { containerName: client.containerName, blobName: client.name };
      try {
        await call(client);
        subResponses.push({ ...item, status });
      } catch (err) {
        if (!(err instanceof TableKitError)) throw err;
        subResponses.push({ ...item, status: err.status, errorCode: err.code, error: err });
      }
    }
    const failed = subResponses.filter((r) => r.errorCode !== undefined).length;
    return {
      subResponses,
      subResponsesSucceededCount: subResponses.length - failed,
      subResponsesFailedCount: failed,
    };
  }
}
