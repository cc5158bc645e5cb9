import type { IncomingMessage, ServerResponse } from "node:http";
import { TableKitError } from "../model/index.js";
import type { ServedAccount } from "./accounts.js";
import { authorize } from "./auth/authorize.js";
import type { OAuthLevel } from "./auth/bearer-token.js";
import { tableStringsToSign } from "./auth/table-shared-key.js";
import { applyCors, preflight } from "./cors.js";
import { type RequestContext, requestContext } from "./http/request-context.js";
import { errorParts, sendError } from "./http/responses.js";
import { invalidHeader, invalidUri } from "./protocol/protocol-error.js";
import { aclRoute } from "./routes/acl.js";
import { batchRoute } from "./routes/batch.js";
import { entitiesRoute } from "./routes/entities.js";
import type { Route } from "./routes/route.js";
import { serviceRoute } from "./routes/service.js";
import { tablesRoute } from "./routes/tables.js";
import type { ServiceState } from "./service-state.js";

/** The Table protocol's routes, asked in order. */
export const TABLE_ROUTES: readonly Route[] = [
  serviceRoute,
  aclRoute,
  tablesRoute,
  batchRoute,
  entitiesRoute,
];

/** Another application served beside the Table protocol under a path prefix (the web explorer). */
export interface Mount {
  /** A path prefix no account name can take, e.g. `/_explorer`. */
  readonly prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

export interface HandlerOptions {
  /** The accounts served, each with its own store. */
  readonly accounts: ReadonlyMap<string, ServedAccount>;
  readonly state: ServiceState;
  readonly protocol: "http" | "https";
  readonly skipApiVersionCheck: boolean;
  /** Bearer tokens: refused unless `basic` (Azurite's `--oauth basic`). */
  readonly oauth?: OAuthLevel;
  readonly maxBodyBytes: number;
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

/** Builds the server's request listener: parse, authenticate, route, answer; errors in the service's shape. */
export function tableRequestHandler(
  options: HandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { accounts, state } = options;
  return (req, res) => {
    const mount = options.mounts?.find((m) => req.url?.startsWith(m.prefix));
    if (mount) {
      void Promise.resolve(mount.handle(req, res)).catch(() => res.destroy());
      return;
    }
    let ctx: RequestContext | undefined;
    let route: Route | undefined;
    const run = async () => {
      ctx = requestContext(req, res, options.protocol);
      if (
        !options.skipApiVersionCheck &&
        req.headers["x-ms-version"] !== undefined &&
        !VERSION.test(ctx.version)
      ) {
        throw invalidHeader(`The x-ms-version '${ctx.version}' is not a service version.`);
      }
      if (ctx.method === "OPTIONS") {
        preflight(ctx, state);
        return;
      }
      applyCors(ctx, state);
      route = TABLE_ROUTES.find((r) => r.matches(ctx!));
      if (ctx.secondary && !READS.has(ctx.method)) {
        throw new TableKitError("AuthorizationFailure", "The secondary location accepts reads only.");
      }
      const auth = authorize(ctx, {
        accounts,
        state,
        service: "table",
        stringsToSign: tableStringsToSign,
        ...(options.oauth ? { oauth: options.oauth } : {}),
      });
      if (!route) throw invalidUri();
      // The Table service takes no request body past 4 MiB (a batch's limit, the largest request it
      // takes): 413 RequestBodyTooLarge, for a single entity as for a batch.
      const maxBodyBytes = Math.min(options.maxBodyBytes, auth.store.capabilities.limits.maxTransactionBytes);
      await route.handle(ctx, { ...auth, state, maxBodyBytes });
    };
    run().then(
      () => options.log?.(ctx, req, res.statusCode),
      (err: unknown) => {
        if (res.headersSent) {
          res.destroy();
        } else if (ctx) {
          // A body left unread (refused early, or too large) is not worth reading: close after answering.
          if (!req.complete) res.setHeader("connection", "close");
          sendError(ctx, err, route?.xml ?? ctx.query.has("restype"));
        } else {
          const { status, code, message } = errorParts(err);
          res.writeHead(status, {
            "x-ms-error-code": code,
            "content-type": "application/json",
            connection: "close",
          });
          res.end(JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: message } } }));
        }
        options.log?.(ctx, req, res.statusCode, err);
      },
    );
  };
}
