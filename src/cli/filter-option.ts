/** `--filter` and `--partition`, shared by query, export and copy. */
import { odata, parseFilter } from "../filter/index.js";

export interface FilterOptions {
  filter?: string;
  partition?: string;
}

/**
 * The `$filter` text for the options. The user's filter is parsed on its own first, so an error's
 * caret points into what they typed; `--partition` is then joined to it with `and`.
 */
export function filterFromOptions(opts: FilterOptions): string | undefined {
  const text = opts.filter?.trim() === "" ? undefined : opts.filter;
  if (text !== undefined) parseFilter(text);
  if (opts.partition === undefined) return text;
  const partition = odata`PartitionKey eq ${opts.partition}`;
  return text === undefined ? partition : `${partition} and (${text})`;
}
