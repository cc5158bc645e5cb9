import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time used so far by a process and all its descendants (every thread), in µs, from Linux's
 * per-thread scheduler statistics (nanoseconds, unlike /proc/<pid>/stat's 10 ms ticks): a
 * benchmark reads it before and after a round to charge the server (DynamoDB Local's JVM, Azurite)
 * its own CPU. Undefined where /proc does not offer it. Threads that exited meanwhile are not
 * counted: the servers measured keep their worker threads.
 */
export function processTreeCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined || safeRead(`/proc/${pid}/task/${pid}/schedstat`) === undefined) return undefined;
  let nanos = 0;
  for (const p of descendantsAndSelf(pid)) {
    for (const task of safeList(`/proc/${p}/task`)) {
      const stat = safeRead(`/proc/${p}/task/${task}/schedstat`);
      if (stat) nanos += Number(stat.split(" ")[0]);
    }
  }
  return nanos / 1000;
}

/**
 * CPU time so far of a process's main thread alone (its JavaScript, Node's HTTP machinery, the
 * kernel's socket work), in µs: the rest of `processTreeCpuMicros` is helper threads (V8's optimizing
 * compiler and garbage collector, libuv's pool). Undefined where /proc does not offer it.
 */
export function mainThreadCpuMicros(pid: number | undefined): number | undefined {
  const stat = pid === undefined ? undefined : safeRead(`/proc/${pid}/task/${pid}/schedstat`);
  return stat === undefined ? undefined : Number(stat.split(" ")[0]) / 1000;
}

function descendantsAndSelf(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const task of safeList(`/proc/${out[i]}/task`)) {
      const children = safeRead(`/proc/${out[i]}/task/${task}/children`) ?? "";
      for (const child of children.split(" ")) if (child.trim() !== "") out.push(Number(child));
    }
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeRead(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
