/**
 * A uniform random sample of at most `size` items of a stream of unknown length (Vitter's
 * algorithm R): memory stays at `size` items however long the stream.
 */
export class Reservoir<T> {
  private readonly kept: T[] = [];
  private seen = 0;

  constructor(
    private readonly size: number,
    private readonly random: () => number = Math.random,
  ) {}

  add(item: T): void {
    this.seen++;
    if (this.kept.length < this.size) {
      this.kept.push(item);
      return;
    }
    const slot = Math.floor(this.random() * this.seen);
    if (slot < this.size) this.kept[slot] = item;
  }

  /** How many items the stream has had. */
  get count(): number {
    return this.seen;
  }

  get items(): readonly T[] {
    return this.kept;
  }
}
