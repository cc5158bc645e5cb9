import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import type { Resource } from "../http/resource.js";
import { send } from "../http/responses.js";
import { entityContinuationFrom, entityContinuationHeaders } from "./continuation-headers.js";
import { type EntityLinks, entityJsonText, entityPath } from "./entity-body.js";
import { applyEntityWrite, planEntityWrite, prefersNoContent } from "./entity-write.js";
import { jsonContentType, metadataLevel } from "./odata-format.js";
import { pageSize, selection } from "./query-options.js";
import { headerOf, type RouteServices, sendJson, type TableContext } from "./route.js";

function links(ctx: RequestContext, tableName: string): EntityLinks {
  return { baseUrl: ctx.baseUrl, account: ctx.account, tableName };
}

type EntityResource = Extract<Resource, { kind: "entities" | "entity" }>;

/** Query Entities: a page of a query (`GET /t()`) or one entity by its keys (`GET /t(PartitionKey=…,RowKey=…)`). */
export async function queryEntities(ctx: TableContext, { store }: RouteServices): Promise<void> {
  // The operation list routes only these kinds here; the narrowing is for the compiler.
  const resource = ctx.resource as EntityResource;
  const { tableName } = resource;
  const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
  const select = selection(ctx.query);
  if (resource.kind === "entity") {
    const entity = await store
      .table(tableName)
      .getEntity(resource.partitionKey, resource.rowKey, select ? { queryOptions: { select } } : {});
    sendJson(
      ctx,
      200,
      jsonContentType(level),
      entityJsonText(entity, level, links(ctx, tableName), select, true),
      {
        etag: entity.etag,
      },
    );
    return;
  }
  const filter = ctx.query.get("$filter") ?? undefined;
  const continuationToken = entityContinuationFrom(ctx.query);
  const queryOptions = { ...(filter === undefined ? {} : { filter }), ...(select ? { select } : {}) };
  const { maxPageSize, none } = pageSize(ctx, store.capabilities.limits.maxPageSize);
  const pages = store
    .table(tableName)
    .listEntities({ queryOptions })
    .byPage({
      ...(maxPageSize ? { maxPageSize } : {}),
      ...(continuationToken ? { continuationToken } : {}),
    });
  const next = await pages.next();
  const page = next.done || none ? [] : next.value;
  const l = links(ctx, tableName);
  const value = page.map((e) => entityJsonText(e, level, l, select, false)).join(",");
  const metadata =
    level === "nometadata"
      ? ""
      : `"odata.metadata":${JSON.stringify(`${ctx.baseUrl}$metadata#${tableName}${select ? `&$select=${select.join(",")}` : ""}`)},`;
  sendJson(
    ctx,
    200,
    jsonContentType(level),
    `{${metadata}"value":[${value}]}`,
    entityContinuationHeaders(none ? undefined : page.continuationToken),
  );
}

/** Insert (`POST /t`), Update, Merge, Insert Or Replace, Insert Or Merge and Delete Entity: one planned write. */
export async function writeEntity(ctx: TableContext, { store, maxBodyBytes }: RouteServices): Promise<void> {
  const resource = ctx.resource as EntityResource;
  const { tableName } = resource;
  const text = ctx.method === "DELETE" ? "" : await readBody(ctx.req, maxBodyBytes);
  const { action } = planEntityWrite({
    method: ctx.method,
    resource,
    ifMatch: headerOf(ctx, "if-match"),
    body: text,
  });
  const created = action[0] === "create";
  const noContent = created ? prefersNoContent(headerOf(ctx, "prefer")) : undefined;
  const result = await applyEntityWrite(store.table(tableName), action, created && noContent !== true);
  if (!result) {
    send(ctx, 204, {});
    return;
  }
  if (!created) {
    send(ctx, 204, { etag: result.etag });
    return;
  }
  const location = `${ctx.baseUrl}${entityPath(tableName, action[1].partitionKey, action[1].rowKey)}`;
  if (!result.entity) {
    send(ctx, 204, {
      etag: result.etag,
      location,
      dataserviceid: location,
      "preference-applied": "return-no-content",
    });
    return;
  }
  const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
  sendJson(
    ctx,
    201,
    jsonContentType(level),
    entityJsonText(result.entity, level, links(ctx, tableName), undefined, true),
    {
      etag: result.etag,
      location,
      ...(noContent === false ? { "preference-applied": "return-content" } : {}),
    },
  );
}
