import type { OperationOptions, Table } from "../../store/index.js";
import type { CompiledModel } from "../entity-models/define-model.js";
import { isOfType, recordFromEntity } from "../entity-models/model-records.js";
import { findEntity } from "../shared/derivations/derived.js";
import { forEachConcurrently } from "../shared/support/concurrency.js";

type Values = Readonly<Record<string, unknown>>;

/** Point reads in flight at once when a look-up fetches the entities of an id list. */
const READS_IN_FLIGHT = 16;

/**
 * The seed's second query: the entities an id list names, by point reads (several in flight),
 * in list order. An entity that is gone, of another type, or no longer `matches` the value looked
 * up is left out: a list may name it for a moment (eventual options) or after drift.
 */
export async function readPrimaries(
  model: CompiledModel,
  table: Table,
  keys: readonly (readonly [string, string])[],
  matches: (values: Values) => boolean,
  options: OperationOptions = {},
): Promise<Record<string, unknown>[]> {
  const found: (Record<string, unknown> | undefined)[] = new Array(keys.length);
  await forEachConcurrently(keys, READS_IN_FLIGHT, async ([pk, rk], i) => {
    options.abortSignal?.throwIfAborted();
    const entity = await findEntity(table, pk, rk);
    if (!entity || !isOfType(model, entity)) return;
    const values = recordFromEntity(model, entity);
    if (matches(values)) found[i] = values;
  });
  return found.filter((r): r is Record<string, unknown> => r !== undefined);
}

/** Adds or removes `id` in a sorted list; undefined when the list is already as wanted. */
export function withMembership(ids: readonly string[], id: string, member: boolean): string[] | undefined {
  const has = ids.includes(id);
  if (has === member) return undefined;
  if (!member) return ids.filter((x) => x !== id);
  return [...ids, id].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
