import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * A sub-request of a Blob Batch as the blob routes see a request, and the response they write into
 * as they write into a socket's: the routes answer a sub-request exactly as a single request, and
 * the batch reads back its status, headers and body to write the part.
 */

/** A body-less request with the sub-request's line and headers, from the batch's client. */
export function subRequestMessage(
  method: string,
  url: string,
  headers: Record<string, string>,
  remoteAddress: string,
): IncomingMessage {
  const message = Readable.from([]) as Readable & Record<string, unknown>;
  message.method = method;
  message.url = url;
  message.headers = headers;
  message.rawHeaders = Object.entries(headers).flat();
  message.httpVersion = "1.1";
  message.complete = true;
  message.socket = { remoteAddress };
  return message as unknown as IncomingMessage;
}

/** What the routes wrote: the status, the headers (names lowercased, in order) and the body as text. */
export class PartResponse {
  statusCode = 200;
  headersSent = false;
  readonly headers = new Map<string, string>();
  body = "";

  setHeader(name: string, value: number | string | readonly string[]): this {
    this.headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(", ") : String(value));
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  /** `send` passes a flat name/value list, other routes an object. */
  writeHead(status: number, headers?: OutgoingHttpHeaders | readonly unknown[]): this {
    this.statusCode = status;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) {
        this.setHeader(String(headers[i]), headers[i + 1] as string);
      }
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined) this.setHeader(name, value as string);
      }
    }
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Buffer): boolean {
    this.headersSent = true;
    this.body += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    return true;
  }

  end(chunk?: string | Buffer): this {
    if (chunk !== undefined) this.write(chunk);
    this.headersSent = true;
    return this;
  }

  destroy(): this {
    return this;
  }

  once(): this {
    return this;
  }

  on(): this {
    return this;
  }

  asServerResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}
