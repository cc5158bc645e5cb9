import { afterAll, describe, expect, it } from "vitest";
import { cli, ndjson, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const store = ["--store", "file:./queues.db"];
const run = (args: string[], input?: string) =>
  cli([...args, ...store], { cwd: dir, ...(input === undefined ? {} : { input }) });

describe("tablekit queue", { timeout: 120_000 }, () => {
  it("lists every queue command in its help; a command's help shows --store", async () => {
    const commands = ["list", "create", "rm", "send", "receive", "peek", "delete", "count", "clear"];
    const [top, send] = await Promise.all([
      cli(["queue", "--help"], { cwd: dir }),
      cli(["queue", "send", "--help"], { cwd: dir }),
    ]);
    expect(top.code).toBe(0);
    for (const c of commands) expect(top.stdout).toMatch(new RegExp(`^ {2}${c}\\b`, "m"));
    expect(send.stdout).toMatch(/^Usage: tablekit queue send/);
    expect(send.stdout).toContain("--store <url>");
  });

  it("creates, sends, peeks, receives, deletes, counts, clears and removes", async () => {
    expect((await run(["queue", "create", "jobs"])).stderr).toBe("created queue jobs\n");
    expect((await run(["queue", "create", "jobs"])).stderr).toBe("queue jobs already exists\n");
    expect((await run(["queue", "list"])).stdout).toBe("jobs\n");

    const one = await run(["queue", "send", "jobs", "hello world"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^\S+\n$/);
    const many = await run(["queue", "send", "jobs", "-o", "json"], "first\nsecond\nthird\n");
    expect(many.stderr).toBe("sent 3 messages to jobs\n");
    expect(ndjson(many.stdout)).toHaveLength(3);
    expect((await run(["queue", "count", "jobs"])).stdout).toBe("4\n");

    const peeked = ndjson((await run(["queue", "peek", "jobs", "-n", "32", "-o", "json"])).stdout);
    expect(peeked.map((m) => m.messageText).sort()).toEqual(["first", "hello world", "second", "third"]);
    expect(peeked.every((m) => m.dequeueCount === 0 && m.popReceipt === undefined)).toBe(true);

    const received = ndjson((await run(["queue", "receive", "jobs", "-n", "2", "-o", "json"])).stdout);
    expect(received).toHaveLength(2);
    expect(received.every((m) => m.dequeueCount === 1 && typeof m.popReceipt === "string")).toBe(true);
    const [a, b] = received as { messageId: string; popReceipt: string }[];
    const deleted = await run(["queue", "delete", "jobs", a!.messageId, a!.popReceipt]);
    expect(deleted.code).toBe(0);
    // After "--" no argument is an option: the way to pass a receipt or text that begins with "-".
    const again = await cli(["queue", "delete", "jobs", ...store, "--", a!.messageId, a!.popReceipt], {
      cwd: dir,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error MessageNotFound: /m);
    expect((await run(["queue", "count", "jobs"])).stdout).toBe("3\n");

    // --delete consumes what it prints; b stays invisible (received, not deleted).
    const consumed = await run(["queue", "receive", "jobs", "-n", "32", "--delete"]);
    expect(consumed.stdout.trim().split("\n")).toHaveLength(2);
    expect(consumed.stdout).toMatch(/^\S+\t1\t/);
    expect((await run(["queue", "count", "jobs"])).stdout).toBe("1\n");
    expect((await run(["queue", "receive", "jobs"])).stdout).toBe("");
    await run(["queue", "delete", "jobs", b!.messageId, b!.popReceipt]);

    await run(["queue", "send", "jobs", "x", "--ttl", "-1", "--visibility-timeout", "60"]);
    expect((await run(["queue", "count", "jobs"])).stdout).toBe("1\n");
    expect((await run(["queue", "clear", "jobs"])).code).toBe(0);
    expect((await run(["queue", "count", "jobs"])).stdout).toBe("0\n");

    expect((await run(["queue", "rm", "jobs"])).stderr).toBe("deleted queue jobs\n");
    const gone = await run(["queue", "rm", "jobs"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error QueueNotFound: /m);
    expect((await run(["queue", "rm", "jobs", "--if-exists"])).code).toBe(0);
    expect((await run(["queue", "send", "jobs", "x"])).stderr).toMatch(/^error QueueNotFound: /m);
    expect((await run(["queue", "list", "-o", "json"])).stdout).toBe("[]\n");
  });

  it("refuses bad input with the service's codes, and bad options as usage errors", async () => {
    const badName = await run(["queue", "create", "Bad_Name"]);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toMatch(/^error InvalidResourceName: /m);
    await run(["queue", "create", "limits"]);
    const tooMany = await run(["queue", "receive", "limits", "-n", "33"]);
    expect(tooMany.code).toBe(2);
    const ttl = await run(["queue", "send", "limits", "x", "--ttl", "0"]);
    expect(ttl.code).toBe(1);
    expect(ttl.stderr).toMatch(/^error OutOfRangeQueryParameterValue: /m);
    const big = await run(["queue", "send", "limits", "a".repeat(65_537)]);
    expect(big.stderr).toMatch(/^error RequestBodyTooLarge: /m);
    const notSeconds = await run(["queue", "send", "limits", "x", "--ttl", "soon"]);
    expect(notSeconds.code).toBe(2);
    expect((await run(["queue", "count", "limits"])).stdout).toBe("0\n");
  });
});
