/**
 * `$batch` bodies written by hand, for tests that send them with the raw client: the outer
 * multipart with one changeset, and one part per operation.
 */

/** A batch body: `parts` inside one changeset; `close: false` leaves off the closing delimiters, as old clients do. */
export function batchBody(
  boundary: string,
  changeset: string,
  parts: readonly string[],
  close = true,
): string {
  const lines = [`--${boundary}`, `Content-Type: multipart/mixed; boundary=${changeset}`, ""];
  for (const part of parts) lines.push(`--${changeset}`, part);
  if (close) lines.push(`--${changeset}--`, `--${boundary}--`, "");
  return lines.join("\r\n");
}

/** One operation of a changeset: `METHOD url`, its headers, and its body. */
export function batchPart(
  method: string,
  url: string,
  body = "",
  headers: Readonly<Record<string, string>> = {},
): string {
  return [
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `${method} ${url} HTTP/1.1`,
    ...(body !== "" ? ["Content-Type: application/json"] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    body,
  ].join("\r\n");
}
