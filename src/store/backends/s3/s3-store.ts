import type { BackendStore } from "../../backend.js";
import type { S3Api } from "./blob-sdk.js";
import type { S3Containers } from "./s3-containers.js";

/**
 * What S3 settings open (`s3=` on a `dynamodb:` URL, or the `s3` option of any store): the blob
 * port alone, which the core puts beside the URL's own tables.
 */
export class S3Store implements Pick<BackendStore, "blobs" | "close"> {
  constructor(
    readonly blobs: S3Containers,
    private readonly api: S3Api,
    private readonly ownsClient: boolean,
  ) {}

  async close(): Promise<void> {
    // A client the caller handed in stays theirs to destroy.
    if (this.ownsClient) this.api.client.destroy?.();
  }
}
