import { TableKitError } from "../../model/index.js";
import type { S3BlobOptions } from "../blob-options.js";
import type { S3Client } from "./sdk.js";

export interface S3Location {
  readonly client?: S3Client;
  readonly config: { region?: string; endpoint?: string; forcePathStyle?: boolean; credentials?: unknown };
  readonly bucketPrefix: string;
  readonly emulator: boolean;
  readonly conditionalWrites: boolean;
}

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
