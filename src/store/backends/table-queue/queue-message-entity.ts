import type { PropertyOutput, TableEntityResult } from "../../../model/index.js";
import type { StoredMessage } from "../../queues/queue-backend.js";

/**
 * How the table-backed queue lays out a queue in its table (docs/queues.md):
 * - catalogue entries: PartitionKey `queues`, RowKey = queue name, `generation`;
 * - a queue's messages in partition `m.<name>.<generation>` (a recreated queue starts a new one):
 *   the message at RowKey `v<visible-at ms, 15 digits>.<id>`, so "visible now" is one key range in
 *   delivery order, and a marker at RowKey `i.<id>` holding its expiry (for counts and for telling
 *   a stale pop receipt from a deleted message).
 * Every key is printable ASCII, so it orders the same on every table backend.
 */
export const CATALOGUE_PARTITION = "queues";
export const MARKER_PREFIX = "i.";
export const VISIBLE_PREFIX = "v";

export function messagePartition(queue: string, generation: string): string {
  return `m.${queue}.${generation}`;
}

export function visibleKey(visibleAt: number, messageId: string): string {
  return `${VISIBLE_PREFIX}${String(visibleAt).padStart(15, "0")}.${messageId}`;
}

/** The exclusive upper bound of the RowKeys of messages visible at `now`. */
export function visibleUpTo(now: number): string {
  return `${VISIBLE_PREFIX}${String(now + 1).padStart(15, "0")}`;
}

export function markerKey(messageId: string): string {
  return `${MARKER_PREFIX}${messageId}`;
}

/** The message id in a message RowKey, or undefined when `rowKey` is not one. */
export function messageIdOf(rowKey: string): string | undefined {
  return /^v\d{15}\.(.+)$/.exec(rowKey)?.[1];
}

/** A message's stored fields besides its keys. */
export interface MessageFields {
  readonly messageId: string;
  readonly text: string;
  readonly dequeueCount: number;
  readonly insertedAt: number;
  readonly expiresAt: number;
  /** The secret of the current lease (see queue-pop-receipt.ts); absent on entities written before it. */
  readonly lease?: string;
}

const double = (value: number) => ({ value, type: "Double" as const });

/**
 * The message entity's properties. The text is split into chunks of at most `chunkUnits` UTF-16
 * code units (a table String holds 64 KiB of UTF-16; a 64 KiB message may hold twice that), never
 * between the two halves of a surrogate pair.
 */
export function messageProperties(fields: MessageFields, chunkUnits: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    id: fields.messageId,
    dequeues: { value: fields.dequeueCount, type: "Int32" },
    inserted: double(fields.insertedAt),
    expires: double(fields.expiresAt),
    ...(fields.lease === undefined ? {} : { lease: fields.lease }),
  };
  let i = 0;
  let start = 0;
  do {
    let end = Math.min(start + chunkUnits, fields.text.length);
    const last = fields.text.charCodeAt(end - 1);
    if (end < fields.text.length && last >= 0xd800 && last <= 0xdbff) end--;
    properties[`t${i++}`] = fields.text.slice(start, end);
    start = end;
  } while (start < fields.text.length);
  return properties;
}

export function markerProperties(expiresAt: number): Record<string, unknown> {
  return { expires: double(expiresAt) };
}

type Read = TableEntityResult<Record<string, PropertyOutput>>;

/** The fields of a message entity as a read returns it. */
export function messageFields(entity: Read): MessageFields {
  let text = "";
  for (let i = 0; typeof entity[`t${i}`] === "string"; i++) text += entity[`t${i}`] as string;
  return {
    messageId: entity.id as string,
    text,
    dequeueCount: entity.dequeues as number,
    insertedAt: entity.inserted as number,
    expiresAt: entity.expires as number,
    ...(typeof entity.lease === "string" ? { lease: entity.lease } : {}),
  };
}

export function storedMessage(fields: MessageFields): StoredMessage {
  return {
    messageId: fields.messageId,
    text: fields.text,
    dequeueCount: fields.dequeueCount,
    insertedOn: new Date(fields.insertedAt),
    expiresOn: new Date(fields.expiresAt),
  };
}
