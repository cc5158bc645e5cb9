import { s3BlobCapabilities } from "./blob-capabilities.js";
import { installResponseDate, loadS3Sdk, S3Api } from "./blob-sdk.js";
import type { S3BlobOptions } from "./connection.js";
import { resolveS3 } from "./connection.js";
import { S3Containers } from "./s3-containers.js";
import { S3Store } from "./s3-store.js";

export { S3RVER_DIVERGENCES } from "./blob-capabilities.js";

/**
 * Amazon S3 as the blob port of a store (`openStore(url, { s3 })`, or `s3=` on a `dynamodb:` URL),
 * through the optional peer dependency `@aws-sdk/client-s3`, loaded only here.
 */
export async function openS3Store(
  options: S3BlobOptions,
  defaults: { region?: string } = {},
): Promise<S3Store> {
  const where = resolveS3(options, defaults);
  const sdk = await loadS3Sdk();
  const client = where.client ?? new sdk.S3Client(where.config);
  // Not on a client the caller handed in: that one stays as it was given.
  if (!where.client) installResponseDate(client);
  const api = new S3Api(sdk, client);
  const capabilities = s3BlobCapabilities({
    bucketPrefix: where.bucketPrefix,
    conditionalWrites: where.conditionalWrites,
    emulator: where.emulator,
  });
  return new S3Store(
    new S3Containers(api, capabilities, where.bucketPrefix, where.emulator),
    api,
    !where.client,
  );
}
