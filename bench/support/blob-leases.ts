import { BlobServiceClient } from "@azure/storage-blob";

/**
 * A lease as applications take one (a job claim): acquire a 15 s lease on a blob, write it under
 * the lease, release it; each round is three requests through the official client. Rounds run one
 * after another, so the number is the round trip a worker waits for.
 */
export interface LeaseMeasured {
  readonly name: string;
  /** Mean microseconds of one acquire + leased write + release. */
  readonly roundMicros: number;
}

export async function measureLeases(
  server: { name: string; connectionString: string },
  rounds: number,
): Promise<LeaseMeasured> {
  const service = BlobServiceClient.fromConnectionString(server.connectionString);
  const container = service.getContainerClient(`leases${Date.now()}`);
  await container.create();
  const blobs = Array.from({ length: 10 }, (_, i) => container.getBlockBlobClient(`job-${i}`));
  for (const blob of blobs) await blob.upload("idle", 4);
  const round = async (i: number) => {
    const blob = blobs[i % blobs.length]!;
    const lease = blob.getBlobLeaseClient();
    await lease.acquireLease(15);
    await blob.upload("running", 7, { conditions: { leaseId: lease.leaseId } });
    await lease.releaseLease();
  };
  for (let i = 0; i < Math.min(20, rounds); i++) await round(i); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await round(i);
  const micros = Number(process.hrtime.bigint() - started) / 1000 / rounds;
  await container.delete();
  return { name: server.name, roundMicros: micros };
}
