import { type Readable, Transform } from "node:stream";
import { TableKitError } from "../../model/index.js";
import type { BlobDownloadOptions } from "./blob-client-types.js";

/** The body a download hands out: progress counted, ended by the caller's signal. */

/** Counts progress and ends the stream with Aborted when the caller's signal fires mid-download. */
export function watchBody(body: Readable, options: BlobDownloadOptions): Readable {
  let out = body;
  const onProgress = options.onProgress;
  if (onProgress) {
    let loaded = 0;
    out = body.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          loaded += chunk.length;
          onProgress({ loadedBytes: loaded });
          done(null, chunk);
        },
      }),
    );
    body.once("error", (err) => out.destroy(err));
    out.once("close", () => body.destroy());
  }
  const signal = options.abortSignal;
  if (signal) {
    const abort = () =>
      out.destroy(new TableKitError("Aborted", "The operation was aborted", { cause: signal.reason }));
    signal.addEventListener("abort", abort, { once: true });
    out.once("close", () => signal.removeEventListener("abort", abort));
  }
  return out;
}
