import { randomUUID } from "node:crypto";
import { TableKitError } from "../../model/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { type RequestContext, requestContext } from "../http/request-context.js";
import { send, sendError } from "../http/responses.js";
import { ProtocolError, statusText } from "../protocol/protocol-error.js";
import { PartResponse, subRequestMessage } from "./batch-part-response.js";
import { batchBoundary, batchInvalid, MAX_BATCH_BODY_BYTES, parseBatchBody } from "./batch-request.js";
import { parseBlobPath } from "./blob-resource.js";
import type { BlobContext } from "./blob-service.js";

/**
 * Blob Batch (`POST /?comp=batch`, `POST /container?restype=container&comp=batch`): up to 256
 * Delete Blob or Set Blob Tier sub-requests, all of one kind, each answered by the blob service's
 * own handling of a single request — its authentication (the sub-request's own SharedKey
 * signature, SAS or bearer token), authorization, conditions and errors — and written back as one
 * multipart/mixed part each, in order. The batch itself only has to be authenticated: it does
 * nothing but carry the sub-requests (docs/server.md).
 */

/** Answers one request as the blob service answers it (authenticate, route, answer). */
export type AnswerOne = (ctx: RequestContext) => Promise<void>;

type BatchKind = "delete" | "tier";

/** Response headers of a part: the sub-response's, without those that belong to the connection. */
const CONNECTION_HEADERS = new Set(["connection", "server", "date", "keep-alive", "transfer-encoding"]);

function subKind(method: string, sub: RequestContext): BatchKind {
  const resource = parseBlobPath(sub.path);
  const comp = sub.query.get("comp");
  if (resource.kind === "blob" && method === "DELETE" && comp === null) return "delete";
  if (resource.kind === "blob" && method === "PUT" && comp === "tier") return "tier";
  throw batchInvalid("A batch carries only Delete Blob and Set Blob Tier sub-requests.");
}

/** The sub-request's credentials: its own, or else the batch's SAS or bearer token (a SharedKey signature is per request). */
function inheritCredentials(
  ctx: BlobContext,
  target: string,
  headers: Record<string, string>,
): { target: string; headers: Record<string, string> } {
  const query = target.includes("?") ? new URLSearchParams(target.slice(target.indexOf("?") + 1)) : undefined;
  if (headers.authorization !== undefined || query?.has("sig")) return { target, headers };
  const outer = ctx.req.headers.authorization;
  if (typeof outer === "string" && /^bearer\s/i.test(outer)) {
    return { target, headers: { ...headers, authorization: outer } };
  }
  if (!ctx.query.has("sig")) return { target, headers };
  const sas = new URLSearchParams(ctx.query);
  sas.delete("comp");
  sas.delete("restype");
  return { target: `${target}${query ? "&" : "?"}${sas.toString()}`, headers };
}

interface PreparedSub {
  readonly contentId: string;
  readonly message: ReturnType<typeof subRequestMessage>;
  readonly response: PartResponse;
  readonly ctx: RequestContext;
}

