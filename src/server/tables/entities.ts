import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import type { Resource } from "../http/resource.js";
import { send } from "../http/responses.js";
import { entityContinuationFrom, entityContinuationHeaders } from "./continuation-headers.js";
import { type EntityLinks, entityJsonText, entityPath } from "./entity-body.js";
import { applyEntityWrite, planEntityWrite, prefersNoContent } from "./entity-write.js";
import { jsonContentType, metadataLevel } from "./odata-format.js";
import { pageSize, selection } from "./query-options.js";
import { headerOf, type Route, sendJson } from "./route.js";

function links(ctx: RequestContext, tableName: string): EntityLinks {
  return { baseUrl: ctx.baseUrl, account: ctx.account, tableName };
}

/** Queries (`GET /t()`), point reads, inserts (`POST /t`), updates, merges, upserts and deletes. */
export const entitiesRoute: Route = {
  name: "entities",
  xml: false,
  matches: (ctx) =>
    (ctx.resource.kind === "entities" || ctx.resource.kind === "entity") && !ctx.query.has("comp"),
  async handle(ctx, { store, maxBodyBytes }) {
    // matches() admitted only these kinds; the narrowing is for the compiler.
    const resource = ctx.resource as Extract<Resource, { kind: "entities" | "entity" }>;
    const { tableName } = resource;
    if (ctx.method === "GET") {
      const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
      const select = selection(ctx);
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
      const pages = store
        .table(tableName)
        .listEntities({ queryOptions })
        .byPage({ maxPageSize: pageSize(ctx), ...(continuationToken ? { continuationToken } : {}) });
      const next = await pages.next();
      const page = next.done ? [] : next.value;
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
        entityContinuationHeaders(page.continuationToken),
      );
      return;
    }
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
  },
};
