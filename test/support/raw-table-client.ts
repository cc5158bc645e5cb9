import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "./azurite.js";

/**
 * A bare HTTP client for the Table protocol, for tests that must control every byte a real SDK
 * would not send (headers, bodies, signatures). Signs with SharedKeyLite unless told otherwise;
 * written independently of the server's own verifier.
 */
export interface RawRequest {
  readonly method?: string;
  /** Path after the account, with query string: `Tables`, `t(PartitionKey='a',RowKey='b')?$select=x`. */
  readonly path: string;
  /** Headers to add or override (the signature covers only what the scheme signs); an array sends one line per value. */
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
  /** `"lite"` (default), `"key"` (SharedKey with x-ms-date), `"none"`, a SAS query string, or a bearer token. */
  readonly auth?: "lite" | "key" | "none" | { readonly sas: string } | { readonly bearer: string };
  /** For an `https:` endpoint: the certificate to trust. */
  readonly ca?: Buffer;
  /** The date signed and sent as x-ms-date (default now). */
  readonly date?: Date;
  /** The header that carries the signed date: `x-ms-date` (default) or the standard `date`. */
  readonly dateHeader?: "x-ms-date" | "date";
  /** The account in the URL (default the development account). */
  readonly account?: string;
  /** The account the Authorization header names and signs for (default `account`). */
  readonly signingAccount?: string;
  readonly key?: string;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** `x-ms-error-code`, when present. */
  readonly code: string | undefined;
  json(): unknown;
}

function sign(key: string, text: string): string {
  return createHmac("sha256", Buffer.from(key, "base64")).update(text, "utf8").digest("base64");
}

/** Sends one request to a server whose table endpoint is `endpoint` (`http://host:port/account`). */
export async function rawRequest(endpoint: string, request: RawRequest): Promise<RawResponse> {
  const base = new URL(endpoint);
  const account = request.account ?? AZURITE_ACCOUNT;
  const key = request.key ?? AZURITE_KEY;
  const auth = request.auth ?? "lite";
  const sas = typeof auth === "object" && "sas" in auth ? auth.sas : undefined;
  const separator = request.path.includes("?") ? "&" : "?";
  const url = `${base.origin}/${account}/${request.path}${sas ? `${separator}${sas}` : ""}`;
  const method = request.method ?? "GET";
  const date = (request.date ?? new Date()).toUTCString();
  const headers: Record<string, string | string[]> = {
    "x-ms-version": "2019-02-02",
    [request.dateHeader ?? "x-ms-date"]: date,
    accept: "application/json;odata=minimalmetadata",
    dataserviceversion: "3.0",
    ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
    ...request.headers,
  };
  const parsed = new URL(url);
  const comp = parsed.searchParams.get("comp");
  const signer = request.signingAccount ?? account;
  const resource = `/${signer}${parsed.pathname}${comp ? `?comp=${comp}` : ""}`;
  if (typeof auth === "object" && "bearer" in auth) {
    headers.authorization = `Bearer ${auth.bearer}`;
  } else if (auth === "lite") {
    headers.authorization = `SharedKeyLite ${signer}:${sign(key, `${date}\n${resource}`)}`;
  } else if (auth === "key") {
    const text = [method, "", headers["content-type"] ?? "", date, resource].join("\n");
    headers.authorization = `SharedKey ${signer}:${sign(key, text)}`;
  }
  const {
    status,
    headers: responseHeaders,
    text,
  } = await send(parsed, method, headers, request.body, request.ca);
  const code = responseHeaders["x-ms-error-code"];
  return {
    status,
    headers: responseHeaders,
    text,
    code: typeof code === "string" ? code : undefined,
    json: () => JSON.parse(text),
  };
}

/** Keep-alive connections, as SDKs use them (and much cheaper than fetch on a busy machine). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(
  url: URL,
  method: string,
  headers: Record<string, string | string[]>,
  body: string | Buffer | undefined,
  ca: Buffer | undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const target = {
    host: url.hostname,
    port: url.port,
    path: `${url.pathname}${url.search}`,
    method,
    headers,
  };
  return new Promise((resolve, reject) => {
    const request = url.protocol === "https:" ? https.request : http.request;
    const req = request(
      url.protocol === "https:" ? { ...target, ca, agent: false } : { ...target, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Headers signing a request to `path` (after the account) with SharedKeyLite, for callers that send
 * it themselves: path-style URLs repeat the account in the signed path, production-style ones do not.
 */
export function signedHeaders(
  path: string,
  account = AZURITE_ACCOUNT,
  key = AZURITE_KEY,
  style: "path" | "production" = "path",
): Record<string, string> {
  const date = new Date().toUTCString();
  const resource = style === "path" ? `/${account}/${account}/${path}` : `/${account}/${path}`;
  return {
    "x-ms-version": "2019-02-02",
    "x-ms-date": date,
    authorization: `SharedKeyLite ${account}:${sign(key, `${date}\n${resource}`)}`,
  };
}

/** The query parameters that ask for the page after `response` (its continuation echoed), or undefined on the last page. */
export function nextPageQuery(response: RawResponse): string | undefined {
  const pk = response.headers["x-ms-continuation-nextpartitionkey"];
  if (typeof pk !== "string") return undefined;
  const rk = response.headers["x-ms-continuation-nextrowkey"];
  return `NextPartitionKey=${encodeURIComponent(pk)}&NextRowKey=${encodeURIComponent(String(rk))}`;
}
