/**
 * Blobs. (1) The embedded engine against `fs` writing and reading the same bytes in the same run:
 * whole-blob uploads and downloads (buffers and streams) and small blobs; the target is at least
 * 0.5x of fs. The fs baseline syncs its files as the embedded engine does (fdatasync before the
 * row commits), and an unsynced fs write is shown for reference. (2) A 1 GiB stream up and down in
 * a child process, with its peak memory growth. (3) The azure and s3 adapters against their raw
 * SDKs on Azurite and s3rver (started here).
 * Run: npm run bench -- blobs   (smoke: npm run bench -- --smoke blobs)
 */
import { spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { open, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { BlobServiceClient } from "@azure/storage-blob";
import { type BlobContainer, openStore } from "../src/index.js";
import { startAzurite } from "../test/support/azurite.js";
import { startS3rver } from "../test/support/s3rver.js";
import { rounds, sized } from "./support/bench-mode.js";
import { type VersusSdkCase, versusSdk } from "./support/versus-sdk.js";

const MiB = 1024 * 1024;
const LARGE = sized(128 * MiB, 2 * MiB);
const SMALL_COUNT = sized(1000, 20);
const SMALL = 4 * 1024;
const ROUNDS = rounds(5);
const STREAM_CHUNK = 256 * 1024;
/** The blobs of the adapter-vs-SDK cases. */
const BODY = Buffer.alloc(sized(256 * 1024, 16 * 1024), 5);

const dir = mkdtempSync(join(tmpdir(), "tablekit-blob-bench-"));

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

function* chunksOf(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += STREAM_CHUNK) yield bytes.subarray(at, at + STREAM_CHUNK);
}

async function fsWrite(path: string, bytes: Buffer, sync: boolean): Promise<void> {
  const handle = await open(path, "w");
  try {
    await handle.writeFile(bytes);
    if (sync) await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** The stream's bytes in one Buffer, as a program reading a blob whole writes it. */
async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) {
    // read and drop
  }
}

/** Uploads then downloads of `n` blobs per round, raw SDK against tablekit on the same server. */
function transferCases(
  n: number,
  rawPut: (key: string) => Promise<unknown>,
  rawGet: (key: string) => Promise<unknown>,
  container: BlobContainer,
): VersusSdkCase[] {
  const each = (fn: (key: string) => Promise<unknown>) => async (round: number) => {
    for (let i = 0; i < n; i++) await fn(`b${round}-${i}`);
  };
  return [
    {
      name: "upload",
      ops: n,
      rounds: ROUNDS,
      raw: each(rawPut),
      tablekit: each((key) => container.getBlockBlobClient(key).uploadData(BODY)),
    },
    {
      name: "download",
      ops: n,
      rounds: ROUNDS,
      raw: each(rawGet),
      tablekit: each((key) => container.getBlobClient(key).downloadToBuffer()),
    },
  ];
}

try {
  // (1) Embedded vs fs.
  const store = await openStore(`file:${join(dir, "bench.db")}`);
  const container = await store.createContainer("bench");
  const large = Buffer.alloc(LARGE, 7);
  const small = Buffer.alloc(SMALL, 3);
  const cases: {
    name: string;
    bytes: number;
    fs: () => Promise<unknown>;
    tablekit: () => Promise<unknown>;
  }[] = [
    {
      name: `upload ${LARGE / MiB} MiB buffer`,
      bytes: LARGE,
      fs: () => fsWrite(join(dir, "large.bin"), large, true),
      tablekit: () => container.getBlockBlobClient("large").uploadData(large),
    },
    {
      name: `upload ${LARGE / MiB} MiB stream`,
      bytes: LARGE,
      fs: async () => {
        const out = createWriteStream(join(dir, "large-stream.bin"), { flush: true });
        await pipeline(Readable.from(chunksOf(large)), out);
      },
      tablekit: () =>
        container.getBlockBlobClient("large-stream").uploadStream(Readable.from(chunksOf(large))),
    },
    {
      name: `download ${LARGE / MiB} MiB buffer`,
      bytes: LARGE,
      fs: () => readFile(join(dir, "large.bin")),
      tablekit: () => container.getBlobClient("large").downloadToBuffer(),
    },
    {
      name: `download ${LARGE / MiB} MiB stream`,
      bytes: LARGE,
      fs: () => drain(createReadStream(join(dir, "large.bin"), { highWaterMark: MiB })),
      tablekit: async () => drain((await container.getBlobClient("large").download()).readableStreamBody),
    },
    {
      name: `upload ${SMALL_COUNT} x 4 KiB`,
      bytes: SMALL_COUNT * SMALL,
      fs: async () => {
        for (let i = 0; i < SMALL_COUNT; i++) await fsWrite(join(dir, `small-${i}`), small, true);
      },
      tablekit: async () => {
        for (let i = 0; i < SMALL_COUNT; i++)
          await container.getBlockBlobClient(`small-${i}`).uploadData(small);
      },
    },
    {
      name: `download ${SMALL_COUNT} x 4 KiB`,
      bytes: SMALL_COUNT * SMALL,
      fs: async () => {
        for (let i = 0; i < SMALL_COUNT; i++) await readFile(join(dir, `small-${i}`));
      },
      tablekit: async () => {
        for (let i = 0; i < SMALL_COUNT; i++) await container.getBlobClient(`small-${i}`).downloadToBuffer();
      },
    },
  ];
  const rows = [];
  for (const c of cases) {
    const fsTimes: number[] = [];
    const tkTimes: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      // Alternate who goes first, so the page cache and a busy machine treat both alike.
      const order = round % 2 === 0 ? [c.fs, c.tablekit] : [c.tablekit, c.fs];
      const a = await seconds(order[0]!);
      const b = await seconds(order[1]!);
      if (round === 0) continue; // warm-up
      fsTimes.push(round % 2 === 0 ? a : b);
      tkTimes.push(round % 2 === 0 ? b : a);
    }
    const fsRate = c.bytes / MiB / median(fsTimes);
    const tkRate = c.bytes / MiB / median(tkTimes);
    rows.push({
      case: c.name,
      "fs MiB/s": Math.round(fsRate),
      "tablekit MiB/s": Math.round(tkRate),
      "tablekit / fs": `${(tkRate / fsRate).toFixed(2)}x`,
    });
  }
  const unsynced = await seconds(() => writeFile(join(dir, "unsynced.bin"), large));
  await store.close();
  console.log("\nembedded blobs vs fs (fs with fdatasync, as the engine does; target >= 0.50x)");
  console.table(rows);
  console.log(
    `reference: fs writeFile of ${LARGE / MiB} MiB without fdatasync: ${Math.round(LARGE / MiB / unsynced)} MiB/s`,
  );

  // (2) A 1 GiB round trip in a child process: peak memory growth.
  const mib = sized(1024, 16);
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      join(
        dirname(fileURLToPath(import.meta.url)),
        "..",
        "test",
        "store",
        "embedded",
        "fixtures",
        "blob-memory-child.ts",
      ),
      join(dir, "memory.db"),
      String(mib),
    ],
    { encoding: "utf8" },
  );
  if (child.status !== 0) throw new Error(`the memory child failed: ${child.stderr}`);
  const memory = JSON.parse(child.stdout.trim().split("\n").at(-1)!);
  console.log(
    `\n${mib} MiB streamed up and down: peak RSS grew ${memory.growthMiB.toFixed(1)} MiB; upload ${Math.round(mib / (memory.uploadMs / 1000))} MiB/s, download ${Math.round(mib / (memory.downloadMs / 1000))} MiB/s; bytes intact: ${memory.same}`,
  );

  // (3) Adapters against raw SDKs on local servers.
  const body = BODY;
  const N = sized(50, 5);
  const azurite = await startAzurite();
  try {
    const az = await openStore(`azure:${azurite.connectionString}`);
    const tk = await az.createContainer("bench-tk");
    const raw = BlobServiceClient.fromConnectionString(azurite.connectionString).getContainerClient(
      "bench-raw",
    );
    await raw.create();
    console.log(
      `\nazure adapter vs @azure/storage-blob on Azurite (${body.length / 1024} KiB blobs; target overhead <= 1.1x)`,
    );
    console.table(
      await versusSdk(
        transferCases(
          N,
          (key) => raw.getBlockBlobClient(key).uploadData(body),
          // Both sides end with the blob in one Buffer, as tablekit's downloadToBuffer does (the SDK's
          // own downloadToBuffer asks for the properties first: a second request ours does not make).
          async (key) => collect((await raw.getBlobClient(key).download()).readableStreamBody!),
          tk,
        ),
      ),
    );
    await az.close();
  } finally {
    await azurite.stop();
  }

  const s3rver = await startS3rver();
  try {
    const s3 = await openStore("memory:", { s3: { endpoint: s3rver.endpoint } });
    const tk = await s3.createContainer("bench-tk");
    const raw = new S3Client({
      endpoint: s3rver.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "tablekit", secretAccessKey: "tablekit" },
    });
    await raw.send(new CreateBucketCommand({ Bucket: "bench-raw" }));
    console.log(
      `\ns3 adapter vs @aws-sdk/client-s3 on s3rver (${body.length / 1024} KiB objects; target overhead <= 1.1x)`,
    );
    console.table(
      await versusSdk(
        transferCases(
          N,
          (Key) => raw.send(new PutObjectCommand({ Bucket: "bench-raw", Key, Body: body })),
          async (Key) =>
            (await raw.send(new GetObjectCommand({ Bucket: "bench-raw", Key }))).Body!.transformToByteArray(),
          tk,
        ),
      ),
    );
    raw.destroy();
    await s3.close();
  } finally {
    await s3rver.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
