/**
 * An output file written at known offsets, so an interrupted export can cut off whatever it wrote
 * after its last recorded page and carry on from there.
 */
import { closeSync, fdatasyncSync, openSync, statSync, truncateSync, writeSync } from "node:fs";
import { fileError } from "../../model/file-error.js";
import { TableKitError } from "../../model/index.js";

export class OutputFile {
  private constructor(
    private readonly path: string,
    private readonly fd: number,
    /** Bytes written so far: where the next write goes. */
    public position: number,
  ) {}

  /** A new (or emptied) file. */
  static create(path: string): OutputFile {
    return new OutputFile(path, opened(path, "w"), 0);
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
    try {
      truncateSync(path, length);
    } catch (err) {
      throw fileError(err, "write", path);
    }
    return new OutputFile(path, opened(path, "r+"), length);
  }

  write(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    let done = 0;
    try {
      while (done < bytes.length)
        done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    } catch (err) {
      throw fileError(err, "write", this.path);
    }
    this.position += bytes.length;
  }

  /** Makes what was written durable before the state file says it was. */
  sync(): void {
    try {
      fdatasyncSync(this.fd);
    } catch (err) {
      throw fileError(err, "write", this.path);
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

function opened(path: string, flags: "w" | "r+"): number {
  try {
    return openSync(path, flags);
  } catch (err) {
    throw fileError(err, "write", path);
  }
}
