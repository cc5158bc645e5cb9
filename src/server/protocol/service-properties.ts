import { TableKitError } from "../../model/index.js";
import type {
  CorsRule,
  Logging,
  Metrics,
  RetentionPolicy,
  ServiceProperties,
  StorageServiceName,
  Store,
} from "../../store/index.js";
import type { CorsRuleCache } from "../cors-rules.js";
import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { send } from "../http/responses.js";
import { MAX_SETTINGS_BODY_BYTES, parseSettingsXml } from "./access-policies.js";
import { ProtocolError, unsupportedVerb } from "./protocol-error.js";
import { child, escapeXml, invalidXml, type XmlElement } from "./xml.js";

/**
 * Get/Set Service Properties (`?restype=service&comp=properties`) and Get Service Stats
 * (`comp=stats`), the same XML for every service. The XML is translated to and from the store's
 * `getServiceProperties` / `setServiceProperties`, which keep and check them (CORS rules as the
 * service checks them); the server keeps nothing but a cache of the CORS rules it applies.
 */

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>';

export type ServicePropertiesOperation = "getServiceProperties" | "setServiceProperties" | "getServiceStats";

export interface ServicePropertiesOptions {
  readonly service: StorageServiceName;
  /** The account's store. */
  readonly store: Store;
  /** The CORS rules the server applies, refreshed when they are set. */
  readonly cors: CorsRuleCache;
  /** Throws unless the caller may do this (a token's rights). */
  readonly check: (operation: ServicePropertiesOperation) => void;
}

function nodeValue(detail: string): TableKitError {
  return new TableKitError("InvalidXmlNodeValue", detail);
}

function textOf(parent: XmlElement, name: string): string | undefined {
  return child(parent, name)?.text.trim();
}

function boolOf(parent: XmlElement, name: string, required = true): boolean | undefined {
  const text = textOf(parent, name);
  if (text === undefined && !required) return undefined;
  if (text === "true") return true;
  if (text === "false") return false;
  throw nodeValue(`${parent.name}.${name} must be true or false.`);
}

