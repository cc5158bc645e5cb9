import { TableKitError } from "../../model/index.js";
import type {
  StoredCorsRule,
  StoredLogging,
  StoredMetrics,
  StoredRetentionPolicy,
  StoredServiceProperties,
  StoredStaticWebsite,
} from "./state-backend.js";

/**
 * Service properties (Get/Set Service Properties), shaped like the SDKs' `*ServiceProperties`
 * (`logging` for the Table SDK's `logging` and the Blob/Queue SDKs' `*AnalyticsLogging`), checked
 * once by the core as the services check them: CORS rules by the limits of "CORS support for Azure
 * Storage", retention days 1–365. A refused value is InvalidXmlNodeValue, nothing is written.
 */

export type StorageServiceName = "table" | "queue" | "blob";

type Mutable<T> = {
  -readonly [K in keyof T]: T[K] extends readonly (infer E)[]
    ? Mutable<E>[]
    : T[K] extends object
      ? Mutable<T[K]>
      : T[K];
};

export type CorsRule = Mutable<StoredCorsRule>;
export type RetentionPolicy = Mutable<StoredRetentionPolicy>;
export type Logging = Mutable<StoredLogging>;
export type Metrics = Mutable<StoredMetrics>;
export type StaticWebsite = Mutable<StoredStaticWebsite>;
/** Every service's properties; `defaultServiceVersion`, `deleteRetentionPolicy`, `staticWebsite` are the Blob service's. */
export type ServiceProperties = Mutable<StoredServiceProperties>;

/** The most CORS rules a service keeps. */
export const MAX_CORS_RULES = 5;
/** Literal (defined) header names an AllowedHeaders or ExposedHeaders list may hold, and prefixed ones (`x-ms-meta-*`). */
export const MAX_CORS_DEFINED_HEADERS = 64;
export const MAX_CORS_PREFIXED_HEADERS = 2;
/** Origins a rule may list. */
export const MAX_CORS_ORIGINS = 64;
/** The longest origin or header name. */
export const MAX_CORS_ITEM_LENGTH = 256;
/** All rules' values together, without the XML tags. */
export const MAX_CORS_BYTES = 2048;
/** The methods a rule may allow. */
export const CORS_METHODS = ["DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH"] as const;

const BLOB_ONLY = ["defaultServiceVersion", "deleteRetentionPolicy", "staticWebsite"] as const;
const CONTROL = /[\x00-\x1f\x7f]/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function refuse(message: string): TableKitError {
  return new TableKitError("InvalidXmlNodeValue", message);
}

function bool(value: unknown, what: string): boolean {
  if (typeof value !== "boolean") throw refuse(`${what} must be true or false`);
  return value;
}

function text(value: unknown, what: string, max = 256): string {
  if (typeof value !== "string" || value.length > max || CONTROL.test(value)) {
    throw refuse(`${what} must be a string of at most ${max} characters without control characters`);
  }
  return value;
}

function retention(value: unknown, what: string): StoredRetentionPolicy {
  const r = value as RetentionPolicy | undefined;
  if (r === null || typeof r !== "object") throw refuse(`${what} must be an object`);
  const enabled = bool(r.enabled, `${what}.enabled`);
  if (!enabled) return { enabled };
  if (!Number.isInteger(r.days) || r.days! < 1 || r.days! > 365) {
    throw refuse(`${what}.days must be a whole number from 1 to 365 when enabled`);
  }
  return { enabled, days: r.days! };
}

function logging(value: unknown): StoredLogging {
  const l = value as Logging;
  if (l === null || typeof l !== "object") throw refuse("logging must be an object");
  return {
    version: text(l.version ?? "1.0", "logging.version", 16),
    deleteProperty: bool(l.deleteProperty, "logging.deleteProperty"),
    read: bool(l.read, "logging.read"),
    write: bool(l.write, "logging.write"),
    retentionPolicy: retention(l.retentionPolicy, "logging.retentionPolicy"),
  };
}

