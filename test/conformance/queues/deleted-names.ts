import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/index.js";
import { itWhen } from "../../support/it-when.js";
import { expectCode, type QueueTargetRef } from "./helpers.js";

/** Why a test of the hold is skipped: only the embedded engine keeps one (Azure holds names itself, for about 30 s). */
const NO_HOLD = "the backend keeps no deleted-name hold of its own (Azure holds names itself)";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The deleted-name hold (store option `deletedNameHold`): a create of a queue deleted less than
 * that many seconds ago is 409 QueueBeingDeleted, as Azure answers for about 30 s.
 */
export function deletedNamesSuite(target: QueueTargetRef): void {
  describe("deleted-name hold", () => {
    /** Runs `test` with stores opened with the options, closing them after. */
    async function withStores(holds: readonly number[], test: (stores: Store[]) => Promise<void>) {
      const stores: Store[] = [];
      try {
        for (const hold of holds) stores.push(await target().openStore({ deletedNameHold: hold }));
        await test(stores);
      } finally {
        for (const s of stores) await s.close();
      }
    }

    it("deletedNameHold outside 0..3600 whole seconds is InvalidInput; both ends are accepted", async () => {
      for (const bad of [-1, 3601, 1.5, Number.NaN, "30" as unknown as number]) {
        await expectCode(target().openStore({ deletedNameHold: bad }), "InvalidInput");
      }
      await withStores([0, 3600], async () => {});
    });

    itWhen(
      target,
      (c) => c.deletedNameHold,
      NO_HOLD,
      "a create of a name deleted within the hold is QueueBeingDeleted, in every store sharing it",
      async () => {
        await withStores([30, 30], async ([held, other]) => {
          const name = target().freshQueueName();
          await held!.createQueue(name);
          await held!.queue(name).sendMessage("gone with the queue");
          // Deleted through the store without a hold: the time is kept in the store, not the process.
          await target().store.deleteQueue(name);
          await expectCode(held!.createQueue(name), "QueueBeingDeleted");
          // createIfNotExists answers the error too, as the service does (it is not "already exists").
          await expectCode(held!.queue(name).createIfNotExists(), "QueueBeingDeleted");
          await expectCode(other!.queue(name).create({ metadata: { a: "b" } }), "QueueBeingDeleted");
          expect(await held!.queue(name).exists()).toBe(false);
          // Another name is not held.
          await held!.createQueue(target().freshQueueName());
        });
      },
    );

    itWhen(
      target,
      (c) => c.deletedNameHold,
      NO_HOLD,
      "a store without the hold may create the name; the re-created queue is then not held",
      async () => {
        await withStores([30], async ([held]) => {
          const name = target().freshQueueName();
          await held!.createQueue(name);
          await held!.deleteQueue(name);
          await target().store.createQueue(name);
          // The name exists again: create of an existing queue succeeds, as it always does.
          await held!.createQueue(name);
          expect(await held!.queue(name).createIfNotExists()).toEqual({ succeeded: false });
          expect((await held!.queue(name).getProperties()).approximateMessagesCount).toBe(0);
        });
      },
    );

    itWhen(
      target,
      (c) => c.deletedNameHold,
      NO_HOLD,
      "the hold ends after its seconds",
      async () => {
        await withStores([1], async ([held]) => {
          const name = target().freshQueueName();
          await held!.createQueue(name);
          await held!.deleteQueue(name);
          await expectCode(held!.createQueue(name), "QueueBeingDeleted");
          await sleep(1100);
          await held!.createQueue(name);
          expect(await held!.queue(name).exists()).toBe(true);
        });
      },
    );
  });
}
