import type { BackendAction } from "../../tables/table-backend.js";
import { type RequestTarget, writeRequest } from "./table-requests.js";

/**
 * The multipart body of an entity group transaction (`POST /$batch`), both ways: the request
 * holds one changeset with one HTTP sub-request per action, in action order (so the index the
 * service reports on failure is the action's index); the response holds one sub-response per
 * action, or the failing one alone.
 */

const CRLF = "\r\n";

/** The account URL (absolute sub-request URLs) and the table. */
export interface BatchTarget extends RequestTarget {
  /** `https://acct.table.core.windows.net` without query string or trailing slash. */
  readonly accountUrl: string;
}

/** The whole request body; `batchBoundary` is also the Content-Type's boundary (`batch_<id>`). */
export function batchBody(
  batchBoundary: string,
  actions: readonly BackendAction[],
  target: BatchTarget,
): string {
  const changeset = `changeset_${batchBoundary.replace(/^batch_/, "")}`;
  const parts = actions.map((action) => `--${changeset}${CRLF}${subRequest(action, target)}`);
  return [
    `--${batchBoundary}`,
    `Content-Type: multipart/mixed; boundary=${changeset}`,
    "",
    ...parts,
    `--${changeset}--`,
    `--${batchBoundary}--`,
    "",
  ].join(CRLF);
}

function subRequest(action: BackendAction, target: BatchTarget): string {
  const { method, path, headers, body } = writeRequest(target, action);
  const lines = [
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `${method} ${target.accountUrl}${path} HTTP/1.1`,
    "DataServiceVersion: 3.0",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    body ?? "",
  ];
  return lines.join(CRLF);
}

/** One sub-response of a batch response. */
export interface BatchSubResponse {
  readonly status: number;
  /** Header values by lower-cased name. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/**
 * The sub-responses of a `$batch` response body, in order: each HTTP response between two
 * boundary lines (`--…`), whatever the boundaries are named.
 */
export function parseBatchResponse(body: string): BatchSubResponse[] {
  const out: BatchSubResponse[] = [];
  // Each part starts with its boundary line; a body line never starts with "--".
  for (const part of body.split(/\r?\n(?=--)/)) {
    const lines = part.split(/\r?\n/);
    const start = lines.findIndex((line) => /^HTTP\/1\.[01] \d{3}/.test(line));
    if (start < 0) continue;
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[start]!)![1]);
    const headers = new Map<string, string>();
    let i = start + 1;
    for (; i < lines.length && lines[i] !== ""; i++) {
      const colon = lines[i]!.indexOf(":");
      if (colon > 0)
        headers.set(lines[i]!.slice(0, colon).trim().toLowerCase(), lines[i]!.slice(colon + 1).trim());
    }
    out.push({
      status,
      headers,
      body: lines
        .slice(i + 1)
        .join(CRLF)
        .trim(),
    });
  }
  return out;
}
