import type { IncomingMessage, ServerResponse } from "node:http";
import { TableKitError } from "../model/index.js";
import type { Store } from "../store/index.js";
import type { ServedAccount } from "./accounts.js";
import type { OAuthLevel } from "./auth/bearer-token.js";
import { applyCors, preflight } from "./cors.js";
import type { CorsRuleCache } from "./cors-rules.js";
import { type RequestContext, requestContext } from "./http/request-context.js";
import { errorParts, sendError, xmlErrorBody } from "./http/responses.js";
import { invalidHeader } from "./protocol/protocol-error.js";

/** Another application served beside the services under a path prefix (the web explorer). */
export interface Mount {
  /** A path prefix no account name can take, e.g. `/_explorer`. */
  readonly prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

/** What a service needs to answer: each account's store, the accounts, the body limit. */
export interface ServiceDeps {
  /** The store of an account: accounts are isolated (each has its own tables, queues and containers). */
  readonly store: (account: string) => Store;
  readonly accounts: ReadonlyMap<string, ServedAccount>;
  readonly maxBodyBytes: number;
  /** The server's directory, when it keeps its data on disk. */
  readonly location?: string;
  /** Bearer tokens: refused unless `basic` (Azurite's `--oauth basic`). */
  readonly oauth?: OAuthLevel;
}

/**
 * One storage service (Table, Queue or Blob) behind the shared HTTP machinery: it reads its resource
 * from the request's path, authenticates the request its own way and answers it; the handler does
 * the rest (versions, CORS, the secondary, errors, the log).
 */
export interface StorageService<C extends RequestContext = RequestContext> {
  readonly name: "Table" | "Queue" | "Blob";
  /** The CORS rules of each account (kept in the store, cached in memory). */
  readonly cors: CorsRuleCache;
  /** The service's view of a request: its resource parsed from `ctx.path` (InvalidUri otherwise). */
  context(ctx: RequestContext): C;
  /** Errors for this request in XML (Queue, Blob, the Table service's XML operations) or JSON. */
  errorsInXml(ctx: C | undefined): boolean;
  /** Authenticates the request and answers it. */
  answer(ctx: C): Promise<void>;
  /** True for a read-method request that changes data (Get Messages dequeues): the secondary refuses it. */
  writesOnRead?(ctx: C): boolean;
  /** Releases what the service holds beside the store (staged blocks), when the server stops. */
  close?(): void;
}

export interface HandlerOptions {
  readonly protocol: "http" | "https";
  readonly skipApiVersionCheck: boolean;
  readonly mounts?: readonly Mount[];
  /** Called once per request after it is answered (the --debug log). */
  readonly log?: (
    ctx: RequestContext | undefined,
    req: IncomingMessage,
    status: number,
    error?: unknown,
  ) => void;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** Builds a service's request listener: parse, authenticate, route, answer; errors in the service's shape. */
export function serviceRequestHandler<C extends RequestContext>(
  service: StorageService<C>,
  options: HandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const mounts = options.mounts ?? [];
  return (req, res) => {
    const mount = mounts.length === 0 ? undefined : mountOf(mounts, req.url ?? "");
    if (mount) {
      void Promise.resolve(mount.handle(req, res)).catch(() => res.destroy());
      return;
    }
    void answerRequest(service, options, req, res);
  };
}

function mountOf(mounts: readonly Mount[], url: string): Mount | undefined {
  for (const mount of mounts) if (url.startsWith(mount.prefix)) return mount;
  return undefined;
}

/**
 * One request, start to end. A plain async function, not closures made per request: every request
 * runs the same code, which the engine optimizes sooner (a server's first thousands of requests
 * are most of what a test run against it sends).
 */
async function answerRequest<C extends RequestContext>(
  service: StorageService<C>,
  options: HandlerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let base: RequestContext | undefined;
  let ctx: C | undefined;
  try {
    base = requestContext(req, res, options.protocol);
    if (
      !options.skipApiVersionCheck &&
      req.headers["x-ms-version"] !== undefined &&
      !VERSION.test(base.version)
    ) {
      throw invalidHeader(`The x-ms-version '${base.version}' is not a service version.`);
    }
    const rules = service.cors.known(base.account) ?? (await service.cors.of(base.account));
    if (base.method === "OPTIONS") {
      preflight(base, rules);
    } else {
      applyCors(base, rules);
      ctx = service.context(base);
      if (ctx.secondary && (!READS.has(ctx.method) || service.writesOnRead?.(ctx))) {
        throw new TableKitError("AuthorizationFailure", "The secondary location accepts reads only.");
      }
      await service.answer(ctx);
    }
  } catch (err) {
    answerError(service, req, res, base, ctx, err);
    options.log?.(base, req, res.statusCode, err);
    return;
  }
  options.log?.(base, req, res.statusCode);
}

/** Answers what a request threw, in the service's shape; a response already begun is cut off. */
function answerError<C extends RequestContext>(
  service: StorageService<C>,
  req: IncomingMessage,
  res: ServerResponse,
  base: RequestContext | undefined,
  ctx: C | undefined,
  err: unknown,
): void {
  if (res.headersSent) {
    res.destroy();
  } else if (base) {
    // A body left unread (refused early, or too large) is not worth reading: close after answering.
    if (!req.complete) res.setHeader("connection", "close");
    sendError(base, err, service.errorsInXml(ctx));
  } else {
    const { status, code, message } = errorParts(err);
    const xml = service.name !== "Table";
    const body = xml
      ? xmlErrorBody(code, message)
      : JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: message } } });
    res.writeHead(status, {
      "x-ms-error-code": code,
      "content-type": xml ? "application/xml" : "application/json",
      connection: "close",
    });
    res.end(body);
  }
}
