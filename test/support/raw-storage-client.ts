import { createHmac } from "node:crypto";
import http from "node:http";
import { AZURITE_ACCOUNT, AZURITE_KEY } from "./azurite.js";

/**
 * A bare HTTP client for the Queue and Blob protocols, for tests that must control every byte an
 * SDK would not send: headers, bodies, dates, signatures. Signs with SharedKey (or SharedKeyLite)
 * from the Storage services' documented canonicalization, written independently of the server's
 * own verifier.
 */
export interface StorageRequest {
  readonly method?: string;
  /** Path after the account, with any query string: `q1/messages?peekonly=true`. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Headers added after signing (a replay's fresh date the signature does not cover); an array sends one line per value. */
  readonly unsignedHeaders?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
  /** `"key"` (default, SharedKey), `"lite"` (SharedKeyLite), `"none"`, or a SAS query string. */
  readonly auth?: "key" | "lite" | "none" | { readonly sas: string };
  /** The date signed (default now). */
  readonly date?: Date;
  /** The header that carries the signed date: `x-ms-date` (default) or the standard `date`. */
  readonly dateHeader?: "x-ms-date" | "date";
  /** The account in the URL (default the development account). */
  readonly account?: string;
  /** The account named in the Authorization header (default the URL's). */
  readonly signer?: string;
  readonly key?: string;
}

export interface StorageResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** `x-ms-error-code`, when present. */
  readonly code: string | undefined;
}

const STANDARD = [
  "content-encoding",
  "content-language",
  "content-length",
  "content-md5",
  "content-type",
  "date",
  "if-modified-since",
  "if-match",
  "if-none-match",
  "if-unmodified-since",
  "range",
];

function sign(key: string, text: string): string {
  return createHmac("sha256", Buffer.from(key, "base64")).update(text, "utf8").digest("base64");
}

function stringToSign(
  scheme: "key" | "lite",
  method: string,
  url: URL,
  account: string,
  headers: Record<string, string>,
): string {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const msHeaders = Object.keys(lower)
    .filter((k) => k.startsWith("x-ms-"))
    .sort()
    .map((k) => `${k}:${lower[k]!.trim()}\n`)
    .join("");
  const resource = `/${account}${url.pathname}`;
  if (scheme === "lite") {
    const comp = url.searchParams.get("comp");
    return `${method}\n${lower["content-md5"] ?? ""}\n${lower["content-type"] ?? ""}\n${lower.date ?? ""}\n${msHeaders}${resource}${comp === null ? "" : `?comp=${comp}`}`;
  }
  const standard = STANDARD.map((h) => (h === "content-length" && lower[h] === "0" ? "" : (lower[h] ?? "")));
  const params = new Map<string, string[]>();
  for (const [k, v] of url.searchParams)
    params.set(k.toLowerCase(), [...(params.get(k.toLowerCase()) ?? []), v]);
  const query = [...params.keys()]
    .sort()
    .map((k) => `\n${k}:${params.get(k)!.join(",")}`)
    .join("");
  return `${method}\n${standard.join("\n")}\n${msHeaders}${resource}${query}`;
}

/** Sends one request to `endpoint` (`http://127.0.0.1:port`, the service's origin). */
export async function storageRequest(endpoint: string, request: StorageRequest): Promise<StorageResponse> {
  const account = request.account ?? AZURITE_ACCOUNT;
  const auth = request.auth ?? "key";
  const sas = typeof auth === "object" ? auth.sas : undefined;
  const separator = request.path.includes("?") ? "&" : "?";
  const url = new URL(
    `${new URL(endpoint).origin}/${account}/${request.path}${sas ? `${separator}${sas}` : ""}`,
  );
  const method = request.method ?? "GET";
  const body = request.body;
  const length = body === undefined ? 0 : Buffer.byteLength(body);
  const headers: Record<string, string> = {
    "x-ms-version": "2021-12-02",
    [request.dateHeader ?? "x-ms-date"]: (request.date ?? new Date()).toUTCString(),
    "content-length": String(length),
    ...(body !== undefined ? { "content-type": "application/xml" } : {}),
    ...request.headers,
  };
  if (auth === "key" || auth === "lite") {
    const signer = request.signer ?? account;
    const text = stringToSign(auth, method, url, signer, headers);
    headers.authorization = `${auth === "key" ? "SharedKey" : "SharedKeyLite"} ${signer}:${sign(request.key ?? AZURITE_KEY, text)}`;
  }
  const sent: Record<string, string | string[]> = { ...headers, ...request.unsignedHeaders };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: sent,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const code = res.headers["x-ms-error-code"];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            code: typeof code === "string" ? code : undefined,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** The text of the first `<name>` element of an XML body. */
export function xmlValue(text: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
}
