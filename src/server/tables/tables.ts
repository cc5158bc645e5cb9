import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { send } from "../http/responses.js";
import { invalidInput } from "../protocol/protocol-error.js";
import { assertTableExists } from "./acl.js";
import { tableContinuationFrom, tableContinuationHeaders } from "./continuation-headers.js";
import { parseEntityJson } from "./entity-body.js";
import { prefersNoContent } from "./entity-write.js";
import { jsonContentType, type MetadataLevel, metadataLevel } from "./odata-format.js";
import { pageSize } from "./query-options.js";
import { headerOf, type RouteServices, sendJson, type TableContext } from "./route.js";

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

type TableHandler = (ctx: TableContext, services: RouteServices) => Promise<void>;

/** Query Tables of one table (`GET /Tables('name')`): answered from the listing. */
export const getTable: TableHandler = async (ctx, { store }) => {
  if (ctx.resource.kind !== "table") return;
  const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
  const name = await assertTableExists(store, ctx.resource.tableName);
  sendJson(ctx, 200, jsonContentType(level), tableJson(ctx, name, level, true));
};

/** Delete Table (`DELETE /Tables('name')`). */
export const deleteTable: TableHandler = async (ctx, { store }) => {
  if (ctx.resource.kind !== "table") return;
  await store.deleteTable(ctx.resource.tableName, { failIfMissing: true });
  send(ctx, 204, {});
};

/** Create Table (`POST /Tables` with `{"TableName":…}`). */
export const createTable: TableHandler = async (ctx, { store, maxBodyBytes }) => {
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
};

/** Query Tables (`GET /Tables`): one page, filtered. */
export const queryTables: TableHandler = async (ctx, { store }) => {
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
};
