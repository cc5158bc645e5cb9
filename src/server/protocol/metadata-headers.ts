import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";

/**
 * `x-ms-meta-name: value` request headers as a record, names in the case the client sent them
 * (read from the raw headers: the services keep metadata names' case). A name sent twice in the
 * same case has its values joined with commas, as HTTP reads repeated headers.
 */
export function metadataFromHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const header = raw[i]!;
    if (header.length <= 10 || header.slice(0, 10).toLowerCase() !== "x-ms-meta-") continue;
    const name = header.slice(10);
    const value = raw[i + 1]!;
    Object.defineProperty(out, name, {
      value: Object.hasOwn(out, name) ? `${out[name]},${value}` : value,
      enumerable: true,
      writable: true,
      configurable: true,
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
