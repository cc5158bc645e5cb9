import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { patternBytes } from "../../conformance/blobs/factory.js";

/** The embedded engine keeps page blobs sparse: a 1 TiB blob costs the pages written, not its size. */
describe("embedded page blobs are sparse", () => {
  it("a 1 TiB page blob with 3 pages written takes a few MB on disk and reads zeros elsewhere", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablekit-sparse-"));
    try {
      const db = join(dir, "pages.db");
      const store = await openStore(`file:${db}`);
      const disk = (await store.createContainer("disks")).getPageBlobClient("huge.vhd");
      const TiB = 1024 ** 4;
      await disk.create(TiB);
      await disk.uploadPages(patternBytes(512, 1), 0, 512);
      await disk.uploadPages(patternBytes(512, 2), TiB / 2, 512);
      await disk.uploadPages(patternBytes(512, 3), TiB - 512, 512);
      expect((await disk.getPageRanges()).pageRange).toEqual([
        { start: 0, end: 511 },
        { start: TiB / 2, end: TiB / 2 + 511 },
        { start: TiB - 512, end: TiB - 1 },
      ]);
      const around = await disk.downloadToBuffer(TiB / 2 - 1024, 2048);
      expect(around.subarray(0, 1024).equals(Buffer.alloc(1024))).toBe(true);
      expect(around.subarray(1024, 1536).equals(patternBytes(512, 2))).toBe(true);
      expect((await disk.downloadToBuffer(TiB - 512)).equals(patternBytes(512, 3))).toBe(true);
      await store.close();
      const bytes = readdirSync(dir, { recursive: true })
        .map((f) => statSync(join(dir, String(f))))
        .filter((s) => s.isFile())
        .reduce((sum, s) => sum + s.blocks * 512, 0);
      expect(bytes).toBeLessThan(4 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
