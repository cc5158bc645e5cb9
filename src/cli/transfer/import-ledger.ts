/**
 * Which lines of an import are written, exactly, when transactions commit out of line order: a
 * low-water mark (every line up to it is written or blank) plus the records after it that are
 * written already. A rerun skips exactly those, so after any interruption every line is written
 * once (docs/cli.md, "Resuming"). The records after the mark lie inside the import's window, so
 * the list stays short whatever the file size.
 */

/** Where an import stands: what its resume state records. */
export interface ImportPosition {
  /** Every line up to this one is written (or blank). */
  readonly line: number;
  /**
   * The byte offset after line `line`, where the first line not known to be written starts (after
   * a line that could not even be split into a record, possibly a little earlier: a lower bound).
   */
  readonly offset: number;
  /** Records after `line` already written, as inclusive line ranges in order. */
  readonly written: readonly (readonly [first: number, last: number])[];
}

/** The lines a record spans and where it starts and ends in the file. */
export interface RecordSpan {
  readonly line: number;
  readonly endLine: number;
  readonly offset: number;
  readonly endOffset: number;
}

/** A record the ledger follows until it is written. */
export interface Slot extends RecordSpan {
  done: boolean;
}

export class ImportLedger {
  /** Records from the oldest not yet written on, in file order. */
  private slots: Slot[] = [];
  private head = 0;
  /** The records after the oldest not yet written that are written, as merged line ranges in order. */
  private readonly ahead: [number, number][] = [];
  /** How far the input has been read: every line up to `readLine` is a record seen, or blank. */
  private readLine: number;
  private readOffset: number;

  constructor(start: { line: number; offset: number } = { line: 0, offset: 0 }) {
    this.readLine = start.line;
    this.readOffset = start.offset;
  }

  /** The input has reached line `line` (every line before it is read); `offset` is where it starts. */
  reach(line: number, offset?: number): void {
    this.readLine = Math.max(this.readLine, line - 1);
    if (offset !== undefined) this.readOffset = Math.max(this.readOffset, offset);
  }

  /** Follows a record read from the input; `done` when it needs no writing (written by an earlier run). */
  open(record: RecordSpan, done = false): Slot {
    const slot: Slot = {
      line: record.line,
      endLine: record.endLine,
      offset: record.offset,
      endOffset: record.endOffset,
      done: false,
    };
    this.slots.push(slot);
    this.readLine = Math.max(this.readLine, record.endLine);
    this.readOffset = Math.max(this.readOffset, record.endOffset);
    if (done) this.written([slot]);
    return slot;
  }

  /** Marks records written (their transaction committed). */
  written(slots: readonly Slot[]): void {
    for (const slot of slots) {
      slot.done = true;
      this.addRange(slot.line, slot.endLine);
    }
  }

  /** The position to record now. */
  position(): ImportPosition {
    while (this.head < this.slots.length && this.slots[this.head]!.done) this.head++;
    if (this.head > 1024 && this.head * 2 > this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
    const pending = this.slots[this.head];
    const line = pending ? pending.line - 1 : this.readLine;
    // Ranges now under the low-water mark are implied by it.
    let covered = 0;
    while (covered < this.ahead.length && this.ahead[covered]![1] <= line) covered++;
    this.ahead.splice(0, covered);
    const written = this.ahead.map(([first, last]) => [first, last] as const);
    return pending ? { line, offset: pending.offset, written } : { line, offset: this.readOffset, written };
  }

  /** Adds lines first..last to the ordered, merged ranges (they are in none yet). */
  private addRange(first: number, last: number): void {
    const ranges = this.ahead;
    // Binary search: the index of the first range starting after `first`.
    let i = 0;
    let j = ranges.length;
    while (i < j) {
      const mid = (i + j) >>> 1;
      if (ranges[mid]![0] > first) j = mid;
      else i = mid + 1;
    }
    const before = ranges[i - 1];
    const after = ranges[i];
    if (before && before[1] + 1 === first) {
      before[1] = last;
      if (after && last + 1 === after[0]) {
        before[1] = after[1];
        ranges.splice(i, 1);
      }
    } else if (after && last + 1 === after[0]) {
      after[0] = first;
    } else {
      ranges.splice(i, 0, [first, last]);
    }
  }
}

/** Tells, record by record in file order, which ones an earlier run of the import wrote. */
export class WrittenBefore {
  private range = 0;

  constructor(private readonly position: ImportPosition | undefined) {}

  /** True when the record starting on `line` and ending on `endLine` was written. */
  covers(line: number, endLine: number): boolean {
    if (!this.position) return false;
    if (endLine <= this.position.line) return true;
    const ranges = this.position.written;
    while (this.range < ranges.length && ranges[this.range]![1] < line) this.range++;
    const range = ranges[this.range];
    return range !== undefined && range[0] <= line && line <= range[1];
  }
}
