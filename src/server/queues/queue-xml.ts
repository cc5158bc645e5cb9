import type { PeekedMessageItem, QueueSendMessageResponse, ReceivedMessageItem } from "../../store/index.js";
import { child, escapeXml, httpDate, invalidXml, parseXml } from "../protocol/xml.js";

/** The Queue service's XML bodies: messages in and out, queue listings. */

const HEAD = '<?xml version="1.0" encoding="utf-8"?>';

/** The text of `<QueueMessage><MessageText>…</MessageText></QueueMessage>`. */
export function messageTextOf(body: string): string {
  const root = parseXml(body);
  const text = root.name === "QueueMessage" ? child(root, "MessageText") : undefined;
  if (!text) throw invalidXml("The body must be <QueueMessage><MessageText>…</MessageText></QueueMessage>.");
  return text.text;
}

export function sentMessageXml(sent: QueueSendMessageResponse): string {
  return `${HEAD}<QueueMessagesList><QueueMessage><MessageId>${sent.messageId}</MessageId><InsertionTime>${httpDate(
    sent.insertedOn,
  )}</InsertionTime><ExpirationTime>${httpDate(sent.expiresOn)}</ExpirationTime><PopReceipt>${escapeXml(
    sent.popReceipt,
  )}</PopReceipt><TimeNextVisible>${httpDate(sent.nextVisibleOn)}</TimeNextVisible></QueueMessage></QueueMessagesList>`;
}

export function receivedMessagesXml(items: readonly ReceivedMessageItem[]): string {
  const one = (m: ReceivedMessageItem) =>
    `<QueueMessage><MessageId>${m.messageId}</MessageId><InsertionTime>${httpDate(m.insertedOn)}</InsertionTime><ExpirationTime>${httpDate(
      m.expiresOn,
    )}</ExpirationTime><PopReceipt>${escapeXml(m.popReceipt)}</PopReceipt><TimeNextVisible>${httpDate(
      m.nextVisibleOn,
    )}</TimeNextVisible><DequeueCount>${m.dequeueCount}</DequeueCount><MessageText>${escapeXml(m.messageText)}</MessageText></QueueMessage>`;
  return `${HEAD}<QueueMessagesList>${items.map(one).join("")}</QueueMessagesList>`;
}

export function peekedMessagesXml(items: readonly PeekedMessageItem[]): string {
  const one = (m: PeekedMessageItem) =>
    `<QueueMessage><MessageId>${m.messageId}</MessageId><InsertionTime>${httpDate(m.insertedOn)}</InsertionTime><ExpirationTime>${httpDate(
      m.expiresOn,
    )}</ExpirationTime><DequeueCount>${m.dequeueCount}</DequeueCount><MessageText>${escapeXml(m.messageText)}</MessageText></QueueMessage>`;
  return `${HEAD}<QueueMessagesList>${items.map(one).join("")}</QueueMessagesList>`;
}

export interface QueueListing {
  readonly serviceEndpoint: string;
  readonly prefix?: string;
  readonly marker?: string;
  readonly maxResults?: number;
  readonly queues: readonly { readonly name: string; readonly metadata?: Readonly<Record<string, string>> }[];
  readonly nextMarker?: string;
}

export function queueListingXml(listing: QueueListing): string {
  const queue = (q: QueueListing["queues"][number]) =>
    `<Queue><Name>${q.name}</Name>${
      q.metadata
        ? `<Metadata>${Object.entries(q.metadata)
            .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
            .join("")}</Metadata>`
        : ""
    }</Queue>`;
  return `${HEAD}<EnumerationResults ServiceEndpoint="${escapeXml(listing.serviceEndpoint)}">${
    listing.prefix !== undefined ? `<Prefix>${escapeXml(listing.prefix)}</Prefix>` : ""
  }${listing.marker !== undefined ? `<Marker>${escapeXml(listing.marker)}</Marker>` : ""}${
    listing.maxResults !== undefined ? `<MaxResults>${listing.maxResults}</MaxResults>` : ""
  }<Queues>${listing.queues.map(queue).join("")}</Queues><NextMarker>${escapeXml(listing.nextMarker ?? "")}</NextMarker></EnumerationResults>`;
}