/** Parses and checks every sub-request before any runs: one bad part refuses the whole batch. */
async function prepare(ctx: BlobContext): Promise<PreparedSub[]> {
  const boundary = batchBoundary(header(ctx, "content-type"));
  const body = await readBody(ctx.req, MAX_BATCH_BODY_BYTES);
  const subs = parseBatchBody(body, boundary);
  const host = header(ctx, "host") ?? "127.0.0.1";
  const clientIp = ctx.clientIp;
  const scope = ctx.resource.kind === "container" ? ctx.resource.container : undefined;
  let kind: BatchKind | undefined;
  return subs.map((sub) => {
    // In a container's batch on a path-style URL, Python's SDK names each blob without the account
    // (`/container/blob`, as on the service's host-style URLs): read as the batch's own account.
    const relative =
      ctx.pathStyle &&
      scope !== undefined &&
      sub.target.startsWith(`/${encodeURIComponent(scope)}/`) &&
      !sub.target.startsWith(`/${ctx.account}/`);
    const addressed = relative ? `/${ctx.account}${sub.target}` : sub.target;
    const { target, headers } = inheritCredentials(ctx, addressed, { ...sub.headers, host });
    const message = subRequestMessage(sub.method, target, headers, clientIp);
    const response = new PartResponse();
    let parsed: RequestContext;
    try {
      parsed = requestContext(message, response.asServerResponse(), ctx.protocol);
    } catch {
      throw batchInvalid(`Part ${sub.contentId}'s request target is not a valid URI.`);
    }
    if (relative) parsed = { ...parsed, signedPath: sub.target.split("?")[0]! };
    // The secondary's read-only rule is the handler's, which sub-requests skip: one on it is refused here.
    if (parsed.account !== ctx.account || parsed.secondary !== ctx.secondary) {
      throw batchInvalid("A sub-request addresses another account or location.");
    }
    const subResource = parseBlobPath(parsed.path);
    if (scope !== undefined && (subResource.kind !== "blob" || subResource.container !== scope)) {
      throw batchInvalid("A sub-request of a container's batch addresses another container.");
    }
    const thisKind = subKind(sub.method, parsed);
    if (kind !== undefined && thisKind !== kind) {
      throw new ProtocolError(
        400,
        "AllBatchSubRequestsShouldBeSameApi",
        "All batch subrequests should be the same api.",
      );
    }
    kind = thisKind;
    // The batch's version applies to every sub-request (the SDKs send none, and sign without it).
    return { contentId: sub.contentId, message, response, ctx: { ...parsed, version: ctx.version } };
  });
}

function header(ctx: BlobContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}

function partText(contentId: string | undefined, response: PartResponse): string {
  const lines = ["Content-Type: application/http"];
  if (contentId !== undefined) lines.push(`Content-ID: ${contentId}`);
  lines.push("", `HTTP/1.1 ${statusText(response.statusCode)}`);
  for (const [name, value] of response.headers) {
    if (!CONNECTION_HEADERS.has(name)) lines.push(`${name}: ${value}`);
  }
  lines.push("");
  if (response.body !== "") lines.push(response.body);
  return `${lines.join("\r\n")}\r\n`;
}

/** One error answered as the batch's only part (the service's way of refusing a malformed batch, with 202). */
function errorPart(ctx: BlobContext, err: unknown): PartResponse {
  const response = new PartResponse();
  const message = subRequestMessage("POST", ctx.req.url ?? "/", {}, ctx.clientIp);
  sendError({ ...ctx, req: message, res: response.asServerResponse() }, err, true);
  return response;
}

export async function answerBatch(
  ctx: BlobContext,
  caller: StorageCaller,
  answerOne: AnswerOne,
): Promise<void> {
  const restype = ctx.query.get("restype");
  // The SDKs send restype=container to the service too (one operation for both scopes).
  if (ctx.resource.kind === "container" ? restype !== "container" : restype === "account") {
    throw new ProtocolError(
      400,
      "InvalidQueryParameterValue",
      "A container's batch takes restype=container.",
    );
  }
  if (caller.anonymous) {
    throw new TableKitError(
      "AuthenticationFailed",
      "Server failed to authenticate the request. A batch needs the account key, a shared access signature or a bearer token.",
    );
  }
  if (header(ctx, "content-type") === undefined) batchBoundary(undefined);
  const parts: { contentId: string | undefined; response: PartResponse }[] = [];
  let prepared: PreparedSub[] | undefined;
  try {
    prepared = await prepare(ctx);
  } catch (err) {
    // Too large is the batch's own status; every other refusal is its only part, and nothing ran.
    if (err instanceof ProtocolError && err.status === 413) throw err;
    parts.push({ contentId: undefined, response: errorPart(ctx, err) });
  }
  for (const sub of prepared ?? []) {
    try {
      await answerOne(sub.ctx);
    } catch (err) {
      if (!sub.response.headersSent) sendError(sub.ctx, err, true);
    }
    parts.push({ contentId: sub.contentId, response: sub.response });
  }
  const boundary = `batchresponse_${randomUUID()}`;
  const body = `${parts.map((p) => `--${boundary}\r\n${partText(p.contentId, p.response)}`).join("")}--${boundary}--\r\n`;
  send(ctx, 202, { "content-type": `multipart/mixed; boundary=${boundary}` }, body);
}
