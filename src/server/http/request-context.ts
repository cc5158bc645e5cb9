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
  const hostname = host.replace(/:\d+$/, "");
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw invalidUri("The request URI is not valid: bad percent-encoding.");
  }
  const trimmed = decoded.replace(/^\/+/, "");
  const dot = hostname.indexOf(".");
  const pathStyle = IP_HOST.test(hostname) || NO_ACCOUNT_HOSTS.has(hostname.toLowerCase()) || dot <= 0;
  const slash = trimmed.indexOf("/");
  let account = pathStyle ? (slash < 0 ? trimmed : trimmed.slice(0, slash)) : hostname.slice(0, dot);
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
