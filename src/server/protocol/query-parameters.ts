import type { RequestContext } from "../http/request-context.js";
import { ProtocolError } from "./protocol-error.js";

const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer query parameter as the client wrote it, or undefined; not a 64-bit integer is
 * InvalidQueryParameterValue. Past 2^53 - 1 the value is that bound (the operations' ranges end
 * below it, and a message time-to-live that long already reaches the service's 9999-12-31 "never").
 */
export function integerParameter(ctx: RequestContext, name: string): number | undefined {
  const text = ctx.query.get(name);
  if (text === null) return undefined;
  const digits = /^-?\d+$/.test(text) ? BigInt(text) : undefined;
  if (digits === undefined || digits > INT64_MAX || digits < -INT64_MAX - 1n) {
    throw new ProtocolError(
      400,
      "InvalidQueryParameterValue",
      `Value for one of the query parameters specified in the request URI is invalid: ${name}=${text}`,
    );
  }
  const bound = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(digits > bound ? bound : digits < -bound ? -bound : digits);
}

/** A query parameter the operation cannot do without: MissingRequiredQueryParameter when absent. */
export function requiredParameter(ctx: RequestContext, name: string): string {
  const value = ctx.query.get(name);
  if (value === null) {
    throw new ProtocolError(
      400,
      "MissingRequiredQueryParameter",
      `A query parameter that's mandatory for this request is not specified: ${name}`,
    );
  }
  return value;
}

/**
 * `maxresults` of a listing: 1 or more (else OutOfRangeQueryParameterValue); past the service's
 * page size the service answers a full page, as here.
 */
export function maxResults(ctx: RequestContext, servicePageSize: number): number | undefined {
  const value = integerParameter(ctx, "maxresults");
  if (value === undefined) return undefined;
  if (value < 1) {
    throw new ProtocolError(
      400,
      "OutOfRangeQueryParameterValue",
      `One of the query parameters specified in the request URI is outside the permissible range: maxresults=${value}`,
    );
  }
  return Math.min(value, servicePageSize);
}
