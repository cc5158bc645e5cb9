import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { send } from "../http/responses.js";
import type { CorsRule, ServiceState } from "../service-state.js";
import { ProtocolError, unsupportedVerb } from "./protocol-error.js";
import { invalidXml, xmlElement } from "./xml.js";

/**
 * Get/Set Service Properties (`?restype=service&comp=properties`) and Get Service Stats
 * (`comp=stats`), the same XML for every service: Logging and the metrics kept as set, CORS rules
 * applied. A service may keep more sections (the Blob service's DefaultServiceVersion, …).
 */

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>';

const DEFAULT_SECTIONS: Readonly<Record<string, string>> = {
  Logging:
    "<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>",
  HourMetrics:
    "<HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>",
  MinuteMetrics:
    "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>",
};

const BASE_SECTIONS = ["Logging", "HourMetrics", "MinuteMetrics"] as const;

export type ServicePropertiesOperation = "getServiceProperties" | "setServiceProperties" | "getServiceStats";

export interface ServicePropertiesOptions {
  readonly state: ServiceState;
  readonly maxBodyBytes: number;
  /** Throws unless the caller may do this (a token's rights). */
  readonly check: (operation: ServicePropertiesOperation) => void;
  /** Sections beyond Logging and the metrics that this service keeps as set, with their defaults. */
  readonly extraSections?: Readonly<Record<string, string>>;
}

function corsXml(rules: readonly CorsRule[]): string {
  const rule = (r: CorsRule) =>
    `<CorsRule><AllowedOrigins>${r.allowedOrigins}</AllowedOrigins><AllowedMethods>${r.allowedMethods}</AllowedMethods><MaxAgeInSeconds>${r.maxAgeInSeconds}</MaxAgeInSeconds><ExposedHeaders>${r.exposedHeaders}</ExposedHeaders><AllowedHeaders>${r.allowedHeaders}</AllowedHeaders></CorsRule>`;
  return `<Cors>${rules.map(rule).join("")}</Cors>`;
}

function parseCors(xml: string): CorsRule[] {
  const rules: CorsRule[] = [];
  for (const match of xml.matchAll(/<CorsRule>([\s\S]*?)<\/CorsRule>/g)) {
    const body = match[1]!;
    const origins = xmlElement(body, "AllowedOrigins");
    const methods = xmlElement(body, "AllowedMethods");
    const maxAge = Number(xmlElement(body, "MaxAgeInSeconds") ?? "0");
    if (origins === undefined || methods === undefined || !Number.isInteger(maxAge)) throw invalidXml();
    rules.push({
      allowedOrigins: origins.trim(),
      allowedMethods: methods.trim(),
      allowedHeaders: (xmlElement(body, "AllowedHeaders") ?? "").trim(),
      exposedHeaders: (xmlElement(body, "ExposedHeaders") ?? "").trim(),
      maxAgeInSeconds: maxAge,
    });
  }
  if (rules.length > 5) {
    throw new ProtocolError(400, "InvalidXmlNodeValue", "At most five CORS rules may be set.");
  }
  return rules;
}

/** True for the service-level requests this module answers. */
export function isServicePropertiesRequest(ctx: RequestContext): boolean {
  return ctx.path === "" && ctx.query.get("restype") === "service";
}

export async function answerServiceProperties(
  ctx: RequestContext,
  options: ServicePropertiesOptions,
): Promise<void> {
  const { state, check } = options;
  const comp = ctx.query.get("comp");
  const extra = options.extraSections ?? {};
  if (comp === "stats") {
    if (ctx.method !== "GET") throw unsupportedVerb(ctx.method);
    check("getServiceStats");
    const body = `${XML_HEAD}<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>${new Date().toUTCString()}</LastSyncTime></GeoReplication></StorageServiceStats>`;
    send(ctx, 200, { "content-type": "application/xml" }, body);
    return;
  }
  if (comp !== "properties")
    throw new ProtocolError(400, "InvalidQueryParameterValue", "comp must be properties or stats.");
  const names = [...BASE_SECTIONS, ...Object.keys(extra)];
  if (ctx.method === "GET") {
    check("getServiceProperties");
    const sections = { ...DEFAULT_SECTIONS, ...extra, ...state.sections(ctx.account) };
    const body = `${XML_HEAD}<StorageServiceProperties>${names
      .map((n) => sections[n] ?? "")
      .join("")}${corsXml(state.cors(ctx.account))}</StorageServiceProperties>`;
    send(ctx, 200, { "content-type": "application/xml" }, body);
    return;
  }
  if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
  check("setServiceProperties");
  const xml = await readBody(ctx.req, options.maxBodyBytes);
  const root = xmlElement(xml, "StorageServiceProperties");
  if (root === undefined) throw invalidXml();
  const sections: Record<string, string> = {};
  for (const name of names) {
    const inner = xmlElement(root, name);
    if (inner !== undefined) sections[name] = `<${name}>${inner}</${name}>`;
  }
  const cors = xmlElement(root, "Cors");
  state.setProperties(ctx.account, sections, cors === undefined ? undefined : parseCors(cors));
  send(ctx, 202, {});
}