function metrics(value: unknown, what: string): StoredMetrics {
  const m = value as Metrics;
  if (m === null || typeof m !== "object") throw refuse(`${what} must be an object`);
  const enabled = bool(m.enabled, `${what}.enabled`);
  if (enabled && m.includeAPIs === undefined) throw refuse(`${what}.includeAPIs is required when enabled`);
  return {
    version: text(m.version ?? "1.0", `${what}.version`, 16),
    enabled,
    ...(m.includeAPIs !== undefined && enabled
      ? { includeAPIs: bool(m.includeAPIs, `${what}.includeAPIs`) }
      : {}),
    retentionPolicy: retention(m.retentionPolicy ?? { enabled: false }, `${what}.retentionPolicy`),
  };
}

function list(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** AllowedHeaders / ExposedHeaders: `*`, or literal names and `prefix*` names within the counts. */
function corsHeaders(value: string, what: string): void {
  const items = list(value);
  let defined = 0;
  let prefixed = 0;
  for (const item of items) {
    if (item.length > MAX_CORS_ITEM_LENGTH)
      throw refuse(`${what}: a header name is longer than ${MAX_CORS_ITEM_LENGTH}`);
    if (item === "*") continue;
    const prefix = item.endsWith("*");
    const name = prefix ? item.slice(0, -1) : item;
    if (!HEADER_NAME.test(name) || name.includes("*"))
      throw refuse(`${what}: ${JSON.stringify(item)} is not a header name`);
    if (prefix) prefixed++;
    else defined++;
  }
  if (defined > MAX_CORS_DEFINED_HEADERS)
    throw refuse(`${what} holds more than ${MAX_CORS_DEFINED_HEADERS} headers`);
  if (prefixed > MAX_CORS_PREFIXED_HEADERS) {
    throw refuse(`${what} holds more than ${MAX_CORS_PREFIXED_HEADERS} prefixed headers`);
  }
}

function corsRule(value: unknown, index: number): StoredCorsRule {
  const r = value as CorsRule;
  const where = `cors[${index}]`;
  if (r === null || typeof r !== "object") throw refuse(`${where} must be an object`);
  for (const key of ["allowedOrigins", "allowedMethods", "allowedHeaders", "exposedHeaders"] as const) {
    const v = r[key] ?? "";
    if (typeof v !== "string" || CONTROL.test(v)) {
      throw refuse(`${where}.${key} must be a string without control characters`);
    }
  }
  const origins = list(r.allowedOrigins);
  if (origins.length === 0) throw refuse(`${where}.allowedOrigins must name an origin or *`);
  if (origins.length > MAX_CORS_ORIGINS)
    throw refuse(`${where}.allowedOrigins lists more than ${MAX_CORS_ORIGINS}`);
  for (const o of origins) {
    if (o.length > MAX_CORS_ITEM_LENGTH || /\s/.test(o))
      throw refuse(`${where}.allowedOrigins: ${JSON.stringify(o)}`);
  }
  const methods = list(r.allowedMethods);
  if (methods.length === 0) throw refuse(`${where}.allowedMethods must name a method`);
  for (const m of methods) {
    if (!(CORS_METHODS as readonly string[]).includes(m)) {
      throw refuse(`${where}.allowedMethods: ${JSON.stringify(m)} is not one of ${CORS_METHODS.join(", ")}`);
    }
  }
  corsHeaders(r.allowedHeaders ?? "", `${where}.allowedHeaders`);
  corsHeaders(r.exposedHeaders ?? "", `${where}.exposedHeaders`);
  if (!Number.isSafeInteger(r.maxAgeInSeconds) || r.maxAgeInSeconds < 0 || r.maxAgeInSeconds > 2 ** 31 - 1) {
    throw refuse(`${where}.maxAgeInSeconds must be a non-negative whole number`);
  }
  return {
    allowedOrigins: origins.join(","),
    allowedMethods: methods.join(","),
    allowedHeaders: list(r.allowedHeaders ?? "").join(","),
    exposedHeaders: list(r.exposedHeaders ?? "").join(","),
    maxAgeInSeconds: r.maxAgeInSeconds,
  };
}

function cors(value: unknown): StoredCorsRule[] {
  if (!Array.isArray(value)) throw refuse("cors must be an array of rules");
  if (value.length > MAX_CORS_RULES)
    throw refuse(`At most ${MAX_CORS_RULES} CORS rules may be set; got ${value.length}`);
  const rules = value.map(corsRule);
  const bytes = rules.reduce(
    (n, r) =>
      n +
      r.allowedOrigins.length +
      r.allowedMethods.length +
      r.allowedHeaders.length +
      r.exposedHeaders.length +
      String(r.maxAgeInSeconds).length,
    0,
  );
  if (bytes > MAX_CORS_BYTES)
    throw refuse(`The CORS rules hold ${bytes} characters; the most is ${MAX_CORS_BYTES}`);
  return rules;
}

function staticWebsite(value: unknown): StoredStaticWebsite {
  const w = value as StaticWebsite;
  if (w === null || typeof w !== "object") throw refuse("staticWebsite must be an object");
  const out: { -readonly [K in keyof StoredStaticWebsite]: StoredStaticWebsite[K] } = {
    enabled: bool(w.enabled, "staticWebsite.enabled"),
  };
  for (const key of ["indexDocument", "errorDocument404Path", "defaultIndexDocumentPath"] as const) {
    if (w[key] !== undefined) out[key] = text(w[key], `staticWebsite.${key}`);
  }
  return out;
}

/**
 * Checks a Set Service Properties change and merges it over the stored properties: a section
 * absent from the change keeps its value; `cors: []` deletes every rule.
 */
export function mergeServiceProperties(
  service: StorageServiceName,
  stored: StoredServiceProperties,
  change: unknown,
): StoredServiceProperties {
  if (change === null || typeof change !== "object" || Array.isArray(change)) {
    throw new TableKitError("InvalidInput", "setServiceProperties takes an object");
  }
  const c = change as ServiceProperties;
  if (service !== "blob") {
    for (const key of BLOB_ONLY) {
      if (c[key] !== undefined) throw new TableKitError("InvalidInput", `${key} is a Blob service property`);
    }
  }
  const out: { -readonly [K in keyof StoredServiceProperties]: StoredServiceProperties[K] } = { ...stored };
  if (c.logging !== undefined) out.logging = logging(c.logging);
  if (c.hourMetrics !== undefined) out.hourMetrics = metrics(c.hourMetrics, "hourMetrics");
  if (c.minuteMetrics !== undefined) out.minuteMetrics = metrics(c.minuteMetrics, "minuteMetrics");
  if (c.cors !== undefined) out.cors = cors(c.cors);
  if (c.defaultServiceVersion !== undefined) {
    if (typeof c.defaultServiceVersion !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(c.defaultServiceVersion)) {
      throw refuse("defaultServiceVersion must be a service version (YYYY-MM-DD)");
    }
    out.defaultServiceVersion = c.defaultServiceVersion;
  }
  if (c.deleteRetentionPolicy !== undefined) {
    out.deleteRetentionPolicy = retention(c.deleteRetentionPolicy, "deleteRetentionPolicy");
  }
  if (c.staticWebsite !== undefined) out.staticWebsite = staticWebsite(c.staticWebsite);
  return out;
}

const OFF: StoredRetentionPolicy = { enabled: false };

/** The properties as the service reports them: every section, defaults where never set. */
export function withDefaults(
  service: StorageServiceName,
  stored: StoredServiceProperties,
): ServiceProperties {
  const base = {
    logging: stored.logging ?? {
      version: "1.0",
      deleteProperty: false,
      read: false,
      write: false,
      retentionPolicy: OFF,
    },
    hourMetrics: stored.hourMetrics ?? { version: "1.0", enabled: false, retentionPolicy: OFF },
    minuteMetrics: stored.minuteMetrics ?? { version: "1.0", enabled: false, retentionPolicy: OFF },
    cors: stored.cors ?? [],
  };
  const blob =
    service === "blob"
      ? {
          ...(stored.defaultServiceVersion ? { defaultServiceVersion: stored.defaultServiceVersion } : {}),
          deleteRetentionPolicy: stored.deleteRetentionPolicy ?? OFF,
          staticWebsite: stored.staticWebsite ?? { enabled: false },
        }
      : {};
  return structuredClone({ ...base, ...blob }) as ServiceProperties;
}
