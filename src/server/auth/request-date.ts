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
    // The Queue and Blob services write the detail in its own XML element (responses.ts).
    { details: { authenticationErrorDetail: detail } },
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
  const xmsDate = singleHeader(req, "x-ms-date");
  const date = singleHeader(req, "date");
  const header = xmsDate !== "" ? "x-ms-date" : "date";
  const text = xmsDate !== "" ? xmsDate : date;
  const ms = parsedDate(text);
  if (text === "" || Number.isNaN(ms)) {
    throw authenticationFailed("The request has no valid x-ms-date or Date header.");
  }
  if (Math.abs(now - ms) > MAX_CLOCK_SKEW_MS) {
    throw authenticationFailed(`Request date header too old or too far in the future: '${text}'.`);
  }
  return { header, text, ms };
}

/** The last date text parsed and its time: a client signs the same second's text on many requests. */
let lastDate = { text: "", ms: Number.NaN };

function parsedDate(text: string): number {
  if (text !== lastDate.text) lastDate = { text, ms: Date.parse(text) };
  return lastDate.ms;
}

/**
 * A header's one value, trimmed ("" when absent), read from the raw headers: `headersDistinct`
 * would build an array for every header of the request to answer for one.
 */
function singleHeader(req: IncomingMessage, name: "x-ms-date" | "date"): string {
  const raw = req.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i]!;
    if (given.length !== name.length || given.toLowerCase() !== name) continue;
    if (value !== undefined) throw authenticationFailed(`The ${name} header is given more than once.`);
    value = raw[i + 1]!;
  }
  return value?.trim() ?? "";
}
