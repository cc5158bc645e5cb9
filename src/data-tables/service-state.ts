import type { ServiceProperties as StoreServiceProperties } from "../store/access/service-properties.js";
import type { TableSignedIdentifier } from "../store/access/stored-access-policies.js";

/**
 * Stored access policies, service properties and statistics as `@azure/data-tables` gives them:
 * the objects its deserializer builds from the service's XML (every mapped key present, `undefined`
 * where the XML has no element), from the store port's values.
 */

export interface AccessPolicy {
  start?: Date;
  expiry?: Date;
  permission?: string;
}

export interface SignedIdentifier {
  id: string;
  accessPolicy?: AccessPolicy;
}

export interface RetentionPolicy {
  enabled: boolean;
  days?: number;
}

export interface Logging {
  version: string;
  delete: boolean;
  read: boolean;
  write: boolean;
  retentionPolicy: RetentionPolicy;
}

export interface Metrics {
  version?: string;
  enabled: boolean;
  includeAPIs?: boolean;
  retentionPolicy?: RetentionPolicy;
}

export interface CorsRule {
  allowedOrigins: string;
  allowedMethods: string;
  allowedHeaders: string;
  exposedHeaders: string;
  maxAgeInSeconds: number;
}

export interface ServiceProperties {
  logging?: Logging;
  hourMetrics?: Metrics;
  minuteMetrics?: Metrics;
  cors?: CorsRule[];
}

export interface GeoReplication {
  status: "live" | "bootstrap" | "unavailable";
  lastSyncTime: Date;
}

export interface TableServiceStats {
  geoReplication?: GeoReplication;
}

/** The SDK's identifiers from the store's: expiry before start, as its deserializer spreads them. */
export function sdkIdentifiers(identifiers: readonly TableSignedIdentifier[]): SignedIdentifier[] {
  return identifiers.map(({ id, accessPolicy }) => {
    const { start, expiry, permission } = accessPolicy ?? {};
    return {
      id,
      accessPolicy: {
        ...(expiry ? { expiry } : {}),
        ...(start ? { start } : {}),
        ...(permission !== undefined ? { permission } : {}),
      },
    };
  });
}

/** The store's identifiers from the SDK's: dates to the whole second, as the SDK sends them. */
export function storeIdentifiers(identifiers: readonly SignedIdentifier[]): TableSignedIdentifier[] {
  if (!Array.isArray(identifiers)) return identifiers as never;
  return identifiers.map((identifier) => {
    if (identifier === null || typeof identifier !== "object") return identifier;
    const { start, expiry, permission } = identifier.accessPolicy ?? {};
    return {
      id: identifier.id,
      accessPolicy: {
        ...(start !== undefined ? { start: wholeSecond(start) } : {}),
        ...(expiry !== undefined ? { expiry: wholeSecond(expiry) } : {}),
        ...(permission !== undefined ? { permission } : {}),
      },
    };
  });
}

function wholeSecond(value: Date): Date {
  return value instanceof Date ? new Date(Math.floor(value.getTime() / 1000) * 1000) : value;
}

function retention(r: { enabled: boolean; days?: number } | undefined): RetentionPolicy | undefined {
  return r === undefined ? undefined : { enabled: r.enabled, days: r.days };
}

function metrics(m: StoreServiceProperties["hourMetrics"]): Metrics | undefined {
  if (m === undefined) return undefined;
  return {
    version: m.version,
    enabled: m.enabled,
    includeAPIs: m.includeAPIs,
    retentionPolicy: retention(m.retentionPolicy),
  };
}

/** The SDK's `TableServiceProperties` from the store's (`delete` for the port's `deleteProperty`). */
export function sdkServiceProperties(p: StoreServiceProperties): ServiceProperties {
  const l = p.logging;
  return {
    logging: l && {
      version: l.version,
      delete: l.deleteProperty,
      read: l.read,
      write: l.write,
      retentionPolicy: retention(l.retentionPolicy)!,
    },
    hourMetrics: metrics(p.hourMetrics),
    minuteMetrics: metrics(p.minuteMetrics),
    cors: (p.cors ?? []).map((c) => ({
      allowedOrigins: c.allowedOrigins,
      allowedMethods: c.allowedMethods,
      allowedHeaders: c.allowedHeaders,
      exposedHeaders: c.exposedHeaders,
      maxAgeInSeconds: c.maxAgeInSeconds,
    })),
  };
}

/** The store's properties from the SDK's: sections given replace the stored ones, the rest are kept. */
export function storeServiceProperties(p: ServiceProperties): StoreServiceProperties {
  if (p === null || typeof p !== "object") return p;
  const out: StoreServiceProperties = {};
  if (p.logging !== undefined) {
    const { delete: deleteProperty, ...rest } = p.logging ?? ({} as Logging);
    out.logging = { ...rest, deleteProperty } as StoreServiceProperties["logging"] & object;
  }
  if (p.hourMetrics !== undefined) out.hourMetrics = p.hourMetrics;
  if (p.minuteMetrics !== undefined) out.minuteMetrics = p.minuteMetrics;
  // Omitted allowed/exposed headers are empty, as the service stores them.
  if (p.cors !== undefined) {
    out.cors = Array.isArray(p.cors)
      ? p.cors.map((c) => ({
          ...c,
          allowedHeaders: c?.allowedHeaders ?? "",
          exposedHeaders: c?.exposedHeaders ?? "",
        }))
      : p.cors;
  }
  return out;
}
