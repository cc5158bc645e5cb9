import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";

/** `x-ms-meta-name: value` request headers as a record (names as Node gives them: lower case). */
export function metadataFromHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!name.startsWith("x-ms-meta-")) continue;
    Object.defineProperty(out, name.slice(10), {
      value: Array.isArray(value) ? value.join(",") : (value ?? ""),
      enumerable: true,
      writable: true,
    });
  }
  return out;
}

/** Metadata as response headers. */
export function metadataHeaders(metadata: Readonly<Record<string, string>> | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(metadata ?? {})) out[`x-ms-meta-${name}`] = value;
  return out;
}
