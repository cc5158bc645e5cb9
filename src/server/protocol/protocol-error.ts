import http from "node:http";

/**
 * A failure of the HTTP protocol itself (a malformed URL, header or multipart body, an unknown
 * route), answered with the service's code. Everything about tables and entities is the core's
 * TableKitError; this covers only what never reaches the core.
 */
export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const invalidInput = (message: string) => new ProtocolError(400, "InvalidInput", message);
export const invalidHeader = (message: string) => new ProtocolError(400, "InvalidHeaderValue", message);
/** A queue or container name of the wrong length: the service's OutOfRangeInput (other bad names are InvalidResourceName). */
export const nameLengthOutOfRange = () =>
  new ProtocolError(
    400,
    "OutOfRangeInput",
    "The specified resource name length is not within the permissible limits.",
  );
export const invalidUri = (message = "The requested URI does not represent any resource on the server.") =>
  new ProtocolError(400, "InvalidUri", message);
export const unsupportedVerb = (method: string) =>
  new ProtocolError(
    405,
    "UnsupportedHttpVerb",
    `The resource doesn't support the specified HTTP verb ${method}.`,
  );

/** "204 No Content": the status line text of a status. */
export function statusText(status: number): string {
  return `${status} ${http.STATUS_CODES[status] ?? "Unknown"}`;
}
