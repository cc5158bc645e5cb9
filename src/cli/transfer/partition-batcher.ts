/**
 * Groups consecutive entities of one partition into entity group transactions: a batch ends when
 * the partition changes, when it holds `maxOperations` entities or would pass `maxBytes`, or when
 * a row repeats (a transaction may touch each row once; the later line must win, so it goes next).
 */
import type { NormalizedEntity } from "../../model/index.js";

export interface BatchLimits {
  readonly maxOperations: number;
  /** The most bytes of actions a transaction holds (`maxActionPayloadBytes`). */
  readonly maxBytes: number;
}

/** One batch: entities of one partition, plus whatever the caller tagged them with. */
export interface Batch<T> {
  readonly items: T[];
}

/** An item's `size`: the bytes its action adds to the transaction (`actionPayloadBytes`). */
export class PartitionBatcher<T extends { readonly entity: NormalizedEntity; readonly size: number }> {
  private items: T[] = [];
  private rows = new Set<string>();
  private bytes = 0;

  constructor(private readonly limits: BatchLimits) {}

  /** Adds an item; returns the batch it closed, if adding it closed one. */
  add(item: T): Batch<T> | undefined {
    const { size } = item;
    const first = this.items[0];
    const full =
      first !== undefined &&
      (first.entity.partitionKey !== item.entity.partitionKey ||
        this.items.length >= this.limits.maxOperations ||
        this.bytes + size > this.limits.maxBytes ||
        this.rows.has(item.entity.rowKey));
    const closed = full ? this.flush() : undefined;
    this.items.push(item);
    this.rows.add(item.entity.rowKey);
    this.bytes += size;
    return closed;
  }

  /** The open batch, if any, closing it. */
  flush(): Batch<T> | undefined {
    if (this.items.length === 0) return undefined;
    const batch = { items: this.items };
    this.items = [];
    this.rows = new Set();
    this.bytes = 0;
    return batch;
  }
}
