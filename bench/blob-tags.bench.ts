/**
 * Find Blobs by Tags on the embedded engine (`file:`): with 100,000 tagged blobs, a selective
 * query seeks the (key, value) index of tk_blob_tags instead of reading every blob. Baseline in
 * the same run: the scan an application without the index would do, listing every blob with its
 * tags and filtering them itself.
 * Run: npx tsx bench/blob-tags.bench.ts (or npm run bench -- blob-tags; --smoke for tiny sizes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../src/index.js";
import { rounds, sized } from "./support/bench-mode.js";

const BLOBS = sized(100_000, 500);
const ROUNDS = rounds(5);
const dir = mkdtempSync(join(tmpdir(), "tablekit-tags-bench-"));

const pad = (n: number) => String(n).padStart(7, "0");

async function median(work: () => Promise<number>): Promise<{ ms: number; found: number }> {
  const times: number[] = [];
  let found = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    found = await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, found };
}

async function main(): Promise<void> {
  const store = await openStore(`file:${join(dir, "tags.db")}`);
  try {
    const container = await store.createContainer("tagged");
    const fill = performance.now();
    const body = Buffer.from("x");
    for (let i = 0; i < BLOBS; i++) {
      const tags: Record<string, string> = { batch: `b${i % 1000}`, n: pad(i) };
      if (i % 10_000 === 7) tags.owner = "rare";
      await container.getBlockBlobClient(`blob-${pad(i)}`).upload(body, 1, { tags });
    }
    const fillSeconds = (performance.now() - fill) / 1000;
    const count = async (expression: string) => {
      let n = 0;
      for await (const _ of store.findBlobsByTags(expression)) n++;
      return n;
    };
    const scan = async (test: (tags: Record<string, string>) => boolean) => {
      let n = 0;
      for await (const b of container.listBlobsFlat({ includeTags: true })) if (b.tags && test(b.tags)) n++;
      return n;
    };
    const rows = [
      { query: `"owner" = 'rare'`, ...(await median(() => count(`"owner" = 'rare'`))) },
      { query: `"batch" = 'b42'`, ...(await median(() => count(`"batch" = 'b42'`))) },
      {
        query: `"batch" = 'b42' AND "n" >= '0050000'`,
        ...(await median(() => count(`"batch" = 'b42' AND "n" >= '0050000'`))),
      },
      { query: `"n" >= '${pad(BLOBS - 10)}'`, ...(await median(() => count(`"n" >= '${pad(BLOBS - 10)}'`))) },
      { query: `scan baseline: owner = rare`, ...(await median(() => scan((t) => t.owner === "rare"))) },
    ];
    const scanMs = rows.at(-1)!.ms;
    console.log(`${BLOBS} blobs with 2-3 tags each, written in ${fillSeconds.toFixed(1)} s`);
    console.table(
      rows.map((r) => ({
        query: r.query,
        found: r.found,
        "median ms": Number(r.ms.toFixed(2)),
        "× faster than the scan": Number((scanMs / r.ms).toFixed(1)),
      })),
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
