/**
 * A process that dies at a chosen moment of block work on a file store:
 * `node --import tsx block-child.ts <store url> commit-then-die|stage-then-die`.
 * - commit-then-die: commits blocks 0-1, stages block 2, commits [1 (committed), 2, 0] and
 *   SIGKILLs itself the moment the commit returns (no close, nothing after it runs).
 * - stage-then-die: stages a block from a stream that writes 200 KB and then never ends, prints
 *   "writing" and waits to be killed (a writer dying mid-block leaves an unnamed file).
 */
import { openStore } from "../../../src/index.js";
import { patternBytes } from "../../conformance/blobs/factory.js";

const [url, mode] = process.argv.slice(2);
setTimeout(() => process.exit(3), 60_000).unref();
const store = await openStore(url!);
const container = store.container("crash");
await container.createIfNotExists();
const id = (n: number) => Buffer.from(`block-${n}`).toString("base64");
const blob = container.getBlockBlobClient(mode!);
if (mode === "commit-then-die") {
  for (const n of [0, 1]) {
    const bytes = patternBytes(100_000, n);
    await blob.stageBlock(id(n), bytes, bytes.length);
  }
  await blob.commitBlockList([id(0), id(1)]);
  await blob.stageBlock(id(2), "tail", 4);
  await blob.commitBlockList([{ id: id(1), list: "committed" }, id(2), id(0)]);
  process.kill(process.pid, "SIGKILL");
} else if (mode === "stage-then-die") {
  async function* stalled(): AsyncGenerator<Uint8Array> {
    yield patternBytes(200_000, 9);
    setTimeout(() => process.stdout.write("writing\n"), 200);
    await new Promise(() => {}); // never ends: the parent kills this process
  }
  await blob.stageBlock(id(0), stalled());
} else {
  process.exit(2);
}
