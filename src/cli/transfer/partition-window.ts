/**
 * Groups the entities of an import into entity group transactions when their partitions are
 * interleaved: one buffer per partition, each closed when it holds `maxOperations` entities or
 * would pass `maxBytes`, or when a row repeats (a transaction touches each row once; the later
 * line must win, so it goes in the next one). The window is bounded: when the buffers hold more
 * than `maxBufferedBytes`, or the oldest buffered line is `maxLines` lines behind the newest, the
 * buffer holding the oldest line is closed, however small. So memory is bounded whatever the file
 * size, and so is the set of lines written out of order (what the resume state records).
 */
import type { Batch, BatchLimits } from "./partition-batcher.js";

export interface WindowLimits extends BatchLimits {
  /** Close the oldest buffer once the newest line is this many lines after its first line. */
  readonly maxLines: number;
  /** Close the oldest buffers while all buffers together hold more (the items' sizes). */
  readonly maxBufferedBytes: number;
}

/** What the window needs of an entity: its keys, its size and its line. */
export interface WindowItem {
  readonly partitionKey: string;
  readonly rowKey: string;
  /** The bytes its action adds to a transaction (`actionPayloadBytes`). */
  readonly size: number;
  readonly line: number;
}

interface PartitionBuffer<T> {
  readonly items: T[];
  readonly rows: Set<string>;
  bytes: number;
}

export class PartitionWindow<T extends WindowItem> {
  /** Open buffers by PartitionKey; Map order is creation order, so the first holds the oldest line. */
  private readonly buffers = new Map<string, PartitionBuffer<T>>();
  private bufferedBytes = 0;

  constructor(private readonly limits: WindowLimits) {}

  /** Adds an item; returns the batches this closed, to be written in this order. */
  add(item: T): Batch<T>[] {
    const closed: Batch<T>[] = [];
    const { partitionKey, rowKey, size } = item;
    let buffer = this.buffers.get(partitionKey);
    if (
      buffer &&
      (buffer.items.length >= this.limits.maxOperations ||
        buffer.bytes + size > this.limits.maxBytes ||
        buffer.rows.has(rowKey))
    ) {
      closed.push(this.close(partitionKey, buffer));
      buffer = undefined;
    }
    if (!buffer) {
      buffer = { items: [], rows: new Set(), bytes: 0 };
      this.buffers.set(partitionKey, buffer);
    }
    buffer.items.push(item);
    buffer.rows.add(rowKey);
    buffer.bytes += size;
    this.bufferedBytes += size;
    if (buffer.items.length >= this.limits.maxOperations) closed.push(this.close(partitionKey, buffer));
    for (;;) {
      const [oldestKey, oldest] = this.buffers.entries().next().value ?? [];
      if (oldestKey === undefined || oldest === undefined) break;
      const tooOld = item.line - oldest.items[0]!.line >= this.limits.maxLines;
      if (!tooOld && this.bufferedBytes <= this.limits.maxBufferedBytes) break;
      closed.push(this.close(oldestKey, oldest));
    }
    return closed;
  }

  /** Closes every buffer, oldest first. */
  flush(): Batch<T>[] {
    return [...this.buffers].map(([key, buffer]) => this.close(key, buffer));
  }

  private close(partitionKey: string, buffer: PartitionBuffer<T>): Batch<T> {
    this.buffers.delete(partitionKey);
    this.bufferedBytes -= buffer.bytes;
    return { items: buffer.items };
  }
}
