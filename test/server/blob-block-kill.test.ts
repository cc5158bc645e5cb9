/**
 * Finding 6 of issue 32, tried again: `tablekit serve --location` SIGKILLed right after answering
 * Put Block List. The committed block list is written in the blob row's transaction, so the next
 * server reports it and a later Put Block List keeping its blocks succeeds.
 */
import type { ChildProcess } from "node:child_process";
import { BlobServiceClient } from "@azure/storage-blob";
import { afterAll, describe, expect, it } from "vitest";
import { finished, startCli, tempDir } from "../cli/run-cli.js";
import { patternBytes } from "../conformance/blobs/factory.js";

const { dir, cleanup } = tempDir();
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
  cleanup();
});

/** Starts `tablekit serve` (blob only) on the directory; its connection string. */
async function serve(): Promise<string> {
  child = startCli(["serve", "--tablePort", "0", "--no-table", "--no-queue", "--location", `${dir}/store`], {
    cwd: dir,
  });
  const done = finished(child);
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child!.stdout!.on("data", (d: Buffer | string) => {
      out += d.toString();
      const match = /Connection string: (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void done.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
  });
}

async function kill(): Promise<void> {
  const proc = child!;
  const gone = new Promise<void>((r) => proc.once("exit", () => r()));
  proc.kill("SIGKILL");
  await gone;
}

const id = (n: number) => Buffer.from(`block-${n}`).toString("base64");

describe("tablekit serve killed right after Put Block List", () => {
  it("keeps the committed block list: the next server reports it and keeps its blocks", {
    timeout: 60_000,
  }, async () => {
    const first = BlobServiceClient.fromConnectionString(await serve());
    await first.createContainer("killed");
    const blob = first.getContainerClient("killed").getBlockBlobClient("b");
    const blocks = [patternBytes(200_000, 1), patternBytes(10, 2), patternBytes(90_000, 3)];
    for (const [i, bytes] of blocks.entries()) await blob.stageBlock(id(i), bytes, bytes.length);
    await blob.commitBlockList([id(0), id(1), id(2)]);
    await kill();

    const second = BlobServiceClient.fromConnectionString(await serve());
    const again = second.getContainerClient("killed").getBlockBlobClient("b");
    const list = await again.getBlockList("committed");
    expect(list.committedBlocks?.map((b) => [b.name, b.size])).toEqual([
      [id(0), 200_000],
      [id(1), 10],
      [id(2), 90_000],
    ]);
    expect((await again.downloadToBuffer()).equals(Buffer.concat(blocks))).toBe(true);
    const tail = patternBytes(5, 4);
    await again.stageBlock(id(3), tail, tail.length);
    await again.commitBlockList([id(2), id(3), id(0)]);
    expect((await again.downloadToBuffer()).equals(Buffer.concat([blocks[2]!, tail, blocks[0]!]))).toBe(true);
    await kill();
  });
});
