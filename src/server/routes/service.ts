import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { xmlElement } from "../protocol/xml.js";
import type { CorsRule } from "../service-state.js";
import type { Route } from "./route.js";

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>';

const DEFAULT_SECTIONS: Readonly<Record<string, string>> = {
  Logging:
    "<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>",
  HourMetrics:
    "<HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>",
  MinuteMetrics:
    "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>",
};

function invalidXml(): ProtocolError {
  return new ProtocolError(400, "InvalidXmlDocument", "XML specified is not syntactically valid.");
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

/** `?restype=service&comp=properties` (get, set) and `comp=stats`: answered in XML, as the service does. */
export const serviceRoute: Route = {
  name: "service",
  xml: true,
  matches: (ctx) => ctx.resource.kind === "service" && ctx.query.get("restype") === "service",
  async handle(ctx, { access, state, maxBodyBytes }) {
    const comp = ctx.query.get("comp");
    if (comp === "stats") {
      if (ctx.method !== "GET") throw unsupportedVerb(ctx.method);
      // Get Table Service Stats is served by the secondary location only (read-access geo-redundancy).
      if (!ctx.secondary) {
        throw new ProtocolError(
          400,
          "InvalidQueryParameterValue",
          "Table service stats are served by the secondary location only (<account>-secondary).",
        );
      }
      access?.check("getServiceStats");
      const body = `${XML_HEAD}<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>${new Date().toUTCString()}</LastSyncTime></GeoReplication></StorageServiceStats>`;
      send(ctx, 200, { "content-type": "application/xml" }, body);
      return;
    }
    if (comp !== "properties")
      throw new ProtocolError(400, "InvalidQueryParameterValue", "comp must be properties or stats.");
    if (ctx.method === "GET") {
      access?.check("getServiceProperties");
      const sections = { ...DEFAULT_SECTIONS, ...state.sections(ctx.account) };
      const body = `${XML_HEAD}<StorageServiceProperties>${sections.Logging}${sections.HourMetrics}${sections.MinuteMetrics}${corsXml(state.cors(ctx.account))}</StorageServiceProperties>`;
      send(ctx, 200, { "content-type": "application/xml" }, body);
      return;
    }
    if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
    access?.check("setServiceProperties");
    const xml = await readBody(ctx.req, maxBodyBytes);
    const root = xmlElement(xml, "StorageServiceProperties");
    if (root === undefined) throw invalidXml();
    const sections: Record<string, string> = {};
    for (const name of ["Logging", "HourMetrics", "MinuteMetrics"]) {
      const inner = xmlElement(root, name);
      if (inner !== undefined && inner.trim() !== "") sections[name] = `<${name}>${inner}</${name}>`;
    }
    // An absent Cors element keeps the rules; an empty one (`<Cors/>`) deletes them all.
    const cors = xmlElement(root, "Cors");
    state.setProperties(ctx.account, sections, cors === undefined ? undefined : parseCors(cors));
    send(ctx, 202, {});
  },
};
