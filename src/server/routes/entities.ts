import { DateTime, normalizeEntity, TableKitError, toEntityResult } from "../../model/index.js";
import type { Store, WriteResponse } from "../../store/index.js";
import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { send } from "../http/responses.js";
import { entityContinuationFrom, entityContinuationHeaders } from "../protocol/continuation-headers.js";
import {
  type EntityLinks,
  entityFromJson,
  entityJsonText,
  entityPath,
  parseEntityJson,
} from "../protocol/entity-body.js";
import { jsonContentType, metadataLevel } from "../protocol/odata-format.js";
import { unsupportedVerb } from "../protocol/protocol-error.js";
import { pageSize, selection } from "./query-options.js";
import { headerOf, prefersNoContent, type Route, sendJson } from "./route.js";

function links(ctx: RequestContext, tableName: string): EntityLinks {
  return { baseUrl: ctx.baseUrl, account: ctx.account, tableName };
}

/** The write an entity request makes: PUT replaces, PATCH/MERGE merges; with If-Match it updates, without it upserts. */
async function writeEntity(
  store: Store,
  tableName: string,
  method: string,
  entity: Record<string, unknown>,
  ifMatch: string | undefined,
): Promise<WriteResponse | undefined> {
  const table = store.table(tableName);
  switch (method) {
    case "POST":
      return table.createEntity(entity as never);
    case "PUT":
    case "PATCH":
    case "MERGE": {
      const mode = method === "PUT" ? "Replace" : "Merge";
      return ifMatch === undefined
        ? table.upsertEntity(entity as never, mode)
        : table.updateEntity(entity as never, mode, { etag: ifMatch });
    }
    case "DELETE":
      if (ifMatch === undefined) {
        throw new TableKitError("InvalidInput", "A delete needs an If-Match header (an ETag or *).");
      }
      await table.deleteEntity(entity.partitionKey as string, entity.rowKey as string, { etag: ifMatch });
      return undefined;
    default:
      throw unsupportedVerb(method);
  }
}

/** Queries (`GET /t()`), point reads, inserts (`POST /t`), updates, merges, upserts and deletes. */
export const entitiesRoute: Route = {
  name: "entities",
  xml: false,
  matches: (ctx) =>
    (ctx.resource.kind === "entities" || ctx.resource.kind === "entity") && !ctx.query.has("comp"),
  async handle(ctx, { store, maxBodyBytes }) {
    const resource = ctx.resource;
    if (resource.kind !== "entities" && resource.kind !== "entity") return;
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
    const keys =
      resource.kind === "entity"
        ? { partitionKey: resource.partitionKey, rowKey: resource.rowKey }
        : undefined;
    if ((ctx.method === "POST") !== (resource.kind === "entities")) throw unsupportedVerb(ctx.method);
    const text = ctx.method === "DELETE" ? "" : await readBody(ctx.req, maxBodyBytes);
    const entity = ctx.method === "DELETE" ? { ...keys } : entityFromJson(parseEntityJson(text), keys);
    const result = await writeEntity(store, tableName, ctx.method, entity, headerOf(ctx, "if-match"));
    if (!result) {
      send(ctx, 204, {});
      return;
    }
    if (ctx.method !== "POST") {
      send(ctx, 204, { etag: result.etag });
      return;
    }
    const path = entityPath(tableName, entity.partitionKey as string, entity.rowKey as string);
    const location = `${ctx.baseUrl}${path}`;
    const noContent = prefersNoContent(ctx);
    if (noContent) {
      send(ctx, 204, {
        etag: result.etag,
        location,
        dataserviceid: location,
        "preference-applied": "return-no-content",
      });
      return;
    }
    // The entity as stored: its normalized properties (the core accepted them) and the write's ETag.
    const level = metadataLevel(ctx.query.get("$format"), headerOf(ctx, "accept"));
    const stored = normalizeEntity(entity, store.capabilities.limits);
    const output = toEntityResult({
      ...stored,
      etag: result.etag,
      timestamp: DateTime.parse(result.timestamp),
    });
    sendJson(
      ctx,
      201,
      jsonContentType(level),
      entityJsonText(output, level, links(ctx, tableName), undefined, true),
      {
        etag: result.etag,
        location,
        ...(noContent === false ? { "preference-applied": "return-content" } : {}),
      },
    );
  },
};
