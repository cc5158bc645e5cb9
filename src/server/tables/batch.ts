import { type TableEntityResult, TableKitError } from "../../model/index.js";
import {
  RECEIVED_BODY_BYTES,
  type ReceivedTransactionOptions,
  STORED_ENTITY,
  type Store,
  type TransactionAction,
  type TransactionSubResponse,
} from "../../store/index.js";
import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { parseResource } from "../http/resource.js";
import { errorParts, jsonErrorBody, send } from "../http/responses.js";
import { invalidInput, invalidUri } from "../protocol/protocol-error.js";
import { type BatchSubRequest, multipartBoundary, parseBatchBody } from "./batch-request.js";
import {
  type BatchPartResponse,
  type BatchResponse,
  batchQueryResponse,
  batchResponse,
} from "./batch-response.js";
import { entityJsonText, entityPath } from "./entity-body.js";
import { planEntityWrite, prefersNoContent } from "./entity-write.js";
import { jsonContentType, metadataLevel } from "./odata-format.js";
import { selection } from "./query-options.js";
import { headerOf, type RouteServices, type TableContext } from "./route.js";

interface PlannedAction {
  readonly action: TransactionAction;
  readonly tableName: string;
  readonly noContent: boolean | undefined;
  /** The part's own Accept header: the metadata level of an inserted entity it gets back. */
  readonly accept: string | undefined;
}

/**
 * What a sub-request's URL names. A path that names an account (path-style) must name the batch's
 * own: a batch acts in the account it was authorized for, never in another.
 */
function resourceOf(ctx: RequestContext, url: string): ReturnType<typeof parseResource> {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, "http://batch.invalid").pathname);
  } catch {
    throw invalidUri("A batch operation's URL is not valid.");
  }
  const segments = path.replace(/^\/+/, "").split("/");
  if (segments.length > 2) throw invalidUri("A batch operation's URL is not valid.");
  if (segments.length === 2 && segments[0] !== ctx.account && segments[0] !== `${ctx.account}-secondary`) {
    throw invalidInput("A batch operation addresses another account than the batch.");
  }
  return parseResource(segments[segments.length - 1]!);
}

/** One sub-request as the core's transaction action, by the same path as a request of its own. */
function plan(ctx: RequestContext, sub: BatchSubRequest): PlannedAction {
  const { tableName, action } = planEntityWrite({
    method: sub.method,
    resource: resourceOf(ctx, sub.url),
    ifMatch: sub.headers["if-match"],
    body: sub.body,
  });
  return { action, tableName, noContent: prefersNoContent(sub.headers.prefer), accept: sub.headers.accept };
}

function failurePart(ctx: RequestContext, err: unknown, index: number | undefined): BatchPartResponse {
  const { status, code, message } = errorParts(err);
  const text = index !== undefined && !/^\d+:/.test(message) ? `${index}:${message}` : message;
  return {
    status,
    headers: {
      DataServiceVersion: "3.0;",
      "Content-Type": "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
    },
    body: jsonErrorBody(ctx, code, text),
  };
}

/**
 * An insert asked with `Prefer: return-content`: 201 Created with the entity as stored, in the
 * metadata level its Accept header names, as the service answers it inside a changeset.
 */
function insertedPart(
  ctx: RequestContext,
  tableName: string,
  p: PlannedAction,
  sub: TransactionSubResponse | undefined,
): BatchPartResponse {
  const entity = (sub as { [STORED_ENTITY]?: TableEntityResult } | undefined)?.[STORED_ENTITY];
  const keys = p.action[1] as { partitionKey: string; rowKey: string };
  const location = `${ctx.baseUrl}${entityPath(tableName, keys.partitionKey, keys.rowKey)}`;
  const level = metadataLevel(null, p.accept ?? headerOf(ctx, "accept"));
  const links = { baseUrl: ctx.baseUrl, account: ctx.account, tableName };
  return {
    status: 201,
    headers: {
      "Preference-Applied": "return-content",
      DataServiceVersion: "3.0;",
      "Content-Type": jsonContentType(level),
      Location: location,
      DataServiceId: location,
      ...(sub?.etag ? { ETag: sub.etag } : {}),
    },
    ...(entity ? { body: entityJsonText(entity, level, links, undefined, true) } : {}),
  };
}

