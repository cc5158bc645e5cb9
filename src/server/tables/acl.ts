import { TableKitError, tableNotFound } from "../../model/index.js";
import type { Store } from "../../store/index.js";
import { readBody } from "../http/read-body.js";
import { send } from "../http/responses.js";
import { MAX_SETTINGS_BODY_BYTES, parseTableAcl, tableAclXml } from "../protocol/access-policies.js";
import { unsupportedVerb } from "../protocol/protocol-error.js";
import type { RouteServices, TableContext } from "./route.js";

/** Throws TableNotFound unless the table exists (read through the port's listing). */
export async function assertTableExists(store: Store, tableName: string): Promise<string> {
  const escaped = tableName.replaceAll("'", "''");
  const pages = store.listTables({ queryOptions: { filter: `TableName eq '${escaped}'` } }).byPage();
  const next = await pages.next();
  const page = next.done ? [] : next.value;
  if (page.length === 0) throw tableNotFound(tableName);
  return page[0]!.name;
}

/** Get and Set Table ACL (`GET/PUT /<table>?comp=acl`): a table's stored access policies, in XML. */
export async function tableAcl(ctx: TableContext, { store, via, access }: RouteServices): Promise<void> {
  if (ctx.resource.kind !== "entities") return;
  const { tableName } = ctx.resource;
  // Only the account owner may read or set a table's ACL: the account key, never a bearer token.
  if (via === "bearer") {
    throw new TableKitError(
      "AuthorizationFailure",
      "This request is not authorized to perform this operation: a table's ACL needs the account key.",
    );
  }
  if (ctx.method === "GET" || ctx.method === "HEAD") {
    const identifiers = await store.table(tableName).getAccessPolicy();
    send(ctx, 200, { "content-type": "application/xml" }, tableAclXml(identifiers));
    return;
  }
  if (ctx.method !== "PUT") throw unsupportedVerb(ctx.method);
  access?.check("setAcl", tableName);
  const identifiers = parseTableAcl(await readBody(ctx.req, MAX_SETTINGS_BODY_BYTES));
  await store.table(tableName).setAccessPolicy(identifiers);
  send(ctx, 204, {});
}
