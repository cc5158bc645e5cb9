import type { OutgoingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { TableKitError } from "../../model/index.js";
import { sendBody, sendsItself } from "../../store/blobs/blob-body.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { escapeXml } from "../protocol/xml.js";
import type { RequestContext } from "./request-context.js";

/**
 * Headers every response carries: request id, version (echoed), client request id. `Date` is
 * Node's (`sendDate`, on for every response): the same text, formatted once a second, not per response.
 */
export function standardHeaders(ctx: RequestContext): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    "x-ms-request-id": ctx.requestId,
    "x-ms-version": ctx.version,
    server: "tablekit",
  };
  const clientId = ctx.req.headers["x-ms-client-request-id"];
  if (typeof clientId === "string") headers["x-ms-client-request-id"] = clientId;
  return headers;
}

/**
 * Sends a response with the standard headers; `body` as given (already serialized). The headers go
 * to `writeHead` as one flat name/value list: Node writes such a list as it is, where an object is
 * read back key by key.
 */
export function send(ctx: RequestContext, status: number, headers: OutgoingHttpHeaders, body?: string): void {
  const list: (string | number | readonly string[])[] = [];
  // A route's own value for a standard header replaces the standard one.
  const standard = standardHeaders(ctx);
  for (const name in standard) if (headers[name] === undefined) list.push(name, standard[name]!);
  const length = body !== undefined ? Buffer.byteLength(body) : status !== 204 && status !== 304 ? 0 : -1;
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !(length >= 0 && name === "content-length")) list.push(name, value);
  }
  if (length >= 0) list.push("content-length", length);
  // Headers set earlier with setHeader (CORS) are merged in by writeHead.
  ctx.res.writeHead(status, list as unknown as OutgoingHttpHeaders);
  ctx.res.end(body);
}

/** Response bodies up to this size are gathered and sent in one write. */
const WHOLE_RESPONSE_BYTES = 64 * 1024;

/**
 * Streams `body` (`length` bytes) as the response's bytes (headers already written); resolves once they are sent.
 * A failing body destroys the response, a response closed early destroys the body (its file
 * closes). Cheaper than stream.pipeline per request, which makes an AbortController and its
 * DOMException each time: a small blob's download is mostly this.
 */
export async function streamResponse(ctx: RequestContext, body: Readable, length: number): Promise<void> {
  if (length <= WHOLE_RESPONSE_BYTES) {
    // Small: gathered first, then headers and bytes leave in one write.
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      body.on("data", (chunk: Buffer) => chunks.push(chunk));
      body.once("end", resolve);
      body.once("error", reject);
    }).catch((err: unknown) => {
      ctx.res.destroy(err as Error);
      throw err;
    });
    ctx.res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    return;
  }
  // A file body keeps its reads ahead of the socket in buffers it reuses: no garbage per chunk.
  if (sendsItself(body)) return body[sendBody](ctx.res);
  body.once("error", (err) => ctx.res.destroy(err));
  ctx.res.once("close", () => body.destroy());
  body.pipe(ctx.res);
  await finished(ctx.res);
}

/** The service's code, status and message for anything a handler threw. */
export function errorParts(err: unknown): { status: number; code: string; message: string } {
  if (err instanceof TableKitError) {
    // Client-side codes the service would not send: answer them as the service's equivalents.
    if (err.code === "InvalidContinuationToken")
      return { status: 400, code: "InvalidInput", message: err.message };
    if (err.code === "InvalidFilter") return { status: 400, code: "InvalidInput", message: err.message };
    // A copy source that refused the read: the service answers with the source's own status (403, 409, …).
    const source = err.code === "CannotVerifyCopySource" ? err.details?.sourceStatus : undefined;
    if (typeof source === "number" && source >= 400 && source < 500)
      return { status: source, code: err.code, message: err.message };
    return { status: err.status, code: err.code, message: err.message };
  }
  if (err instanceof ProtocolError) return { status: err.status, code: err.code, message: err.message };
  return { status: 500, code: "InternalError", message: "The server encountered an internal error." };
}

/** The message as the service writes it: the text, then the request id and time. */
export function serviceMessage(ctx: RequestContext, message: string): string {
  return `${message}\nRequestId:${ctx.requestId}\nTime:${new Date().toISOString()}`;
}

/** `{"odata.error":{…}}` on one line (batch responses are parsed by regex). */
export function jsonErrorBody(ctx: RequestContext, code: string, message: string): string {
  return JSON.stringify({
    "odata.error": { code, message: { lang: "en-US", value: serviceMessage(ctx, message) } },
  });
}

/** `<Error><Code>…</Code><Message>…</Message></Error>`: the Queue and Blob services' (and some Table) errors. */
export function xmlErrorBody(code: string, message: string, authenticationDetail?: string): string {
  const detail =
    authenticationDetail === undefined
      ? ""
      : `<AuthenticationErrorDetail>${escapeXml(authenticationDetail)}</AuthenticationErrorDetail>`;
  return `<?xml version="1.0" encoding="utf-8"?><Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message>${detail}</Error>`;
}

/**
 * An authentication failure's detail (why the token or signature was refused), which the Queue and
 * Blob services write in `<AuthenticationErrorDetail>` after a fixed `<Message>`, not in it.
 */
function authenticationDetail(
  err: unknown,
  message: string,
): { message: string; detail: string } | undefined {
  const detail = err instanceof TableKitError ? err.details?.authenticationErrorDetail : undefined;
  if (typeof detail !== "string" || !message.endsWith(detail)) return undefined;
  return { message: message.slice(0, message.length - detail.length).trimEnd(), detail };
}

/**
 * The fixed wording the Queue and Blob services give some codes (the real service's messages, which
 * clients and Azurite's tests look for); our own detail follows it.
 */
const XML_SERVICE_MESSAGES: Readonly<Record<string, string>> = {
  InvalidResourceName: "The specified resource name contains invalid characters.",
  RequestBodyTooLarge: "The request body is too large and exceeds the maximum permissible limit.",
  OutOfRangeQueryParameterValue:
    "One of the query parameters specified in the request URI is outside the permissible range.",
  BlobIsSealed:
    "The specified blob is sealed, and its contents can't be modified unless the blob is re-created after a delete.",
};

/** `message` led by the service's fixed wording for `code`, when it has one and the message lacks it. */
export function xmlServiceMessage(code: string, message: string): string {
  const fixed = XML_SERVICE_MESSAGES[code];
  if (fixed === undefined || message.startsWith(fixed.slice(0, -1))) return message;
  return `${fixed} ${message}`;
}

/** Sends an error in JSON, or in XML for the operations the service answers in XML. */
export function sendError(ctx: RequestContext, err: unknown, xml: boolean): void {
  const { status, code, message: text } = errorParts(err);
  const message = xml ? xmlServiceMessage(code, text) : text;
  const headers: OutgoingHttpHeaders = { "x-ms-error-code": code };
  if (xml) {
    // A HEAD answer has no body, so no type (the SDKs check a failed HEAD carries none).
    if (ctx.req.method !== "HEAD") headers["content-type"] = "application/xml";
    const auth = authenticationDetail(err, message);
    const body = auth
      ? xmlErrorBody(code, serviceMessage(ctx, auth.message), auth.detail)
      : xmlErrorBody(code, serviceMessage(ctx, message));
    send(ctx, status, headers, ctx.req.method === "HEAD" ? undefined : body);
    return;
  }
  headers["content-type"] = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
  send(ctx, status, headers, jsonErrorBody(ctx, code, message));
}
