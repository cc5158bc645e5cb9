import type { IncomingMessage } from "node:http";
import { TableKitError } from "../../model/index.js";

/** How far a signed request's date may be from the server's clock (the service allows 15 minutes). */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

/** The request time a Shared Key signature covers: the header it came in and its value. */
export interface SignedDate {
  readonly header: "x-ms-date" | "date";
  readonly text: string;
  readonly ms: number;
}

export function authenticationFailed(detail: string): TableKitError {
  return new TableKitError(
    "AuthenticationFailed",
    `Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. ${detail}`,
  );
}

/**
 * The request's time of creation, for every storage service: `x-ms-date` when the request has it,
 * else `Date` ("if both headers are specified, the value of x-ms-date is used"). That one value is
 * both the date a signature must cover and the date checked against the clock, so a fresh unsigned
 * header cannot revive an old signature. A header sent twice is refused: which copy was signed is
 * unknowable.
 */
export function signedRequestDate(req: IncomingMessage, now = Date.now()): SignedDate {
  const single = (name: "x-ms-date" | "date"): string => {
    const values = req.headersDistinct[name] ?? [];
    if (values.length > 1) throw authenticationFailed(`The ${name} header is given more than once.`);
    return values[0]?.trim() ?? "";
  };
  const xmsDate = single("x-ms-date");
  const date = single("date");
  const header = xmsDate !== "" ? "x-ms-date" : "date";
  const text = xmsDate !== "" ? xmsDate : date;
  const ms = Date.parse(text);
  if (text === "" || Number.isNaN(ms)) {
    throw authenticationFailed("The request has no valid x-ms-date or Date header.");
  }
  if (Math.abs(now - ms) > MAX_CLOCK_SKEW_MS) {
    throw authenticationFailed(`Request date header too old or too far in the future: '${text}'.`);
  }
  return { header, text, ms };
}
