import { TableKitError } from "../../model/index.js";
import {
  RECEIVED_BODY_BYTES,
  type ReceivedTransactionOptions,
  type TransactionAction,
} from "../../store/index.js";
import { readBody } from "../http/read-body.js";
import type { RequestContext } from "../http/request-context.js";
import { parseResource } from "../http/resource.js";
import { errorParts, jsonErrorBody, send } from "../http/responses.js";
import { invalidInput, invalidUri, unsupportedVerb } from "../protocol/protocol-error.js";
import { type BatchSubRequest, multipartBoundary, parseBatchBody } from "./batch-request.js";
import { type BatchPartResponse, batchResponse } from "./batch-response.js";
import { entityPath } from "./entity-body.js";
import { planEntityWrite, prefersNoContent } from "./entity-write.js";
import { headerOf, type Route } from "./route.js";

interface PlannedAction {
  readonly action: TransactionAction;
  readonly tableName: string;
  readonly noContent: boolean | undefined;
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
  return { action, tableName, noContent: prefersNoContent(sub.headers.prefer) };
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

function respond(ctx: RequestContext, parts: BatchPartResponse[]): void {
  const { contentType, body } = batchResponse(parts);
  send(ctx, 202, { "content-type": contentType, "cache-control": "no-cache" }, body);
}

/** `POST /$batch`: one entity group transaction, all or nothing, answered in the service's framing. */
export const batchRoute: Route = {
  name: "batch",
  xml: false,
  matches: (ctx) => ctx.resource.kind === "batch",
  async handle(ctx, { store, maxBodyBytes }) {
    if (ctx.method !== "POST") throw unsupportedVerb(ctx.method);
    const boundary = multipartBoundary(headerOf(ctx, "content-type"));
    if (!boundary) throw invalidInput("A batch must be multipart/mixed with a boundary.");
    // The service refuses a batch body past 4 MiB as received outright: 413 RequestBodyTooLarge, no
    // batch response. What the client sent is what counts (not annotations it never wrote).
    const text = await readBody(ctx.req, maxBodyBytes);
    const received: ReceivedTransactionOptions = { [RECEIVED_BODY_BYTES]: Buffer.byteLength(text) };
    const subRequests = parseBatchBody(text, boundary);
    const planned: PlannedAction[] = [];
    for (let i = 0; i < subRequests.length; i++) {
      try {
        const p = plan(ctx, subRequests[i]!);
        if (planned.length > 0 && p.tableName.toLowerCase() !== planned[0]!.tableName.toLowerCase()) {
          throw invalidInput("All operations of a batch must address the same table.");
        }
        planned.push(p);
      } catch (err) {
        respond(ctx, [failurePart(ctx, err, i)]);
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
      respond(ctx, [failurePart(ctx, err, err.index)]);
      return;
    }
    const parts = planned.map((p, i): BatchPartResponse => {
      const etag = response.subResponses[i]?.etag;
      const headers: Record<string, string> = { DataServiceVersion: "1.0;" };
      if (p.action[0] === "create") {
        const entity = p.action[1];
        const location = `${ctx.baseUrl}${entityPath(tableName, entity.partitionKey, entity.rowKey)}`;
        if (p.noContent !== false) {
          headers["Preference-Applied"] = "return-no-content";
        }
        headers.Location = location;
        headers.DataServiceId = location;
      }
      if (etag) headers.ETag = etag;
      return { status: 204, headers };
    });
    respond(ctx, parts);
  },
};
