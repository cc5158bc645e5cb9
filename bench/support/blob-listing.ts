/**
 * The blob-listing row of bench/server.bench.ts (issue 32, finding 1): one container of N blobs
 * named `dNNNNNN.0` and `dNNNNNN.1` (N/2 virtual directories under `delimiter=.`), listed whole
 * through `@azure/storage-blob`, flat and with the delimiter, on `tablekit serve` and on Azurite.
 * While each listing runs, another client (a worker thread) sends a cheap request again and again:
 * its slowest answer is the longest stall the listing makes other clients wait.
 */
import { Worker } from "node:worker_threads";
import { BlobServiceClient, type ContainerClient } from "@azure/storage-blob";
import { verdict } from "./bench-mode.js";

export interface ListingServer {
  readonly name: string;
  /** A connection string holding a BlobEndpoint. */
  readonly connectionString: string;
}

export interface ListingRun {
  /** Pages and milliseconds for the whole listing, and its slowest and median page. */
  readonly pages: number;
  readonly totalMs: number;
  readonly slowestPageMs: number;
  readonly medianPageMs: number;
  /** The slowest answer the prober got while the listing ran, and how many it got. */
  readonly stallMs: number;
  readonly probes: number;
}

export interface ListingMeasured {
  readonly flat: ListingRun;
  readonly delimited: ListingRun;
}

const CONTAINER = "bench-listing";
const FILL_CONCURRENCY = 16;

export const blobName = (i: number) => `d${String(Math.floor(i / 2)).padStart(6, "0")}.${i % 2}`;

/** Fills a fresh container with `blobs` one-byte blobs, then lists it flat and with `delimiter=.`. */
export async function measureListing(server: ListingServer, blobs: number): Promise<ListingMeasured> {
  const container = BlobServiceClient.fromConnectionString(server.connectionString).getContainerClient(
    CONTAINER,
  );
  await container.create();
  let next = 0;
  await Promise.all(
    Array.from({ length: FILL_CONCURRENCY }, async () => {
      while (next < blobs) await container.getBlockBlobClient(blobName(next++)).upload("x", 1);
    }),
  );
  // One page of each, unmeasured: the first requests of a process measure its compiler, not its listing.
  await container.listBlobsFlat().byPage({ maxPageSize: 5000 }).next();
  await container.listBlobsByHierarchy(".").byPage({ maxPageSize: 5000 }).next();
  const endpoint = /BlobEndpoint=([^;]+)/.exec(server.connectionString)![1]!;
  const flat = await probed(endpoint, () => listAll(container, undefined, blobs));
  const delimited = await probed(endpoint, () => listAll(container, ".", blobs / 2));
  return { flat, delimited };
}

async function listAll(container: ContainerClient, delimiter: string | undefined, expected: number) {
  const pageMs: number[] = [];
  let items = 0;
  const listing =
    delimiter === undefined ? container.listBlobsFlat() : container.listBlobsByHierarchy(delimiter);
  let started = performance.now();
  for await (const page of listing.byPage({ maxPageSize: 5000 })) {
    pageMs.push(performance.now() - started);
    items += page.segment.blobItems.length;
    items += (page.segment as { blobPrefixes?: unknown[] }).blobPrefixes?.length ?? 0;
    started = performance.now();
  }
  if (items !== expected) throw new Error(`listed ${items} items, expected ${expected}`);
  return pageMs;
}

/**
 * The prober, in a worker thread: the SDK parsing a 5,000-item page blocks this thread's loop, and
 * that wait is the client's, not the server's. It asks for `url` until told to stop, one
 * connection per probe (a kept-alive one can be closed by the server's idle timer mid-probe).
 */
