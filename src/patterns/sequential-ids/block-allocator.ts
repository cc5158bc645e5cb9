import { TableKitError } from "../../model/index.js";
import type { OperationOptions } from "../../store/index.js";
import type { SequenceCounter } from "./counter.js";

/** How big a block of ids one reservation takes. */
export interface BlockSizeOptions {
  /** The first block's size (default 100, SnowMaker's batch). */
  readonly initial?: number;
  /** Never smaller than this (default 1). */
  readonly min?: number;
  /** Never larger than this (default 100,000). */
  readonly max?: number;
  /**
   * The adaptive rule aims at one reservation per this many ms (default 1000): a block used up in
   * less than half of it makes the next block larger by the factor it fell short (2x to 8x); one
   * that lasted more than twice as long halves it.
   */
  readonly targetRefillMs?: number;
}

export interface BlockAllocatorOptions {
  /** A fixed block size, or adaptive bounds (the default: adaptive from 100). */
  readonly blockSize?: number | BlockSizeOptions;
  /** The clock, in ms (default `performance.now`); tests drive the adaptive rule with their own. */
  readonly now?: () => number;
}

/** An inclusive range of ids. */
export interface IdRange {
  readonly first: number;
  readonly last: number;
}

/**
 * Block allocation over a `SequenceCounter`: one conditional write reserves a block of ids that
 * this process then hands out locally, so the shared counter is written once per block and
 * contention falls by the block size. Concurrent callers in the process share one reservation in
 * flight. Adaptive by default: blocks grow while they run out fast and shrink while they last long.
 *
 * Guarantees: no id is handed out twice, in this process or across processes sharing the counter
 * (every block comes from the counter's guarantee). Ids from one allocator increase; across
 * allocators they interleave by block. Ids left in a block when the process stops are never
 * handed out (a gap; `unused()` tells which). Cost: two round trips per block, none per id.
 */
export class BlockIdAllocator {
  private nextId = 1;
  private last = 0;
  private refill: Promise<void> | undefined;
  private size: number;
  private lastRefillAt: number | undefined;
  private readonly min: number;
  private readonly max: number;
  private readonly target: number;
  private readonly adaptive: boolean;
  private readonly now: () => number;
  /** Blocks reserved so far. */
  blocks = 0;

  constructor(
    readonly counter: SequenceCounter,
    options: BlockAllocatorOptions = {},
  ) {
    const spec = options.blockSize ?? {};
    const fixed = typeof spec === "number";
    this.adaptive = !fixed;
    this.size = fixed ? spec : (spec.initial ?? 100);
    this.min = fixed ? spec : (spec.min ?? 1);
    this.max = fixed ? spec : (spec.max ?? 100_000);
    this.target = fixed ? 0 : (spec.targetRefillMs ?? 1000);
    for (const [name, v] of [
      ["blockSize", this.size],
      ["min", this.min],
      ["max", this.max],
    ] as const) {
      if (!Number.isSafeInteger(v) || v < 1)
        throw new TableKitError("InvalidInput", `${name} must be a positive integer, got ${v}`);
    }
    if (this.min > this.size || this.size > this.max) {
      throw new TableKitError("InvalidInput", "Block sizes must satisfy min <= initial <= max");
    }
    if (!fixed && !(this.target > 0))
      throw new TableKitError("InvalidInput", "targetRefillMs must be positive");
    this.now = options.now ?? (() => performance.now());
  }

  /** The size the next block will have. */
  get blockSize(): number {
    return this.size;
  }

  /** The next id: from the local block, or after reserving a new one. */
  async next(options?: OperationOptions): Promise<number> {
    while (this.nextId > this.last) {
      this.refill ??= this.reserveBlock(options).finally(() => {
        this.refill = undefined;
      });
      await this.refill;
    }
    return this.nextId++;
  }

  /** The ids reserved but not handed out yet (they are lost if the process stops). */
  unused(): IdRange[] {
    return this.nextId <= this.last ? [{ first: this.nextId, last: this.last }] : [];
  }

  private async reserveBlock(options?: OperationOptions): Promise<void> {
    const neededAt = this.now();
    if (this.adaptive && this.lastRefillAt !== undefined) {
      // How long the previous block lasted, from its reservation until this one was needed.
      const lasted = neededAt - this.lastRefillAt;
      // Grow by the factor the block fell short of the target (2x to 8x per block), so a burst of
      // demand reaches a fitting size in a few reservations instead of one doubling at a time.
      const factor = Math.min(8, Math.max(2, Math.floor(this.target / Math.max(lasted, 1))));
      if (lasted < this.target / 2) this.size = Math.min(this.max, this.size * factor);
      else if (lasted > this.target * 2) this.size = Math.max(this.min, Math.floor(this.size / 2));
    }
    const block = await this.counter.reserve(this.size, options);
    this.blocks++;
    this.lastRefillAt = this.now();
    this.nextId = block.first;
    this.last = block.last;
  }
}
