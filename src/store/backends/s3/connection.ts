import { TableKitError } from "../../../model/index.js";
import type { S3Client } from "./blob-sdk.js";

export interface S3Location {
  readonly client?: S3Client;
  readonly config: { region?: string; endpoint?: string; forcePathStyle?: boolean; credentials?: unknown };
  readonly bucketPrefix: string;
  readonly emulator: boolean;
  readonly conditionalWrites: boolean;
}

const URL_PARAMS = ["s3", "s3BucketPrefix"] as const;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
const LOOPBACK_REGION = "us-east-1";

/** Resolves the options; loopback endpoints get fixed dummy credentials, as local servers need some. */
export function resolveS3(options: S3BlobOptions, defaults: { region?: string } = {}): S3Location {
  const bucketPrefix = options.bucketPrefix ?? "";
  if (!/^([a-z0-9][a-z0-9-]{0,59})?$/.test(bucketPrefix) || bucketPrefix.includes("--")) {
    throw new TableKitError(
      "InvalidStoreUrl",
      `The S3 bucket prefix ${JSON.stringify(bucketPrefix)} may hold only lowercase letters, digits and single hyphens (at most 60)`,
    );
  }
  let host: string | undefined;
  if (options.endpoint !== undefined) {
    try {
      host = new URL(options.endpoint).hostname;
    } catch (cause) {
      throw new TableKitError("InvalidStoreUrl", `The S3 endpoint ${options.endpoint} is not a URL`, {
        cause,
      });
    }
  }
  const loopback = host !== undefined && LOOPBACK.test(host);
  const emulator = options.emulator ?? loopback;
  const region = options.region ?? defaults.region ?? (loopback ? LOOPBACK_REGION : undefined);
  const credentials =
    options.credentials ??
    (loopback && !options.client ? { accessKeyId: "tablekit", secretAccessKey: "tablekit" } : undefined);
  return {
    client: options.client as S3Client | undefined,
    config: {
      ...(region ? { region } : {}),
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(credentials ? { credentials } : {}),
    },
    bucketPrefix,
    emulator,
    conditionalWrites: options.conditionalWrites ?? !emulator,
  };
}

/**
 * Blobs on Amazon S3 for any store: `openStore(url, { s3: { … } })`, or on a `dynamodb:` URL the
 * parameters `s3=aws` (the region's S3) or `s3=<endpoint URL>`, and `s3BucketPrefix=<prefix>`.
 * Each container is one bucket named `<bucketPrefix><container>`. docs/blobs.md has the details.
 *
 * @example openStore("dynamodb:?region=eu-west-1&s3=aws&s3BucketPrefix=myapp-")
 * @example openStore("dynamodb:?region=eu-west-1", { s3: { bucketPrefix: "myapp-" } })
 */
export interface S3BlobOptions {
  /** An `S3Client` of `@aws-sdk/client-s3` to use as is (tablekit does not destroy it on close). */
  readonly client?: { send(command: unknown, options?: object): Promise<unknown> };
  /** Endpoint URL of an S3-compatible server (path-style addressing); default: the region's S3. */
  readonly endpoint?: string;
  /** Default: the table store's `region` URL parameter, else the SDK's (AWS_REGION, shared config). */
  readonly region?: string;
  /** Credentials or a provider, as the SDK takes them; default: the SDK's default chain. */
  readonly credentials?: unknown;
  /** Prepended to every container name to make its bucket name (bucket names are global on AWS). */
  readonly bucketPrefix?: string;
  /**
   * The server departs from S3 the way s3rver does (docs/blobs.md): no conditional writes, and
   * workarounds for the rest. Default: true on a loopback endpoint.
   */
  readonly emulator?: boolean;
  /** The server applies If-Match / If-None-Match to PUT and DELETE. Default: `!emulator`. */
  readonly conditionalWrites?: boolean;
}

/** The options every scheme takes beside its own: where its blobs live, when not where its tables do. */
export interface BlobStoreOptions {
  /** Blobs on Amazon S3 (or an S3-compatible server) for this store, replacing its own blob port. */
  readonly s3?: S3BlobOptions;
}

/**
 * Takes the S3 parameters off a `dynamodb:` location (the table backend never sees them) and
 * merges them under the `s3` option, which wins. Other schemes' locations pass through unchanged.
 */
export function s3FromUrl(
  scheme: string,
  location: string,
  option: S3BlobOptions | undefined,
): { location: string; s3?: S3BlobOptions; region?: string } {
  const q = location.indexOf("?");
  if (scheme !== "dynamodb" || q < 0) return { location, ...(option ? { s3: option } : {}) };
  const params = new URLSearchParams(location.slice(q + 1));
  const region = params.get("region") ?? undefined;
  const where = params.get("s3");
  const bucketPrefix = params.get("s3BucketPrefix");
  for (const p of URL_PARAMS) params.delete(p);
  const rest = params.toString();
  const stripped = location.slice(0, q) + (rest ? `?${rest}` : "");
  if (where === null && bucketPrefix === null) {
    return { location: stripped, ...(option ? { s3: option } : {}), ...(region ? { region } : {}) };
  }
  if (where !== null && where !== "aws" && !/^https?:\/\//.test(where)) {
    throw new TableKitError("InvalidStoreUrl", `s3=${where}: use s3=aws or s3=http(s)://host:port`);
  }
  const fromUrl: S3BlobOptions = {
    ...(where && where !== "aws" ? { endpoint: where } : {}),
    ...(bucketPrefix !== null ? { bucketPrefix } : {}),
  };
  return { location: stripped, s3: { ...fromUrl, ...option }, ...(region ? { region } : {}) };
}