const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
let running = true;
let stallMs = 0;
let probes = 0;
parentPort.on("message", () => { running = false; });
const probe = () => new Promise((done, fail) => {
  const started = performance.now();
  http.get(workerData.url, { agent: false }, (res) => res.resume().on("end", () => done(performance.now() - started))).on("error", fail);
});
(async () => {
  await probe();
  parentPort.postMessage({ ready: true });
  while (running) {
    stallMs = Math.max(stallMs, await probe());
    probes++;
  }
  parentPort.postMessage({ stallMs, probes });
})();
`;

/** Runs `listing` while a prober asks the server for its root (an anonymous, refused request). */
async function probed(endpoint: string, listing: () => Promise<number[]>): Promise<ListingRun> {
  const url = `${endpoint.replace(/\/$/, "")}/?comp=list`;
  const worker = new Worker(PROBER, { eval: true, workerData: { url } });
  const next = () =>
    new Promise<{ ready?: boolean; stallMs?: number; probes?: number }>((done, fail) => {
      worker.once("message", done);
      worker.once("error", fail);
    });
  await next(); // warmed up and probing
  const started = performance.now();
  const result = next();
  const pageMs = await listing().finally(() => worker.postMessage("stop"));
  const totalMs = performance.now() - started;
  const { stallMs = 0, probes = 0 } = await result;
  await worker.terminate();
  const sorted = [...pageMs].sort((a, b) => a - b);
  return {
    pages: pageMs.length,
    totalMs,
    slowestPageMs: sorted.at(-1) ?? 0,
    medianPageMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    stallMs,
    probes,
  };
}

/** The rows: each listing's total and median page on both servers, and the stalls other clients saw. */
export function listingRows(
  ours: ListingMeasured,
  theirs: ListingMeasured,
  blobs: number,
): Record<string, Record<string, string>> {
  const rows: Record<string, Record<string, string>> = {};
  const n = blobs.toLocaleString("en");
  const ms = (v: number) => v.toFixed(1);
  for (const [label, key] of [
    ["flat", "flat"],
    ["delimiter=.", "delimited"],
  ] as const) {
    const a = ours[key];
    const b = theirs[key];
    rows[`list ${n} blobs ${label}: whole listing ms (pages)`] = {
      tablekit: `${ms(a.totalMs)} (${a.pages})`,
      azurite: `${ms(b.totalMs)} (${b.pages})`,
      ratio: `${(b.totalMs / a.totalMs).toFixed(1)}x`,
    };
    rows[`list ${n} blobs ${label}: median / slowest page ms`] = {
      tablekit: `${ms(a.medianPageMs)} / ${ms(a.slowestPageMs)}`,
      azurite: `${ms(b.medianPageMs)} / ${ms(b.slowestPageMs)}`,
      ratio: `${(b.medianPageMs / a.medianPageMs).toFixed(1)}x`,
    };
    rows[`list ${n} blobs ${label}: longest wait of another client ms (probes)`] = {
      tablekit: `${ms(a.stallMs)} (${a.probes})`,
      azurite: `${ms(b.stallMs)} (${b.probes})`,
      ratio: "-",
    };
  }
  return rows;
}

/** Issue 32's goals: under 50 ms of stall during the delimiter listing, each page as fast as Azurite's. */
export function listingGoals(ours: ListingMeasured, theirs: ListingMeasured, blobs: number) {
  const n = blobs.toLocaleString("en");
  const stall = Math.max(ours.flat.stallMs, ours.delimited.stallMs);
  return [
    {
      goal: `listing ${n} blobs: another client waits < 50 ms`,
      measured: `${stall.toFixed(1)} ms`,
      verdict: verdict(stall < 50),
    },
    ...(["flat", "delimited"] as const).map((key) => ({
      goal: `listing ${n} blobs ${key === "flat" ? "flat" : "delimiter=."}: page no slower than Azurite's`,
      measured: `median page ${ours[key].medianPageMs.toFixed(1)} ms vs ${theirs[key].medianPageMs.toFixed(1)} ms`,
      verdict: verdict(ours[key].medianPageMs <= theirs[key].medianPageMs),
    })),
  ];
}
