/** Seed 001's log data anti-pattern, solved as Storage Analytics does: records appended to time-named blobs. */
import { BlobLog } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { heading, readResult } from "./show.js";

/** Kept between runs and emptied (a deleted Azure container cannot be re-created for a while). */
export const LOG_CONTAINER = "demo-logs";

export async function blobLogDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Log data in blobs",
    "seed 001",
    "Writing each log record as an entity makes the current minute's partition hot and a time-range\nread a scan. The writer buffers records and appends them as NDJSON to blobs named by time,\n<source>/yyyy/MM/dd/HHmm/000001.log; a read of a time range lists only the prefixes it needs.",
  );
  if (!store.blobCapabilities) {
    out.line(out.style.dim(`  ${store.url} has no blob backend: skipped (see docs/blobs.md).`));
    out.line();
    return;
  }
  const container = store.container(LOG_CONTAINER);
  await container.createIfNotExists();
  for await (const blob of container.listBlobsFlat()) await container.deleteBlob(blob.name);

  const log = new BlobLog(store, { container, source: "queue", periodMinutes: 1 });
  const writer = log.writer({ flushIntervalMs: 1000 });
  const start = Date.parse("2014-07-31T15:03:30Z"); // the seed's Storage Analytics example day
  for (let i = 0; i < 30; i++) {
    writer.write({ level: i % 4 === 0 ? "error" : "info", n: i }, { at: new Date(start + i * 10_000) });
  }
  await writer.close();

  const blobs: string[][] = [];
  for await (const blob of container.listBlobsFlat()) {
    blobs.push([blob.name, String(blob.properties.contentLength ?? "")]);
  }
  readResult(
    out,
    `30 records (one every 10 s from 15:03:30) in ${writer.stats.flushes} flush: the blobs written`,
    ["Blob", "Bytes"],
    blobs,
  );

  const from = new Date("2014-07-31T15:04:00Z");
  const to = new Date("2014-07-31T15:06:00Z");
  const errors: string[][] = [];
  for await (const entry of log.read({ from, to })) {
    if (entry.fields.level === "error") errors.push([entry.time.toISOString(), String(entry.fields.n)]);
  }
  readResult(
    out,
    `errors from 15:04 to 15:06: prefixes ${log.prefixes(from, to).join(", ")} listed, nothing else read`,
    ["At", "n"],
    errors,
  );
}
