import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { invalidUri } from "../protocol/protocol-error.js";

/** The service version answered when a request names none. */
export const DEFAULT_VERSION = "2019-02-02";

const SECONDARY = "-secondary";
const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;
const NO_ACCOUNT_HOSTS = new Set(["localhost", "host.docker.internal"]);

/** One request, parsed once: who it is for, what it names, and how to answer it. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly requestId: string;
  /** The verb, after `X-HTTP-Method` tunnelling of POST. */
  readonly method: string;
  /** The path as received (percent-encoded), for signatures. */
  readonly rawPath: string;
  readonly query: URLSearchParams;
  readonly account: string;
  readonly secondary: boolean;
  /** True when the account came from the path (`/devstoreaccount1/…`), not the host name. */
  readonly pathStyle: boolean;
  /**
   * The path after the account, percent-decoded, without its leading slash (`Tables('t')`,
   * `queue/messages/id`, `container/dir/blob.txt`): each service reads its own resource from it.
   */
  readonly path: string;
  readonly protocol: "http" | "https";
  readonly clientIp: string;
  /** `x-ms-version` as sent (echoed back), or the default. */
  readonly version: string;
  /** `http://host:port/account/`: the base of `odata.metadata` links. */
  readonly baseUrl: string;
  /**
   * A Blob Batch sub-request that named its blob relative to the account on a path-style URL
   * (Python's SDK writes `/container/blob`): the raw path it was signed for.
   */
  readonly signedPath?: string;
}

interface HostStyle {
  /** True when the account is the path's first segment: an IP address, localhost, or a name without a dot. */
  readonly pathStyle: boolean;
  /** The host name's first label, the account when not path style (`account.table.host`). */
  readonly hostAccount: string;
}

/** Hosts seen, parsed once: a server is addressed by a handful of them. */
const hostStyles = new Map<string, HostStyle>();
const MAX_HOSTS_KEPT = 256;

function hostOf(host: string): HostStyle {
  const known = hostStyles.get(host);
  if (known !== undefined) return known;
  const hostname = host.replace(/:\d+$/, "");
  const dot = hostname.indexOf(".");
  const pathStyle = IP_HOST.test(hostname) || NO_ACCOUNT_HOSTS.has(hostname.toLowerCase()) || dot <= 0;
  const parsed = { pathStyle, hostAccount: pathStyle ? "" : hostname.slice(0, dot) };
  // Any client can send any Host: keep a bounded few, start over past that.
  if (hostStyles.size >= MAX_HOSTS_KEPT) hostStyles.clear();
  hostStyles.set(host, parsed);
  return parsed;
}

/** Parses the request line and headers; the resource part must be valid, the rest is the router's. */
export function requestContext(
  req: IncomingMessage,
  res: ServerResponse,
  protocol: "http" | "https",
): RequestContext {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const rawPath = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
  const host = req.headers.host ?? "127.0.0.1";
  const { pathStyle, hostAccount } = hostOf(host);
  let decoded = rawPath;
  // Without a '%', decoding would return the path as it is.
  if (rawPath.includes("%")) {
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      throw invalidUri("The request URI is not valid: bad percent-encoding.");
    }
  }
  let start = 0;
  while (decoded.charCodeAt(start) === 0x2f) start++;
  const trimmed = start === 0 ? decoded : decoded.slice(start);
  const slash = trimmed.indexOf("/");
  let account = pathStyle ? (slash < 0 ? trimmed : trimmed.slice(0, slash)) : hostAccount;
  const path = pathStyle ? (slash < 0 ? "" : trimmed.slice(slash + 1)) : trimmed;
  let secondary = false;
  if (account.endsWith(SECONDARY)) {
    account = account.slice(0, -SECONDARY.length);
    secondary = true;
  }
  const tunnelled = req.headers["x-http-method"];
  const method =
    req.method === "POST" && typeof tunnelled === "string" ? tunnelled.toUpperCase() : (req.method ?? "GET");
  const version = req.headers["x-ms-version"];
  return {
    req,
    res,
    requestId: randomUUID(),
    method,
    rawPath,
    query,
    account,
    secondary,
    pathStyle,
    path,
    protocol,
    clientIp: req.socket.remoteAddress ?? "",
    version: typeof version === "string" && version !== "" ? version : DEFAULT_VERSION,
    baseUrl: `${protocol}://${host}/${pathStyle ? `${account}${secondary ? SECONDARY : ""}/` : ""}`,
  };
}

/**
 * A service's context: the request's, with the resource its path names. Written out field by field:
 * a spread (`{ ...ctx, resource }`) made the engine build a new object shape on most requests.
 */
export function withResource<R>(ctx: RequestContext, resource: R): RequestContext & { readonly resource: R } {
  return {
    req: ctx.req,
    res: ctx.res,
    requestId: ctx.requestId,
    method: ctx.method,
    rawPath: ctx.rawPath,
    query: ctx.query,
    account: ctx.account,
    secondary: ctx.secondary,
    pathStyle: ctx.pathStyle,
    path: ctx.path,
    protocol: ctx.protocol,
    clientIp: ctx.clientIp,
    version: ctx.version,
    baseUrl: ctx.baseUrl,
    ...(ctx.signedPath === undefined ? {} : { signedPath: ctx.signedPath }),
    resource,
  };
}