function numberOf(parent: XmlElement, name: string): number | undefined {
  const text = textOf(parent, name);
  if (text === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw nodeValue(`${parent.name}.${name} must be a number.`);
  return Number(text);
}

function retentionOf(parent: XmlElement): RetentionPolicy | undefined {
  const r = child(parent, "RetentionPolicy");
  if (!r) return undefined;
  const days = numberOf(r, "Days");
  return { enabled: boolOf(r, "Enabled")!, ...(days !== undefined ? { days } : {}) };
}

function loggingOf(e: XmlElement): Logging {
  return {
    version: textOf(e, "Version") ?? "1.0",
    deleteProperty: boolOf(e, "Delete")!,
    read: boolOf(e, "Read")!,
    write: boolOf(e, "Write")!,
    retentionPolicy: retentionOf(e) ?? { enabled: false },
  };
}

function metricsOf(e: XmlElement): Metrics {
  const includeAPIs = boolOf(e, "IncludeAPIs", false);
  const retentionPolicy = retentionOf(e);
  return {
    version: textOf(e, "Version") ?? "1.0",
    enabled: boolOf(e, "Enabled")!,
    ...(includeAPIs !== undefined ? { includeAPIs } : {}),
    ...(retentionPolicy ? { retentionPolicy } : {}),
  };
}

function corsOf(e: XmlElement): CorsRule[] {
  return e.children.map((rule) => {
    if (rule.name !== "CorsRule") throw invalidXml();
    // Values are taken as sent (no trimming): a control character in one is the core's to refuse.
    const raw = (name: string) => child(rule, name)?.text ?? "";
    const maxAge = raw("MaxAgeInSeconds").trim();
    return {
      allowedOrigins: raw("AllowedOrigins"),
      allowedMethods: raw("AllowedMethods"),
      allowedHeaders: raw("AllowedHeaders"),
      exposedHeaders: raw("ExposedHeaders"),
      maxAgeInSeconds: /^-?\d+(\.\d+)?$/.test(maxAge) ? Number(maxAge) : Number.NaN,
    };
  });
}

/** A Set Service Properties body as the store's change: a section absent (or empty) keeps its value. */
export function parseServiceProperties(xml: string, service: StorageServiceName): ServiceProperties {
  const root = parseSettingsXml(xml);
  if (root.name !== "StorageServiceProperties") throw invalidXml();
  const section = (name: string) => {
    const e = child(root, name);
    return e && (e.children.length > 0 || name === "Cors") ? e : undefined;
  };
  const out: ServiceProperties = {};
  const logging = section("Logging");
  if (logging) out.logging = loggingOf(logging);
  const hour = section("HourMetrics");
  if (hour) out.hourMetrics = metricsOf(hour);
  const minute = section("MinuteMetrics");
  if (minute) out.minuteMetrics = metricsOf(minute);
  const cors = section("Cors");
  if (cors) out.cors = corsOf(cors);
  if (service === "blob") {
    const version = textOf(root, "DefaultServiceVersion");
    if (version) out.defaultServiceVersion = version;
    const deletes = section("DeleteRetentionPolicy");
    if (deletes) {
      const days = numberOf(deletes, "Days");
      out.deleteRetentionPolicy = {
        enabled: boolOf(deletes, "Enabled")!,
        ...(days !== undefined ? { days } : {}),
      };
    }
    const site = section("StaticWebsite");
    if (site) {
      const text = (name: string) => textOf(site, name);
      const [index, notFound, defaultIndex] = [
        text("IndexDocument"),
        text("ErrorDocument404Path"),
        text("DefaultIndexDocumentPath"),
      ];
      out.staticWebsite = {
        enabled: boolOf(site, "Enabled")!,
        ...(index !== undefined ? { indexDocument: index } : {}),
        ...(notFound !== undefined ? { errorDocument404Path: notFound } : {}),
        ...(defaultIndex !== undefined ? { defaultIndexDocumentPath: defaultIndex } : {}),
      };
    }
  }
  return out;
}

function retentionXml(r: RetentionPolicy | undefined): string {
  const policy = r ?? { enabled: false };
  return `<RetentionPolicy><Enabled>${policy.enabled}</Enabled>${
    policy.enabled && policy.days !== undefined ? `<Days>${policy.days}</Days>` : ""
  }</RetentionPolicy>`;
}

function metricsXml(name: string, m: Metrics | undefined): string {
  const x = m ?? { enabled: false };
  return `<${name}><Version>${escapeXml(x.version ?? "1.0")}</Version><Enabled>${x.enabled}</Enabled>${
    x.enabled && x.includeAPIs !== undefined ? `<IncludeAPIs>${x.includeAPIs}</IncludeAPIs>` : ""
  }${retentionXml(x.retentionPolicy)}</${name}>`;
}

/** Properties as Get Service Properties writes them. */
export function servicePropertiesXml(p: ServiceProperties, service: StorageServiceName): string {
  const l = p.logging;
  const logging = l
    ? `<Logging><Version>${escapeXml(l.version)}</Version><Delete>${l.deleteProperty}</Delete><Read>${l.read}</Read><Write>${l.write}</Write>${retentionXml(l.retentionPolicy)}</Logging>`
    : "";
  const rule = (r: CorsRule) =>
    `<CorsRule><AllowedOrigins>${escapeXml(r.allowedOrigins)}</AllowedOrigins><AllowedMethods>${escapeXml(r.allowedMethods)}</AllowedMethods><MaxAgeInSeconds>${r.maxAgeInSeconds}</MaxAgeInSeconds><ExposedHeaders>${escapeXml(r.exposedHeaders)}</ExposedHeaders><AllowedHeaders>${escapeXml(r.allowedHeaders)}</AllowedHeaders></CorsRule>`;
  let blob = "";
  if (service === "blob") {
    const d = p.deleteRetentionPolicy ?? { enabled: false };
    const w = p.staticWebsite ?? { enabled: false };
    const opt = (name: string, value: string | undefined) =>
      value === undefined ? "" : `<${name}>${escapeXml(value)}</${name}>`;
    blob =
      opt("DefaultServiceVersion", p.defaultServiceVersion) +
      `<DeleteRetentionPolicy><Enabled>${d.enabled}</Enabled>${d.enabled && d.days !== undefined ? `<Days>${d.days}</Days>` : ""}</DeleteRetentionPolicy>` +
      `<StaticWebsite><Enabled>${w.enabled}</Enabled>${opt("IndexDocument", w.indexDocument)}${opt("ErrorDocument404Path", w.errorDocument404Path)}${opt("DefaultIndexDocumentPath", w.defaultIndexDocumentPath)}</StaticWebsite>`;
  }
  return `${XML_HEAD}<StorageServiceProperties>${logging}${metricsXml("HourMetrics", p.hourMetrics)}${metricsXml("MinuteMetrics", p.minuteMetrics)}<Cors>${(p.cors ?? []).map(rule).join("")}</Cors>${blob}</StorageServiceProperties>`;
}

/** True for the service-level requests this module answers. */
export function isServicePropertiesRequest(ctx: RequestContext): boolean {
  return ctx.path === "" && ctx.query.get("restype") === "service";
}

export async function answerServiceProperties(
  ctx: RequestContext,
  options: ServicePropertiesOptions,
): Promise<void> {
  const { service, store, check } = options;
  const comp = ctx.query.get("comp");
  if (comp === "stats") {
    if (ctx.method !== "GET") throw unsupportedVerb(ctx.method);
    // Get Service Stats is served by the secondary location only (read-access geo-redundancy).
    if (!ctx.secondary) {
      throw new ProtocolError(
        400,
        "InvalidQueryParameterValue",
        "Service stats are served by the secondary location only (<account>-secondary).",
      );
    }
    check("getServiceStats");
    const body = `${XML_HEAD}<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>${new Date().toUTCString()}</LastSyncTime></GeoReplication></StorageServiceStats>`;
    send(ctx, 200, { "content-type": "application/xml" }, body);
    return;
  }
  if (comp !== "properties")
    throw new ProtocolError(400, "InvalidQueryParameterValue", "comp must be properties or stats.");
  if (ctx.method === "GET") {
    check("getServiceProperties");
    const properties = await store.getServiceProperties(service);
    send(ctx, 200, { "content-type": "application/xml" }, servicePropertiesXml(properties, service));
    return;
  }
  if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
  check("setServiceProperties");
  const change = parseServiceProperties(await readBody(ctx.req, MAX_SETTINGS_BODY_BYTES), service);
  try {
    await store.setServiceProperties(service, change);
  } finally {
    options.cors.invalidate(ctx.account);
  }
  send(ctx, 202, {});
}
