import type { OperationOptions, Table } from "../../store/index.js";
import { findEntity } from "../consistency/derived.js";
import { forEachConcurrently } from "../internal/concurrency.js";
import type { CompiledModel } from "../model/define-model.js";
import { isOfType, recordFromEntity } from "../model/records.js";

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
