import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { send } from "../http/responses.js";
import { invalidInput, unsupportedVerb } from "../protocol/protocol-error.js";
import { assertTableExists } from "./acl.js";
import { tableContinuationFrom, tableContinuationHeaders } from "./continuation-headers.js";
import { parseEntityJson } from "./entity-body.js";
import { prefersNoContent } from "./entity-write.js";
import { jsonContentType, type MetadataLevel, metadataLevel } from "./odata-format.js";
import { pageSize } from "./query-options.js";
import { headerOf, type Route, sendJson } from "./route.js";

function tableJson(ctx: RequestContext, name: string, level: MetadataLevel, single: boolean): string {
  const parts: string[] = [];
  if (single && level !== "nometadata") {
    parts.push(`"odata.metadata":${JSON.stringify(`${ctx.baseUrl}$metadata#Tables/@Element`)}`);
  }
  if (level === "fullmetadata") {
    const link = `Tables('${name}')`;
    parts.push(
      `"odata.type":${JSON.stringify(`${ctx.account}.Tables`)}`,
      `"odata.id":${JSON.stringify(`${ctx.baseUrl}${link}`)}`,
      `"odata.editLink":${JSON.stringify(link)}`,
    );
  }
  parts.push(`"TableName":${JSON.stringify(name)}`);
  return `{${parts.join(",")}}`;
}

/** `GET/POST /Tables` and `DELETE /Tables('name')`: list, create and delete tables. */
export const tablesRoute: Route = {
  name: "tables",
  xml: false,
  matches: (ctx) =>
    (ctx.resource.kind === "tables" || ctx.resource.kind === "table") && !ctx.query.has("comp"),
  async handle(ctx, { store, maxBodyBytes }) {
    const resource = ctx.resource;
    if (resource.kind === "table") {
      if (ctx.method === "GET") {
        // A point read of one table: answered from the listing.
        const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
        const name = await assertTableExists(store, resource.tableName);
        sendJson(ctx, 200, jsonContentType(level), tableJson(ctx, name, level, true));
        return;
      }
      if (ctx.method !== "DELETE") throw unsupportedVerb(ctx.method);
      await store.deleteTable(resource.tableName, { failIfMissing: true });
      send(ctx, 204, {});
      return;
    }
    if (ctx.method === "POST") {
      const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
      const body = parseEntityJson(await readBody(ctx.req, maxBodyBytes));
      const name = body.TableName;
      if (typeof name !== "string") throw invalidInput('The body must name the table: {"TableName":"…"}.');
      await store.createTable(name, { failIfExists: true });
      const location = `${ctx.baseUrl}Tables('${name}')`;
      const noContent = prefersNoContent(headerOf(ctx, "prefer"));
      if (noContent) {
        send(ctx, 204, { "preference-applied": "return-no-content", location, dataserviceid: location });
      } else {
        sendJson(ctx, 201, jsonContentType(level), tableJson(ctx, name, level, true), {
          ...(noContent === false ? { "preference-applied": "return-content" } : {}),
          location,
        });
      }
      return;
    }
    if (ctx.method !== "GET") throw unsupportedVerb(ctx.method);
    const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
    const filter = ctx.query.get("$filter") ?? undefined;
    const continuationToken = tableContinuationFrom(ctx.query);
    const { maxPageSize, none } = pageSize(ctx, store.capabilities.limits.maxPageSize);
    const pages = store.listTables(filter === undefined ? {} : { queryOptions: { filter } }).byPage({
      ...(maxPageSize ? { maxPageSize } : {}),
      ...(continuationToken ? { continuationToken } : {}),
    });
    const next = await pages.next();
    const page = next.done || none ? [] : next.value;
    const value = page.map((t) => tableJson(ctx, t.name, level, false)).join(",");
    const metadata =
      level === "nometadata" ? "" : `"odata.metadata":${JSON.stringify(`${ctx.baseUrl}$metadata#Tables`)},`;
    sendJson(
      ctx,
      200,
      jsonContentType(level),
      `{${metadata}"value":[${value}]}`,
      tableContinuationHeaders(none ? undefined : page.continuationToken),
    );
  },
};
