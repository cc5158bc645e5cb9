/**
 * Blocks on a file store across processes that die: a commit killed right after it returns keeps
 * its committed block list (it is written in the blob row's transaction), and the bytes of a
 * block whose writer died mid-stream are swept by the next store to open, whatever process wrote
 * them (no PID is consulted), once they have been left untouched for the grace period.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { ORPHAN_GRACE_MS } from "../../../src/store/backends/embedded/embedded-containers.js";
import { patternBytes } from "../../conformance/blobs/factory.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const dir = mkdtempSync(join(tmpdir(), "tablekit-block-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const id = (n: number) => Buffer.from(`block-${n}`).toString("base64");

/** Runs block-child.ts; resolves with how it ended once it is dead (killed by `kill` when given). */
function child(
  url: string,
  mode: string,
  kill?: (out: string) => boolean,
): Promise<NodeJS.Signals | number | null> {
  const proc = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "test/store/blobs/block-child.ts"), url, mode],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  proc.stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
    if (kill?.(out)) proc.kill("SIGKILL");
  });
  proc.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
  return new Promise((done) => proc.on("close", (code, signal) => done(signal ?? code)));
}

/** The content files beside the database. */
function contentFiles(db: string): string[] {
  const blobs = `${db}.blobs`;
  try {
    return readdirSync(blobs, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

describe("blocks on a file store whose writer dies", () => {
  it("keeps the committed block list of a commit killed right after it returned", async () => {
    const db = join(dir, "commit.db");
    expect(await child(`file:${db}`, "commit-then-die")).toBe("SIGKILL");
    const store = await openStore(`file:${db}`);
    try {
      const blob = store.container("crash").getBlockBlobClient("commit-then-die");
      const lists = await blob.getBlockList("all");
      expect(lists.committedBlocks.map((b) => b.name)).toEqual([id(1), id(2), id(0)]);
      expect(lists.uncommittedBlocks).toEqual([]);
      const whole = Buffer.concat([patternBytes(100_000, 1), Buffer.from("tail"), patternBytes(100_000, 0)]);
      expect((await blob.downloadToBuffer()).equals(whole)).toBe(true);
      // The kept blocks can be committed again, from the committed list.
      await blob.commitBlockList([
        { id: id(0), list: "committed" },
        { id: id(2), list: "committed" },
      ]);
      expect(
        (await blob.downloadToBuffer()).equals(
          Buffer.concat([patternBytes(100_000, 0), Buffer.from("tail")]),
        ),
      ).toBe(true);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("sweeps the bytes of a block whose writer died, once untouched for the grace period, and keeps fresh ones", async () => {
    const db = join(dir, "stage.db");
    const url = `file:${db}`;
    expect(await child(url, "stage-then-die", (out) => out.includes("writing"))).toBe("SIGKILL");
    const left = contentFiles(db);
    expect(left).toHaveLength(1);
    // A fresh file may be a live writer's in another process: the next store keeps it.
    const first = await openStore(url);
    await first.container("crash").exists();
    expect(await codeOfList(first)).toBe("BlobNotFound");
    await first.close();
    expect(contentFiles(db)).toEqual(left);
    // Untouched past the grace period: whoever wrote it (a live PID or not), it is an orphan.
    const old = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
    utimesSync(left[0]!, old, old);
    const second = await openStore(url);
    await second.container("crash").exists();
    await second.close();
    expect(contentFiles(db)).toEqual([]);
    expect(statSync(`${db}.blobs`).isDirectory()).toBe(true);
  }, 60_000);
});

describe("the uncommitted block limit on the embedded engine", () => {
  it("stages the 100,000th block of a blob, refuses the 100,001st, and still replaces a staged one", async () => {
    const db = join(dir, "limit.db");
    const store = await openStore(`file:${db}`);
    try {
      const c = await store.createContainer("limit");
      const blob = c.getBlockBlobClient("b");
      const max = store.blobCapabilities!.maxUncommittedBlocks;
      const wide = (n: number) => Buffer.from(String(n).padStart(6, "0")).toString("base64");
      await blob.stageBlock(wide(0), "a", 1);
      // 99,998 more staged rows, written straight into the table the engine counts (staging them one by one takes minutes).
      const raw = new Database(db);
      const { container } = raw.prepare("SELECT container FROM tk_staged_blocks LIMIT 1").get() as {
        container: number;
      };
      const insert = raw.prepare(
        "INSERT INTO tk_staged_blocks (container, blob, id, size, content, data) VALUES (?, 'b', ?, 1, '', x'61')",
      );
      raw.transaction(() => {
        for (let n = 1; n < max - 1; n++) insert.run(container, wide(n));
      })();
      raw.close();
      await blob.stageBlock(wide(max - 1), "a", 1);
      expect((await blob.getBlockList("uncommitted")).uncommittedBlocks).toHaveLength(max);
      expect(await codeOf(blob.stageBlock(wide(max), "a", 1))).toBe("BlockCountExceedsLimit");
      await blob.stageBlock(wide(5), "bb", 2);
      expect((await blob.getBlockList("uncommitted")).uncommittedBlocks).toHaveLength(max);
    } finally {
      await store.close();
    }
  }, 120_000);
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (err) {
    return (err as { code: string }).code;
  }
}

async function codeOfList(store: Awaited<ReturnType<typeof openStore>>): Promise<string> {
  try {
    await store.container("crash").getBlockBlobClient("stage-then-die").getBlockList("all");
    return "ok";
  } catch (err) {
    return (err as { code: string }).code;
  }
}
