import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import {
  type DeleteEvent,
  expectExclusiveDelivery,
  type ReceiveEvent,
} from "../../conformance/queues/delivery-log.js";
import { startChild } from "./child-process.js";
import { tempDir } from "./helpers.js";

const CHILDREN = 4;
const MESSAGES = 600;

describe("embedded queue shared by several processes", () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it(`${CHILDREN} processes draining one queue, crashes included: none lost, none held by two at once`, async () => {
    const path = join(dir, "queue.db");
    const store = await openStore(`file:${path}`);
    const queue = await store.createQueue("jobs");
    const sentIds: string[] = [];
    for (let i = 0; i < MESSAGES; i++) sentIds.push((await queue.sendMessage(`job ${i}`)).messageId);

    const children = Array.from({ length: CHILDREN }, (_, c) =>
      startChild("queue-consumer-child.ts", [path, "jobs", String(c)]),
    );
    await Promise.all(children.map((c) => c.waitFor("ready")));
    for (const c of children) c.child.stdin!.write("go\n");
    const deadline = Date.now() + 90_000;
    while ((await queue.getProperties()).approximateMessagesCount > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const c of children) c.child.stdin!.end("stop\n");
    expect(await Promise.all(children.map((c) => c.exited))).toEqual(children.map(() => 0));

    const logs = children.map(
      (c) => JSON.parse(c.lines.at(-1)!) as { receives: ReceiveEvent[]; deletes: DeleteEvent[] },
    );
    const receives = logs.flatMap((l) => l.receives);
    const deletes = logs.flatMap((l) => l.deletes);
    // Several processes really raced for the queue (a loaded machine may start one too late to get
    // any), and crashed messages were delivered again.
    expect(logs.filter((l) => l.receives.length > 0).length).toBeGreaterThanOrEqual(2);
    expect(expectExclusiveDelivery(sentIds, receives, deletes)).toBeGreaterThan(0);
    await store.close();
  }, 120_000);
});
