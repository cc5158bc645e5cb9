import type { OutgoingHttpHeaders } from "node:http";
import type { AccessPolicy, Store } from "../../store/index.js";
import type { CorsRuleCache } from "../cors-rules.js";
import type { RequestContext } from "../http/request-context.js";
import type { Resource } from "../http/resource.js";
import { send } from "../http/responses.js";

/** A Table service request: the context, and the table resource its path names. */
export interface TableContext extends RequestContext {
  readonly resource: Resource;
}

/** What a route handler works with, once the request is authenticated. */
export interface RouteServices {
  /** The store view the request may use (scoped to its token, if it has one). */
  readonly store: Store;
  /** How the request proved who it is: the account key, a shared access signature, a bearer token. */
  readonly via: "key" | "sas" | "bearer";
  readonly access?: AccessPolicy;
  /** The Table service's CORS rules (dropped from memory when they are set). */
  readonly cors: CorsRuleCache;
  /** Largest request body accepted (the service's 4 MiB, or less when the server is told so). */
  readonly maxBodyBytes: number;
}

/** `{"odata.metadata":…}` and friends: sends JSON with the standard headers. */
export function sendJson(
  ctx: RequestContext,
  status: number,
  contentType: string,
  body: string,
  headers: OutgoingHttpHeaders = {},
): void {
  send(
    ctx,
    status,
    {
      "content-type": contentType,
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
      ...headers,
    },
    body,
  );
}

/** The request's header as a string, or undefined. */
export function headerOf(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === "string" ? value : undefined;
}
