import { tableNotFound } from "../../model/index.js";
import type { Store, StoredAccessPolicy } from "../../store/index.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { ProtocolError, unsupportedVerb } from "../protocol/protocol-error.js";
import { escapeXml, xmlElement } from "../protocol/xml.js";
import type { Route } from "./route.js";

const MAX_POLICIES = 5;

/** Throws TableNotFound unless the table exists (read through the port's listing). */
export async function assertTableExists(store: Store, tableName: string): Promise<string> {
  const escaped = tableName.replaceAll("'", "''");
  const pages = store.listTables({ queryOptions: { filter: `TableName eq '${escaped}'` } }).byPage();
  const next = await pages.next();
  const page = next.done ? [] : next.value;
  if (page.length === 0) throw tableNotFound(tableName);
  return page[0]!.name;
}

function aclXml(policies: readonly StoredAccessPolicy[]): string {
  const one = (p: StoredAccessPolicy) =>
    `<SignedIdentifier><Id>${escapeXml(p.id)}</Id><AccessPolicy>${p.start ? `<Start>${p.start}</Start>` : ""}${
      p.expiry ? `<Expiry>${p.expiry}</Expiry>` : ""
    }${p.permission ? `<Permission>${p.permission}</Permission>` : ""}</AccessPolicy></SignedIdentifier>`;
  return `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>${policies.map(one).join("")}</SignedIdentifiers>`;
}

function parseAcl(xml: string): StoredAccessPolicy[] {
  const invalid = () =>
    new ProtocolError(400, "InvalidXmlDocument", "XML specified is not syntactically valid.");
  if (xml.trim() === "") return [];
  const root = xmlElement(xml, "SignedIdentifiers");
  if (root === undefined) {
    if (/<SignedIdentifiers\s*\/>/.test(xml)) return [];
    throw invalid();
  }
  const policies: StoredAccessPolicy[] = [];
  for (const match of root.matchAll(/<SignedIdentifier>([\s\S]*?)<\/SignedIdentifier>/g)) {
    const id = xmlElement(match[1]!, "Id")?.trim();
    if (!id || id.length > 64) throw invalid();
    const policy = xmlElement(match[1]!, "AccessPolicy") ?? "";
    const start = xmlElement(policy, "Start")?.trim();
    const expiry = xmlElement(policy, "Expiry")?.trim();
    const permission = xmlElement(policy, "Permission")?.trim();
    if (permission !== undefined && !/^[raud]*$/.test(permission)) throw invalid();
    for (const time of [start, expiry]) if (time && Number.isNaN(Date.parse(time))) throw invalid();
    policies.push({
      id,
      ...(start ? { start } : {}),
      ...(expiry ? { expiry } : {}),
      ...(permission ? { permission } : {}),
    });
  }
  if (policies.length > MAX_POLICIES) throw invalid();
  return policies;
}

/** `GET/PUT /<table>?comp=acl`: a table's stored access policies, in XML. */
export const aclRoute: Route = {
  name: "acl",
  xml: true,
  matches: (ctx) => ctx.resource.kind === "entities" && ctx.query.get("comp") === "acl",
  async handle(ctx, { store, access, state, maxBodyBytes }) {
    if (ctx.resource.kind !== "entities") return;
    const { tableName } = ctx.resource;
    if (ctx.method === "GET" || ctx.method === "HEAD") {
      access?.check("getAcl", tableName);
      await assertTableExists(store, tableName);
      send(ctx, 200, { "content-type": "application/xml" }, aclXml(state.acl(ctx.account, tableName)));
      return;
    }
    if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
    access?.check("setAcl", tableName);
    const policies = parseAcl(await readBody(ctx.req, maxBodyBytes));
    await assertTableExists(store, tableName);
    state.setAcl(ctx.account, tableName, policies);
    send(ctx, 204, {});
  },
};
