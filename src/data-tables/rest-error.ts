import { randomUUID } from "node:crypto";
import { TableKitError } from "../model/errors.js";

/** The slice of `@azure/core-rest-pipeline`'s `HttpHeaders` a program reads from an error's response. */
export interface HttpHeaders extends Iterable<[string, string]> {
  get(name: string): string | undefined;
  has(name: string): boolean;
  set(name: string, value: string | number | boolean): void;
  delete(name: string): void;
  toJSON(options?: { preserveCase?: boolean }): Record<string, string>;
}

/** The request an error answers, as far as tablekit has one (no HTTP request is sent). */
export interface PipelineRequest {
  url: string;
  method: string;
  headers: HttpHeaders;
  requestId: string;
}

/** The response an error carries: its status, headers and the service's JSON error body. */
export interface PipelineResponse {
  status: number;
  headers: HttpHeaders;
  request: PipelineRequest;
  bodyAsText?: string | null;
  parsedBody?: unknown;
}

export interface RestErrorOptions {
  code?: string;
  statusCode?: number;
  request?: PipelineRequest;
  response?: PipelineResponse;
  cause?: unknown;
}

/**
 * `@azure/core-rest-pipeline`'s `RestError`, re-declared so the embedded path needs no SDK: the
 * same name, fields and `instanceof`-free check (`isRestError`, and the SDK's own, test the name).
 * The TableKitError it was made from is its `cause`.
 */
export class RestError extends Error {
  static readonly REQUEST_SEND_ERROR = "REQUEST_SEND_ERROR";
  static readonly PARSE_ERROR = "PARSE_ERROR";
  override name = "RestError";
  code?: string;
  statusCode?: number;
  request?: PipelineRequest;
  response?: PipelineResponse;
  details?: unknown;

  constructor(message: string, options: RestErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.statusCode = options.statusCode;
    // Not enumerable, as in core-rest-pipeline: they hold large objects a log would print.
    Object.defineProperty(this, "request", { value: options.request, enumerable: false, writable: true });
    Object.defineProperty(this, "response", { value: options.response, enumerable: false, writable: true });
    Object.setPrototypeOf(this, RestError.prototype);
  }
}

/** True for a RestError: this one, the SDK's, or any error named "RestError" (as core-rest-pipeline checks). */
export function isRestError(e: unknown): e is RestError {
  return e instanceof RestError || (e instanceof Error && e.name === "RestError");
}

class Headers implements HttpHeaders {
  private readonly map = new Map<string, [string, string]>();
  constructor(entries: Record<string, string>) {
    for (const [k, v] of Object.entries(entries)) this.set(k, v);
  }
  get(name: string) {
    return this.map.get(name.toLowerCase())?.[1];
  }
  has(name: string) {
    return this.map.has(name.toLowerCase());
  }
  set(name: string, value: string | number | boolean) {
    this.map.set(name.toLowerCase(), [name, String(value)]);
  }
  delete(name: string) {
    this.map.delete(name.toLowerCase());
  }
  toJSON(options?: { preserveCase?: boolean }) {
    const out: Record<string, string> = {};
    for (const [key, [name, value]] of this.map) out[options?.preserveCase ? name : key] = value;
    return out;
  }
  *[Symbol.iterator](): Iterator<[string, string]> {
    for (const [key, [, value]] of this.map) yield [key, value];
  }
}

/** The service version an SDK request carries, which the service's answers echo. */
export const SERVICE_VERSION = "2019-02-02";

/** What the request was: for the error's `request` (tablekit sends none; this describes the call). */
export interface RequestDescription {
  url: string;
  method: string;
}

/**
 * The error the SDK would throw for a TableKitError. As the SDK: a single operation's error has no
 * `code` (only `details.errorCode` and `details.odataError.code`) and its message is the body; a
 * transaction's has `code` and the service's message with the failing action's index.
 */
export function toRestError(err: unknown, request: RequestDescription, inTransaction = false): unknown {
  if (!(err instanceof TableKitError)) return err;
  const requestId = randomUUID();
  const date = new Date();
  const odataError = {
    code: err.code,
    message: { lang: "en-US", value: `${err.message}\nRequestId:${requestId}\nTime:${date.toISOString()}` },
  };
  const bodyAsText = JSON.stringify({ "odata.error": odataError });
  const headerEntries = {
    "x-ms-error-code": err.code,
    "x-ms-request-id": requestId,
    "x-ms-version": SERVICE_VERSION,
    "content-type": "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
    date: date.toUTCString(),
  };
  const pipelineRequest: PipelineRequest = {
    url: request.url,
    method: request.method,
    headers: new Headers({}),
    requestId: randomUUID(),
  };
  const status = inTransaction ? 202 : err.status;
  const response: PipelineResponse = {
    status,
    headers: new Headers(inTransaction ? {} : headerEntries),
    request: pipelineRequest,
    bodyAsText,
    parsedBody: { odataError },
  };
  if (inTransaction) {
    return new RestError(err.message, {
      code: err.code,
      statusCode: err.status,
      request: pipelineRequest,
      response,
      cause: err,
    });
  }
  const restError = new RestError(bodyAsText, {
    statusCode: status,
    request: pipelineRequest,
    response,
    cause: err,
  });
  const { "x-ms-error-code": errorCode, ...headers } = headerEntries;
  restError.details = { errorCode, ...headers, odataError };
  return restError;
}

/**
 * The error `@azure/storage-queue` and `@azure/storage-blob` throw for a TableKitError: `code` and
 * `details.errorCode` are the service's error code, the message is the service's `Message` (with
 * its RequestId and Time lines), `response.bodyAsText` the XML error body.
 */
export function toStorageRestError(err: unknown, request: RequestDescription, version: string): unknown {
  if (!(err instanceof TableKitError)) return err;
  const requestId = randomUUID();
  const date = new Date();
  const message = `${err.message}\nRequestId:${requestId}\nTime:${date.toISOString()}`;
  const headerEntries = {
    "x-ms-error-code": err.code,
    "x-ms-request-id": requestId,
    "x-ms-version": version,
    "content-type": "application/xml",
    date: date.toUTCString(),
  };
  const pipelineRequest: PipelineRequest = {
    url: request.url,
    method: request.method,
    headers: new Headers({}),
    requestId: randomUUID(),
  };
  const { "x-ms-error-code": errorCode, ...headers } = headerEntries;
  // A HEAD answer, and a 304 Not Modified, have no body: the SDK's error then has the header's
  // errorCode alone, no code or message.
  const notModified = err.code === "ConditionNotMet" && err.details?.notModified === true;
  if (request.method === "HEAD" || notModified) {
    const status = notModified ? 304 : err.status;
    const response: PipelineResponse = {
      status,
      headers: new Headers(headerEntries),
      request: pipelineRequest,
      bodyAsText: "",
    };
    const restError = new RestError("", {
      statusCode: status,
      request: pipelineRequest,
      response,
      cause: err,
    });
    restError.details = { errorCode, ...headers };
    return restError;
  }
  const bodyAsText = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${err.code}</Code><Message>${xmlText(message)}</Message></Error>`;
  const response: PipelineResponse = {
    status: err.status,
    headers: new Headers(headerEntries),
    request: pipelineRequest,
    bodyAsText,
    parsedBody: { Code: err.code, Message: message },
  };
  const restError = new RestError(message, {
    code: err.code,
    statusCode: err.status,
    request: pipelineRequest,
    response,
    cause: err,
  });
  restError.details = { errorCode, ...headers, Code: err.code, Message: message };
  return restError;
}

function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
