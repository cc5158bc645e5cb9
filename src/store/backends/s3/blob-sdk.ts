import { TableKitError } from "../../../model/index.js";

/**
 * The slice of `@aws-sdk/client-s3` this backend uses, declared structurally so the package stays
 * an optional peer dependency: it is imported only when a store is opened with S3 blobs.
 */

export type S3Command =
  | "PutObject"
  | "GetObject"
  | "HeadObject"
  | "DeleteObject"
  | "DeleteObjects"
  | "ListObjectsV2"
  | "CreateBucket"
  | "DeleteBucket"
  | "HeadBucket"
  | "ListBuckets"
  | "CreateMultipartUpload"
  | "UploadPart"
  | "CompleteMultipartUpload"
  | "AbortMultipartUpload";

/** What a GetObject/HeadObject answers (the fields used here). */
export interface S3ObjectOutput {
  ETag?: string;
  LastModified?: Date;
  ContentLength?: number;
  ContentType?: string;
  CacheControl?: string;
  ContentEncoding?: string;
  ContentLanguage?: string;
  ContentDisposition?: string;
  ContentRange?: string;
  Metadata?: Record<string, string>;
  Body?: NodeJS.ReadableStream;
  /** The response's Date header, added by this backend's middleware (S3 reports no Last-Modified on PUT). */
  $responseDate?: string;
}

export interface S3ListOutput {
  Contents?: { Key?: string; ETag?: string; LastModified?: Date; Size?: number }[];
  CommonPrefixes?: { Prefix?: string }[];
  IsTruncated?: boolean;
}

export interface S3Client {
  send(command: unknown, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  destroy?(): void;
  middlewareStack: {
    add(middleware: unknown, options: { step: string; name: string }): void;
  };
}

export type S3Sdk = { S3Client: new (config: object) => S3Client } & {
  [K in S3Command as `${K}Command`]: new (
    input: object,
  ) => unknown;
};

/** Sends one command; the output typed as the caller expects. */
export class S3Api {
  constructor(
    readonly sdk: S3Sdk,
    readonly client: S3Client,
  ) {}

  send<T = Record<string, unknown>>(name: S3Command, input: object, abortSignal?: AbortSignal): Promise<T> {
    const Command = this.sdk[`${name}Command`];
    return this.client.send(new Command(input), abortSignal ? { abortSignal } : undefined) as Promise<T>;
  }
}

export async function loadS3Sdk(): Promise<S3Sdk> {
  try {
    return (await import("@aws-sdk/client-s3")) as unknown as S3Sdk;
  } catch (cause) {
    throw new TableKitError(
      "NotSupported",
      "S3 blobs need the optional peer dependency @aws-sdk/client-s3: npm install @aws-sdk/client-s3",
      { cause },
    );
  }
}

/** Copies the response's Date header onto every output (`$responseDate`). */
export function installResponseDate(client: S3Client): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<{ output: Record<string, unknown>; response: unknown }>) =>
      async (args: unknown) => {
        const result = await next(args);
        const date = (result.response as { headers?: Record<string, string> } | undefined)?.headers?.date;
        if (date && result.output) result.output.$responseDate = date;
        return result;
      },
    { step: "deserialize", name: "tablekitResponseDate" },
  );
}
