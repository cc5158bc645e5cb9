/**
 * A pop receipt of the table-backed queue names the lease exactly: the message entity's RowKey
 * (which holds the visibility time), its ETag (every receive or update writes a new one, so an old
 * receipt's conditional delete fails), and the message's expiry (an expired message is gone even
 * before it is purged). Opaque to callers: base64url of the three, newline-separated.
 */
export interface PopReceipt {
  readonly rowKey: string;
  readonly etag: string;
  readonly expiresAt: number;
}

export function encodePopReceipt(receipt: PopReceipt): string {
  return Buffer.from(`${receipt.rowKey}\n${receipt.etag}\n${receipt.expiresAt}`, "utf8").toString(
    "base64url",
  );
}

/** The receipt's parts, or undefined when it is not one this queue made. */
export function decodePopReceipt(text: string): PopReceipt | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const parts = Buffer.from(text, "base64url").toString("utf8").split("\n");
  if (parts.length !== 3 || !/^\d+$/.test(parts[2]!)) return undefined;
  return { rowKey: parts[0]!, etag: parts[1]!, expiresAt: Number(parts[2]) };
}
