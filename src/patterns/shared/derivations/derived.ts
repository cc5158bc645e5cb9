import { isTableKitError, type TableEntityResult, TableKitError } from "../../../model/index.js";
import type { Table } from "../../../store/index.js";
import type { StepHandler } from "../../eventually-consistent-transactions/handler.js";
import type { TransactionStep } from "../../eventually-consistent-transactions/steps.js";

type Values = Readonly<Record<string, unknown>>;

/** A write of a primary entity, as a derivation sees it: its key, and its values before and after. */
export interface PrimaryChange {
  /** The primary's table. */
  readonly table: string;
  readonly partitionKey: string;
  readonly rowKey: string;
  /** The entity's values before the write (absent: it did not exist). */
  readonly before?: Values;
  /** Its values after the write (absent: it was deleted). */
  readonly after?: Values;
}

/**
 * Data derived from primary entities and kept in step through a transaction queue: an
 * inter-partition index, index entities kept apart, a copy in another partition. Its handler runs
 * the step `stepFor` makes; the step says which primary changed, and the handler derives what to
 * write from the primary as it is when the step runs, so steps may run late, twice or out of order.
 */
export interface Derivation {
  readonly handler: StepHandler<never>;
  /** The step for one write of a primary (undefined: this write changes nothing derived). */
  stepFor(change: PrimaryChange): TransactionStep | undefined;
}

/** Rounds of `syncUntilStable` before it gives up (the primary kept changing under it). */
const MAX_ROUNDS = 10;

/**
 * Reads the primary, brings derived data in step with it, then reads it again: when it changed in
 * between, again with the newer state, until a round starts and ends on the same version. So a
 * slow handler that read an old version never leaves its writes behind: the writes of the last
 * round are those of the version that stays (absent primary: version undefined).
 */
export async function syncUntilStable<S>(
  read: () => Promise<{ readonly version: string | undefined; readonly state: S }>,
  apply: (state: S) => Promise<void>,
  what: string,
): Promise<void> {
  let current = await read();
  for (let round = 1; ; round++) {
    await apply(current.state);
    const again = await read();
    if (again.version === current.version) return;
    if (round >= MAX_ROUNDS) {
      throw new TableKitError(
        "ConcurrencyRetriesExhausted",
        `${what}: the primary kept changing for ${round} rounds`,
        {
          details: { rounds: round },
        },
      );
    }
    current = again;
  }
}

/** The entity, or undefined when there is none. */
export async function findEntity(
  table: Table,
  partitionKey: string,
  rowKey: string,
): Promise<TableEntityResult | undefined> {
  try {
    return await table.getEntity(partitionKey, rowKey);
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return undefined;
    throw err;
  }
}

/** Deletes an entity if it is there. */
export async function deleteIfPresent(table: Table, partitionKey: string, rowKey: string): Promise<void> {
  try {
    await table.deleteEntity(partitionKey, rowKey);
  } catch (err) {
    if (!isTableKitError(err, "ResourceNotFound")) throw err;
  }
}
