import type {
  PublicAccessLevel,
  StoredCorsRule,
  StoredLogging,
  StoredMetrics,
  StoredRetentionPolicy,
  StoredServiceProperties,
} from "../../access/state-backend.js";
import type { StoredAccessPolicy } from "../../access/verify-sas.js";

/**
 * The state API's values in the storage SDKs' shapes and back (the three ports share them): stored
 * policies as `SignedIdentifier`s, service properties as `*ServiceProperties`. The Table SDK names
 * the logging flag `delete` and the section `logging`; the Blob and Queue SDKs `deleteProperty` and
 * `blobAnalyticsLogging` / `queueAnalyticsLogging`.
 */

export interface SdkSignedIdentifier {
  id: string;
  accessPolicy?: {
    startsOn?: Date | string;
    expiresOn?: Date | string;
    permissions?: string;
    start?: Date | string;
    expiry?: Date | string;
    permission?: string;
  };
}

function iso(value: Date | string | undefined): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "string" ? value : value.toISOString();
}

export function storedPolicies(
  identifiers: readonly SdkSignedIdentifier[] | undefined,
): StoredAccessPolicy[] {
  return (identifiers ?? []).map((i) => {
    const p = i.accessPolicy ?? {};
    const start = iso(p.startsOn ?? p.start);
    const expiry = iso(p.expiresOn ?? p.expiry);
    const permission = p.permissions ?? p.permission;
    return {
      id: i.id,
      ...(start ? { start } : {}),
      ...(expiry ? { expiry } : {}),
      ...(permission ? { permission } : {}),
    };
  });
}

/** For the Blob and Queue SDKs: Dates. */
export function datedSdkIdentifiers(policies: readonly StoredAccessPolicy[]): SdkSignedIdentifier[] {
  return policies.map((p) => ({
    id: p.id,
    accessPolicy: {
      ...(p.start ? { startsOn: new Date(p.start) } : {}),
      ...(p.expiry ? { expiresOn: new Date(p.expiry) } : {}),
      // The SDKs serialize `permissions` unconditionally; the service takes an empty one as none.
      permissions: p.permission ?? "",
    },
  }));
}

/** For the Table SDK: Dates too, named `start`, `expiry`, `permission`. */
export function tableSdkIdentifiers(policies: readonly StoredAccessPolicy[]): SdkSignedIdentifier[] {
  return policies.map((p) => ({
    id: p.id,
    accessPolicy: {
      ...(p.start ? { start: new Date(p.start) } : {}),
      ...(p.expiry ? { expiry: new Date(p.expiry) } : {}),
      ...(p.permission ? { permission: p.permission } : {}),
    },
  }));
}

export function publicAccessOf(value: string | undefined): PublicAccessLevel | undefined {
  return value === "blob" || value === "container" ? value : undefined;
}

export type LoggingKey = "logging" | "blobAnalyticsLogging" | "queueAnalyticsLogging";

type SdkProperties = Record<string, unknown>;

function retention(r: StoredRetentionPolicy | undefined): StoredRetentionPolicy {
  return r?.enabled
    ? { enabled: true, ...(r.days !== undefined ? { days: r.days } : {}) }
    : { enabled: false };
}

/** Stored properties as the SDK's `setProperties` takes them. */
export function sdkServiceProperties(p: StoredServiceProperties, loggingKey: LoggingKey): SdkProperties {
  const deleteKey = loggingKey === "logging" ? "delete" : "deleteProperty";
  const out: SdkProperties = {};
  if (p.logging) {
    const { deleteProperty, ...rest } = p.logging;
    out[loggingKey] = {
      ...rest,
      [deleteKey]: deleteProperty,
      retentionPolicy: retention(p.logging.retentionPolicy),
    };
  }
  if (p.hourMetrics) out.hourMetrics = p.hourMetrics;
  if (p.minuteMetrics) out.minuteMetrics = p.minuteMetrics;
  if (p.cors) out.cors = p.cors;
  if (p.defaultServiceVersion) out.defaultServiceVersion = p.defaultServiceVersion;
  if (p.deleteRetentionPolicy) out.deleteRetentionPolicy = p.deleteRetentionPolicy;
  if (p.staticWebsite) out.staticWebsite = p.staticWebsite;
  return out;
}

/** The SDK's `getProperties` answer as stored properties. */
export function storedServiceProperties(sdk: SdkProperties, loggingKey: LoggingKey): StoredServiceProperties {
  const deleteKey = loggingKey === "logging" ? "delete" : "deleteProperty";
  const logging = sdk[loggingKey] as
    | (Omit<StoredLogging, "deleteProperty"> & Record<string, unknown>)
    | undefined;
  const metrics = (m: unknown): StoredMetrics | undefined => {
    const x = m as StoredMetrics | undefined;
    if (!x) return undefined;
    return {
      ...(x.version ? { version: x.version } : {}),
      enabled: x.enabled,
      ...(x.enabled && x.includeAPIs !== undefined ? { includeAPIs: x.includeAPIs } : {}),
      retentionPolicy: retention(x.retentionPolicy),
    };
  };
  const hourMetrics = metrics(sdk.hourMetrics);
  const minuteMetrics = metrics(sdk.minuteMetrics);
  const cors = (sdk.cors as StoredCorsRule[] | undefined)?.map((r) => ({
    allowedOrigins: r.allowedOrigins,
    allowedMethods: r.allowedMethods,
    allowedHeaders: r.allowedHeaders ?? "",
    exposedHeaders: r.exposedHeaders ?? "",
    maxAgeInSeconds: r.maxAgeInSeconds,
  }));
  return {
    ...(logging
      ? {
          logging: {
            version: logging.version,
            deleteProperty: Boolean(logging[deleteKey]),
            read: logging.read,
            write: logging.write,
            retentionPolicy: retention(logging.retentionPolicy),
          },
        }
      : {}),
    ...(hourMetrics ? { hourMetrics } : {}),
    ...(minuteMetrics ? { minuteMetrics } : {}),
    ...(cors ? { cors } : {}),
    ...(sdk.defaultServiceVersion ? { defaultServiceVersion: sdk.defaultServiceVersion as string } : {}),
    ...(sdk.deleteRetentionPolicy
      ? { deleteRetentionPolicy: retention(sdk.deleteRetentionPolicy as StoredRetentionPolicy) }
      : {}),
    ...(sdk.staticWebsite
      ? { staticWebsite: sdk.staticWebsite as StoredServiceProperties["staticWebsite"] & object }
      : {}),
  };
}

/** Metadata names as a listing's XML gives them (the response headers of Get Properties are lower-cased by Node). */
export function metadataOf(m: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m ?? {})) {
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
