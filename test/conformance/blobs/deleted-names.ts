import { describe, expect } from "vitest";
import type { Store } from "../../../src/index.js";
import { itWhen } from "../../support/it-when.js";
import { expectCode } from "../helpers.js";
import type { BlobTarget } from "./factory.js";

/** Why a test of the hold is skipped: only the embedded engine keeps one (Azure holds names itself, for about 30 s). */
const NO_HOLD = "the backend keeps no deleted-name hold of its own (Azure holds names itself)";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The deleted-name hold for containers (store option `deletedNameHold`): a create of a container
 * deleted less than that many seconds ago is 409 ContainerBeingDeleted, as Azure answers for about 30 s.
 */
export function deletedNamesSuite(target: () => BlobTarget): void {
  describe("deleted container names", () => {
    async function withStores(holds: readonly number[], test: (stores: Store[]) => Promise<void>) {
      const open = target().openStore;
      if (!open) throw new Error(`${target().name} cannot open a second store`);
      const stores: Store[] = [];
      try {
        for (const hold of holds) stores.push(await open({ deletedNameHold: hold }));
        await test(stores);
      } finally {
        for (const s of stores) await s.close();
      }
    }

    itWhen(
      target,
      (c) => c.deletedNameHold,
      NO_HOLD,
      "a create of a name deleted within the hold is ContainerBeingDeleted, in every store sharing it",
      async () => {
        await withStores([30, 30], async ([held, other]) => {
          const name = target().freshContainerName();
          const container = await held!.createContainer(name);
          await container.getBlockBlobClient("kept").upload("x", 1);
          // Deleted through the store without a hold: the time is kept in the store, not the process.
          await target().store.deleteContainer(name);
          await expectCode(held!.createContainer(name), "ContainerBeingDeleted");
          // createIfNotExists answers the error too, as the service does.
          await expectCode(held!.container(name).createIfNotExists(), "ContainerBeingDeleted");
          await expectCode(other!.container(name).create({ metadata: { a: "b" } }), "ContainerBeingDeleted");
          expect(await held!.container(name).exists()).toBe(false);
          await held!.createContainer(target().freshContainerName());
        });
      },
    );

    itWhen(
      target,
      (c) => c.deletedNameHold,
      NO_HOLD,
      "a store without the hold may create the name; the re-created container is then not held",
      async () => {
        await withStores([30], async ([held]) => {
          const name = target().freshContainerName();
          await held!.createContainer(name);
          await held!.deleteContainer(name);
          await target().store.createContainer(name);
          // Exists again: ContainerAlreadyExists, not ContainerBeingDeleted.
          await expectCode(held!.createContainer(name), "ContainerAlreadyExists");
          expect(await held!.container(name).createIfNotExists()).toEqual({ succeeded: false });
        });
      },
    );

    itWhen(
      target,
      (c) => c.deletedNameHold,
      NO_HOLD,
      "the hold ends after its seconds; outside 0..3600 it is InvalidInput",
      async () => {
        for (const bad of [-1, 3601])
          await expectCode(target().openStore!({ deletedNameHold: bad }), "InvalidInput");
        await withStores([1], async ([held]) => {
          const name = target().freshContainerName();
          await held!.createContainer(name);
          await held!.deleteContainer(name);
          await expectCode(held!.createContainer(name), "ContainerBeingDeleted");
          await sleep(1100);
          await held!.createContainer(name);
          expect(await held!.container(name).exists()).toBe(true);
        });
      },
    );
  });
}
