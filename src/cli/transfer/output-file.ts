/**
 * An output file written at known offsets, so an interrupted export can cut off whatever it wrote
 * after its last recorded page and carry on from there.
 */
import { closeSync, fdatasyncSync, openSync, statSync, truncateSync, writeSync } from "node:fs";
import { TableKitError } from "../../model/index.js";

export class OutputFile {
  private constructor(
    private readonly fd: number,
    /** Bytes written so far: where the next write goes. */
    public position: number,
  ) {}

  /** A new (or emptied) file. */
  static create(path: string): OutputFile {
    return new OutputFile(openSync(path, "w"), 0);
  }

  /** An existing file cut back to `length` bytes, to be continued. */
  static resume(path: string, length: number): OutputFile {
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size === undefined || size < length) {
      throw new TableKitError(
        "InvalidInput",
        `${path} is shorter than the ${length} bytes the interrupted export recorded; use --restart`,
      );
    }
    truncateSync(path, length);
    return new OutputFile(openSync(path, "r+"), length);
  }

  write(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    let done = 0;
    while (done < bytes.length)
      done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
  }

  /** Makes what was written durable before the state file says it was. */
  sync(): void {
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
