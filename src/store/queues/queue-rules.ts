import { type QueueLimits, TableKitError } from "../../model/index.js";

/** Checks a queue name against the service's rules (InvalidResourceName) and returns it. */
export function validateQueueName(name: unknown, limits: QueueLimits): string {
  if (typeof name !== "string" || !limits.queueNamePattern.test(name)) {
    throw new TableKitError(
      "InvalidResourceName",
      `Queue name ${JSON.stringify(name)} is invalid: 3-63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit`,
      { details: { queueName: name } },
    );
  }
  return name;
}

// Characters XML 1.0 cannot carry (the service's wire format), and unpaired surrogates.
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Checks a message text: a string the service's XML can carry, at most `maxMessageBytes` UTF-8
 * bytes. The size is measured as the service measures the text it stores; a caller who base64-
 * encodes binary data has 48 KiB of data in 64 KiB of text.
 */
export function validateMessageText(text: unknown, limits: QueueLimits): string {
  if (typeof text !== "string") {
    throw new TableKitError("InvalidInput", "A message text must be a string", { details: { text } });
  }
  const bad = NOT_XML.exec(text);
  if (bad) {
    throw new TableKitError(
      "InvalidInput",
      `A message text cannot hold U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} (at index ${bad.index}): the service's XML cannot carry it; base64-encode binary data`,
      { details: { index: bad.index } },
    );
  }
  // Cheap bound first: UTF-8 takes at most 3 bytes per UTF-16 code unit.
  if (text.length * 3 > limits.maxMessageBytes) {
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > limits.maxMessageBytes) {
      throw new TableKitError(
        "RequestBodyTooLarge",
        `The message text is ${bytes} UTF-8 bytes; the limit is ${limits.maxMessageBytes}`,
        { details: { bytes, limit: limits.maxMessageBytes } },
      );
    }
  }
  return text;
}

/**
 * Checks an integer option: not an integer is InvalidQueryParameterValue, outside `min..max` is
 * OutOfRangeQueryParameterValue (the service's codes for its query parameters).
 */
export function checkInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new TableKitError(
      "InvalidQueryParameterValue",
      `${name} must be an integer, got ${String(value)}`,
      {
        details: { [name]: value },
      },
    );
  }
  if (value < min || value > max) {
    throw new TableKitError(
      "OutOfRangeQueryParameterValue",
      `${name} must be from ${min} to ${max}, got ${value}`,
      {
        details: { [name]: value, min, max },
      },
    );
  }
  return value;
}

/** A time-to-live: -1 (never) or 1..max seconds. */
export function checkTimeToLive(value: unknown, limits: QueueLimits): number {
  if (value === -1) return -1;
  return checkInteger("messageTimeToLive", value, 1, limits.maxTimeToLiveSeconds);
}

/** A message id or pop receipt: a non-empty string (its meaning is the backend's). */
export function checkToken(name: string, value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new TableKitError("InvalidInput", `${name} must be a non-empty string`, {
      details: { [name]: value },
    });
  }
  return value;
}
