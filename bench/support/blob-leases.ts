import { BlobServiceClient } from "@azure/storage-blob";

/**
 * What applications do with leases and conditions, as rounds of requests through the official
 * client, run one after another (the number is the round trip a worker waits for):
 * - a job claim: acquire a 15 s lease on a blob, write it under the lease, release it (3 requests);
 * - an optimistic update: read a blob's ETag, write it under `If-Match` of it (2 requests);
 * - a write under a stale ETag, which the server refuses with 412 (1 request).
 */
export type RoundKind = "lease" | "update" | "refused";

export interface RoundsTarget {
  readonly name: string;
  readonly connectionString: string;
}

/** One server's rounds, ready to run: `round(kind, i)` runs round i of a kind. */
export interface PreparedRounds {
  round(kind: RoundKind, i: number): Promise<void>;
  cleanup(): Promise<void>;
}

const STALE_ETAG = '"0x8D000000000000"';

export async function prepareRounds(server: RoundsTarget): Promise<PreparedRounds> {
  const service = BlobServiceClient.fromConnectionString(server.connectionString);
  const container = service.getContainerClient(`rounds${Date.now()}`);
  await container.create();
  const blobs = Array.from({ length: 10 }, (_, i) => container.getBlockBlobClient(`doc-${i}`));
  for (const blob of blobs) await blob.upload("idle", 4);
  const rounds: Record<RoundKind, (i: number) => Promise<void>> = {
    async lease(i) {
      const blob = blobs[i % blobs.length]!;
      const lease = blob.getBlobLeaseClient();
      await lease.acquireLease(15);
      await blob.upload("running", 7, { conditions: { leaseId: lease.leaseId } });
      await lease.releaseLease();
    },
    async update(i) {
      const blob = blobs[i % blobs.length]!;
      const { etag } = await blob.getProperties();
      const text = `v${i}`;
      await blob.upload(text, text.length, { conditions: { ifMatch: etag } });
    },
    async refused(i) {
      const blob = blobs[i % blobs.length]!;
      const failed = await blob.upload("lost", 4, { conditions: { ifMatch: STALE_ETAG } }).then(
        () => false,
        (err: { statusCode?: number }) => err.statusCode === 412,
      );
      if (!failed) throw new Error(`${server.name}: a write under a stale ETag was not refused with 412`);
    },
  };
  return {
    round: (kind, i) => rounds[kind](i),
    cleanup: async () => {
      await container.delete();
    },
  };
}

/** Per kind: the median microseconds of a round on each server and the median of the chunks' ratios. */
export interface InterleavedResult {
  readonly ours: number;
  readonly theirs: number;
  readonly ratio: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Runs `rounds` rounds of a kind on both servers in alternating chunks (a tenth each), so a change
 * of the machine's load falls on both sides: each chunk's mean is a sample, and the ratio is the
 * median of the ratios of chunks run side by side.
 */
export async function interleaved(
  kind: RoundKind,
  ours: PreparedRounds,
  theirs: PreparedRounds,
  rounds: number,
): Promise<InterleavedResult> {
  const chunk = Math.max(1, Math.floor(rounds / 10));
  for (let i = 0; i < Math.min(20, rounds); i++) {
    await ours.round(kind, i); // warm-up
    await theirs.round(kind, i);
  }
  const time = async (side: PreparedRounds, from: number) => {
    const started = process.hrtime.bigint();
    for (let i = from; i < from + chunk; i++) await side.round(kind, i);
    return Number(process.hrtime.bigint() - started) / 1000 / chunk;
  };
  const oursSamples: number[] = [];
  const theirsSamples: number[] = [];
  const ratios: number[] = [];
  for (let from = 0; from < rounds; from += chunk) {
    const a = await time(ours, from);
    const b = await time(theirs, from);
    oursSamples.push(a);
    theirsSamples.push(b);
    ratios.push(a / b);
  }
  return { ours: median(oursSamples), theirs: median(theirsSamples), ratio: median(ratios) };
}
