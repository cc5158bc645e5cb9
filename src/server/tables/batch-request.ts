import { invalidInput } from "../protocol/protocol-error.js";

/**
 * Reads an entity group transaction (`POST /$batch`, multipart/mixed holding one changeset of
 * `application/http` parts) leniently, as clients write it: CRLF or bare LF line endings, with or
 * without the closing `--`, `Content-ID` headers, `X-HTTP-Method` tunnelling, absolute URLs naming
 * any host. Anything that is not one changeset of HTTP requests is InvalidInput.
 */

export interface BatchSubRequest {
  readonly method: string;
  /** The request's URL as written (absolute or a path). */
  readonly url: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The boundary parameter of a multipart Content-Type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\/mixed/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** Splits `text` at delimiter lines `--boundary`; returns the parts between them (closing one excluded). */
function splitParts(text: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const pieces = text.split(delimiter);
  if (pieces.length < 2) throw invalidInput(`The body holds no part delimited by '${delimiter}'.`);
  const parts: string[] = [];
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.startsWith("--")) break; // the closing delimiter
    parts.push(piece.replace(/^[ \t]*\r?\n/, "").replace(/\r?\n$/, ""));
  }
  return parts;
}

/** Headers until the first empty line, and the rest. */
function splitHead(part: string): { headers: Record<string, string>; rest: string; first?: string } {
  const match = /\r?\n\r?\n/.exec(part);
  const head = match ? part.slice(0, match.index) : part;
  const rest = match ? part.slice(match.index + match[0].length) : "";
  const lines = head.split(/\r?\n/);
  const headers: Record<string, string> = {};
  let first: string | undefined;
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0 && !/^[A-Z]+ \S+ HTTP\//.test(line)) {
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    } else if (line.trim() !== "") {
      if (first !== undefined) throw invalidInput(`A batch part has a malformed line: ${line.slice(0, 80)}`);
      first = line;
    }
  }
  return first === undefined ? { headers, rest } : { headers, rest, first };
}

function parseSubRequest(part: string): BatchSubRequest {
  const outer = splitHead(part);
  if (!/^application\/http/i.test(outer.headers["content-type"] ?? "")) {
    throw invalidInput("Each operation of a batch must be an application/http part.");
  }
  const inner = splitHead(outer.rest);
  const line = inner.first ? /^([A-Za-z]+) (\S+) HTTP\/1\.[01]$/.exec(inner.first.trim()) : null;
  if (!line) throw invalidInput("A batch operation has no request line (METHOD URL HTTP/1.1).");
  const tunnelled = inner.headers["x-http-method"];
  const method = (line[1]!.toUpperCase() === "POST" && tunnelled ? tunnelled : line[1]!).toUpperCase();
  return { method, url: line[2]!, headers: inner.headers, body: inner.rest.replace(/\r?\n$/, "") };
}

/** The operations of a batch body, in order. */
export function parseBatchBody(body: string, batchBoundary: string): BatchSubRequest[] {
  const batchParts = splitParts(body, batchBoundary);
  if (batchParts.length !== 1) {
    throw invalidInput(`A batch holds exactly one changeset; this one has ${batchParts.length} parts.`);
  }
  const changeset = splitHead(batchParts[0]!);
  const changesetBoundary = multipartBoundary(changeset.headers["content-type"]);
  if (!changesetBoundary) {
    // A lone query (GET) may stand outside a changeset; nothing else may.
    throw invalidInput("The batch's part must be a multipart/mixed changeset.");
  }
  const operations = splitParts(changeset.rest, changesetBoundary).map(parseSubRequest);
  if (operations.length === 0) throw invalidInput("The changeset holds no operation.");
  return operations;
}
