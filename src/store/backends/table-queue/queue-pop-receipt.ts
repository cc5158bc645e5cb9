import { randomBytes } from "node:crypto";

/**
 * A pop receipt of the table-backed queue names the lease exactly: the message entity's RowKey
 * (which holds the visibility time), its ETag (every receive or update writes a new one, so an old
 * receipt's conditional delete fails), the message's expiry (an expired message is gone even
 * before it is purged), and the lease's secret: 128 random bits stored with the message, without
 * which the other three (all guessable) are refused. Opaque to callers: base64url of the four,
 * newline-separated; the RowKey's leading "v" makes it begin with "d", never "-".
 */
export interface PopReceipt {
  readonly rowKey: string;
  readonly etag: string;
  readonly expiresAt: number;
  readonly lease: string;
}

/** A new lease secret (stored in the message entity and carried by its receipt). */
export function newLeaseSecret(): string {
  return randomBytes(16).toString("base64url");
}

export function encodePopReceipt(receipt: PopReceipt): string {
  return Buffer.from(
    `${receipt.rowKey}\n${receipt.etag}\n${receipt.expiresAt}\n${receipt.lease}`,
    "utf8",
  ).toString("base64url");
}

/** The receipt's parts, or undefined when it is not one this queue made. */
export function decodePopReceipt(text: string): PopReceipt | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const parts = Buffer.from(text, "base64url").toString("utf8").split("\n");
  if (parts.length !== 4 || !/^\d+$/.test(parts[2]!) || !/^[A-Za-z0-9_-]{22}$/.test(parts[3]!))
    return undefined;
  const receipt = { rowKey: parts[0]!, etag: parts[1]!, expiresAt: Number(parts[2]), lease: parts[3]! };
  // Only the one spelling this queue writes: base64url's spare bits must not make a second one.
  return encodePopReceipt(receipt) === text ? receipt : undefined;
}
