import { ProtocolError } from "../protocol/protocol-error.js";

/**
 * The body of a Blob Batch request (multipart/mixed, each part one `application/http` request as
 * the SDKs write it), parsed in one pass over bounded input: the body is capped before it gets
 * here, parts, header lines and line lengths are capped while reading, and every search moves
 * forward (indexOf from the last position), so no input costs more than linear time.
 */

/** The most sub-requests one batch may carry (the service's limit). */
export const MAX_BATCH_REQUESTS = 256;
/** The largest batch body read (the service's 4 MiB; a batch of 256 signed deletes is under 300 KiB). */
export const MAX_BATCH_BODY_BYTES = 4 * 1024 * 1024;
/** Header lines a part or a sub-request may have, and the longest line (a request line with a SAS fits easily). */
const MAX_HEADER_LINES = 64;
const MAX_LINE_CHARS = 16 * 1024;
/** RFC 2046: a boundary is 1 to 70 characters of this set, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** One sub-request: its Content-ID, request line and headers (names lowercased). */
export interface BatchSubRequest {
  readonly contentId: string;
  readonly method: string;
  /** The request target as written: a path and query (`/account/container/blob?comp=tier`). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
}

export const batchInvalid = (detail: string) =>
  new ProtocolError(400, "InvalidInput", `One of the request inputs is not valid. ${detail}`);

/**
 * The boundary of `multipart/mixed; boundary=…` (the parameter's name in any case, its value
 * quoted or not, spaces around it allowed). No Content-Type: MissingRequiredHeader; no boundary or
 * an empty one: InvalidHeaderValue; two boundaries or another media type: InvalidInput.
 */
export function batchBoundary(contentType: string | undefined): string {
  if (contentType === undefined || contentType.trim() === "") {
    throw new ProtocolError(
      400,
      "MissingRequiredHeader",
      "An HTTP header that's mandatory for this request is not specified: Content-Type.",
    );
  }
  const [mediaType, ...params] = contentType.split(";").map((p) => p.trim());
  const boundaries = params.filter((p) => p.toLowerCase().startsWith("boundary="));
  if (boundaries.length > 1) throw batchInvalid("The Content-Type names more than one boundary.");
  if (mediaType?.toLowerCase() !== "multipart/mixed") {
    throw batchInvalid("The Content-Type of a batch must be multipart/mixed.");
  }
  let value = boundaries[0]?.slice("boundary=".length).trim() ?? "";
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (value === "") {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for one of the HTTP headers is not in the correct format: Content-Type has no boundary.",
    );
  }
  if (!BOUNDARY.test(value)) throw batchInvalid("The multipart boundary is not a valid boundary.");
  return value;
}

/** Reads lines of `text` from `at`, CRLF or LF ended, each bounded in length. */
class LineReader {
  constructor(
    private readonly text: string,
    public at: number,
    private readonly end: number,
  ) {}

  /** The next line without its ending, or undefined at the end of the part. */
  next(): string | undefined {
    if (this.at >= this.end) return undefined;
    let stop = this.text.indexOf("\n", this.at);
    if (stop < 0 || stop > this.end) stop = this.end;
    if (stop - this.at > MAX_LINE_CHARS) throw batchInvalid("A line of the batch body is too long.");
    let line = this.text.slice(this.at, stop);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    this.at = stop + 1;
    return line;
  }

  /** `name: value` lines up to the first empty one, names lowercased. */
  headers(what: string): Record<string, string> {
    const headers: Record<string, string> = {};
    for (let count = 0; ; count++) {
      const line = this.next();
      if (line === undefined || line === "") return headers;
      if (count >= MAX_HEADER_LINES) throw batchInvalid(`A ${what} has too many headers.`);
      const colon = line.indexOf(":");
      if (colon <= 0) throw batchInvalid(`A ${what} header line has no name: '${line.slice(0, 80)}'.`);
      const name = line.slice(0, colon).trim().toLowerCase();
      if (name in headers) throw batchInvalid(`A ${what} repeats the header '${name}'.`);
      headers[name] = line.slice(colon + 1).trim();
    }
  }
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/;

function parsePart(text: string, start: number, end: number): BatchSubRequest {
  const lines = new LineReader(text, start, end);
  const partHeaders = lines.headers("batch part");
  const type = partHeaders["content-type"]?.toLowerCase();
  if (type !== "application/http")
    throw batchInvalid("A batch part's Content-Type must be application/http.");
  const transfer = partHeaders["content-transfer-encoding"]?.toLowerCase();
  if (transfer !== undefined && transfer !== "binary") {
    throw batchInvalid("A batch part's Content-Transfer-Encoding must be binary.");
  }
  const contentId = partHeaders["content-id"];
  if (contentId === undefined || !/^\d{1,9}$/.test(contentId)) {
    throw batchInvalid("Each batch part needs a numeric Content-ID.");
  }
  const requestLine = lines.next();
  const match = requestLine === undefined ? null : REQUEST_LINE.exec(requestLine);
  if (!match) throw batchInvalid(`Part ${contentId} does not start with an HTTP/1.1 request line.`);
  const target = match[2]!;
  if (!target.startsWith("/")) throw batchInvalid(`Part ${contentId}'s request target must be a path.`);
  const headers = lines.headers("sub-request");
  // Delete Blob and Set Blob Tier carry no body: anything after the headers but blank lines is refused.
  if (text.slice(lines.at, end).trim() !== "") {
    throw batchInvalid(`Part ${contentId} has a body; Delete Blob and Set Blob Tier take none.`);
  }
  return { contentId, method: match[1]!, target, headers };
}

/**
 * The sub-requests of a batch body, in order. Anything malformed — no first delimiter, no closing
 * one, a part that is not one HTTP request, no parts — is InvalidInput; more than 256 parts is
 * ExceedsMaxBatchRequestCount (found at the 257th, without reading further).
 */
export function parseBatchBody(body: string, boundary: string): BatchSubRequest[] {
  const delimiter = `--${boundary}`;
  let at = body.indexOf(delimiter);
  // Only blank lines may come before the first delimiter (a preamble is not something the SDKs write).
  if (at < 0 || body.slice(0, at).trim() !== "")
    throw batchInvalid("The body does not start with the boundary.");
  const parts: BatchSubRequest[] = [];
  for (;;) {
    const after = at + delimiter.length;
    if (body.startsWith("--", after)) {
      if (body.slice(after + 2).trim() !== "") throw batchInvalid("Text follows the closing boundary.");
      break;
    }
    const lineEnd = body.indexOf("\n", after);
    if (lineEnd < 0 || body.slice(after, lineEnd).trim() !== "") {
      throw batchInvalid("A boundary line carries more than the boundary.");
    }
    const next = body.indexOf(`\n${delimiter}`, lineEnd);
    if (next < 0) throw batchInvalid("The body has no closing boundary.");
    if (parts.length === MAX_BATCH_REQUESTS) {
      throw new ProtocolError(
        400,
        "ExceedsMaxBatchRequestCount",
        `The batch operation exceeds maximum number of allowed subrequests (${MAX_BATCH_REQUESTS}).`,
      );
    }
    parts.push(parsePart(body, lineEnd + 1, next));
    at = next + 1;
  }
  if (parts.length === 0) throw batchInvalid("The batch has no sub-requests.");
  return parts;
}