function respond(ctx: RequestContext, { contentType, body }: BatchResponse): void {
  send(ctx, 202, { "content-type": contentType, "cache-control": "no-cache" }, body);
}

/**
 * A batch's lone query: the service takes a single retrieve (one entity, by PartitionKey and
 * RowKey) as a batch's only operation, and answers it as the batch's one part.
 */
async function answerQuery(ctx: RequestContext, store: Store, query: BatchSubRequest): Promise<void> {
  let part: BatchPartResponse;
  try {
    const resource = resourceOf(ctx, query.url);
    if (resource.kind !== "entity") {
      throw invalidInput("A batch's query retrieves one entity: <table>(PartitionKey='…',RowKey='…').");
    }
    const params = new URL(query.url, "http://batch.invalid").searchParams;
    const level = metadataLevel(params.get("$format"), query.headers.accept ?? headerOf(ctx, "accept"));
    const select = selection(params);
    const { tableName, partitionKey, rowKey } = resource;
    const entity = await store
      .table(tableName)
      .getEntity(partitionKey, rowKey, select ? { queryOptions: { select } } : {});
    const links = { baseUrl: ctx.baseUrl, account: ctx.account, tableName };
    part = {
      status: 200,
      headers: { DataServiceVersion: "3.0;", "Content-Type": jsonContentType(level), ETag: entity.etag },
      body: entityJsonText(entity, level, links, select, true),
    };
  } catch (err) {
    part = failurePart(ctx, err, 0);
  }
  respond(ctx, batchQueryResponse(part));
}

/** Entity Group Transaction (`POST /$batch`): all or nothing, answered in the service's framing. */
export async function entityGroupTransaction(
  ctx: TableContext,
  { store, maxBodyBytes }: RouteServices,
): Promise<void> {
  const boundary = multipartBoundary(headerOf(ctx, "content-type"));
  if (!boundary) throw invalidInput("A batch must be multipart/mixed with a boundary.");
  // The service refuses a batch body past 4 MiB as received outright: 413 RequestBodyTooLarge, no
  // batch response. What the client sent is what counts (not annotations it never wrote).
  const text = await readBody(ctx.req, maxBodyBytes);
  const received: ReceivedTransactionOptions = { [RECEIVED_BODY_BYTES]: Buffer.byteLength(text) };
  const request = parseBatchBody(text, boundary);
  if (request.kind === "query") return answerQuery(ctx, store, request.query);
  const subRequests = request.operations;
  const planned: PlannedAction[] = [];
  for (let i = 0; i < subRequests.length; i++) {
    try {
      const p = plan(ctx, subRequests[i]!);
      if (planned.length > 0 && p.tableName.toLowerCase() !== planned[0]!.tableName.toLowerCase()) {
        throw invalidInput("All operations of a batch must address the same table.");
      }
      planned.push(p);
    } catch (err) {
      respond(ctx, batchResponse([failurePart(ctx, err, i)]));
      return;
    }
  }
  const tableName = planned[0]!.tableName;
  let response: Awaited<ReturnType<ReturnType<typeof store.table>["submitTransaction"]>>;
  try {
    response = await store.table(tableName).submitTransaction(
      planned.map((p) => p.action),
      received,
    );
  } catch (err) {
    // The core's payload count past the limit is the same refusal as a body past it.
    if (!(err instanceof TableKitError) || err.code === "RequestBodyTooLarge") throw err;
    respond(ctx, batchResponse([failurePart(ctx, err, err.index)]));
    return;
  }
  const parts = planned.map((p, i): BatchPartResponse => {
    const sub = response.subResponses[i];
    const etag = sub?.etag;
    if (p.action[0] === "create" && p.noContent === false) return insertedPart(ctx, tableName, p, sub);
    const headers: Record<string, string> = { DataServiceVersion: "1.0;" };
    if (p.action[0] === "create") {
      const entity = p.action[1];
      const location = `${ctx.baseUrl}${entityPath(tableName, entity.partitionKey, entity.rowKey)}`;
      headers["Preference-Applied"] = "return-no-content";
      headers.Location = location;
      headers.DataServiceId = location;
    }
    if (etag) headers.ETag = etag;
    return { status: 204, headers };
  });
  respond(ctx, batchResponse(parts));
}
