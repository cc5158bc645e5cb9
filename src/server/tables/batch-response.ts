import { randomUUID } from "node:crypto";
import { statusText } from "../protocol/protocol-error.js";

/**
 * The body of a batch response, framed exactly as the service frames it (the SDKs parse it with
 * regular expressions): one changeset response, one `application/http` part per operation; on
 * failure only the failing operation's part, its one-line JSON error carrying the index.
 */

const CRLF = "\r\n";

export interface BatchPartResponse {
  readonly status: number;
  /** Header lines after the status line (ETag, Location, Preference-Applied, …). */
  readonly headers: Readonly<Record<string, string>>;
  /** A one-line JSON body (an error, or an inserted entity when the client wants it back). */
  readonly body?: string;
}

export interface BatchResponse {
  readonly contentType: string;
  readonly body: string;
}

export function batchResponse(parts: readonly BatchPartResponse[]): BatchResponse {
  const batch = `batchresponse_${randomUUID()}`;
  const changeset = `changesetresponse_${randomUUID()}`;
  const lines: string[] = [`--${batch}`, `Content-Type: multipart/mixed; boundary=${changeset}`, ""];
  for (const part of parts) {
    lines.push(
      `--${changeset}`,
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      `HTTP/1.1 ${statusText(part.status)}`,
      "X-Content-Type-Options: nosniff",
      "Cache-Control: no-cache",
      ...Object.entries(part.headers).map(([name, value]) => `${name}: ${value}`),
      "",
    );
    if (part.body !== undefined) lines.push(part.body);
  }
  lines.push(`--${changeset}--`, `--${batch}--`, "");
  return { contentType: `multipart/mixed; boundary=${batch}`, body: lines.join(CRLF) };
}
