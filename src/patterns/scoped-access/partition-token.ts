import { generateTableSas, type TableSasOptions } from "../../store/index.js";
import type { Model } from "../entity-models/define-model.js";
import type { IndexDefinition } from "../entity-models/types.js";
import type { Fields } from "../shared/schema/field.js";
import type { KeyValues } from "../shared/schema/key-spec.js";

/** What a partition token allows besides its table and key range (which the model supplies). */
export type PartitionTokenOptions = Omit<
  TableSasOptions,
  "tableName" | "startPartitionKey" | "startRowKey" | "endPartitionKey" | "endRowKey"
>;

/**
 * A table SAS that reaches one partition of a model's table and nothing else: the partition whose
 * PartitionKey the model builds from `partition` (every field of its partition key). Give it to
 * one user's client so it can read and write only its own entities (seed 001, "Control access with
 * shared access signatures"); the service, `tablekit serve` and a store opened with the token
 * refuse everything outside the partition.
 *
 * @example partitionToken(Order, { customerId: "c42" }, { account, permissions: { query: true, add: true }, expiresOn })
 */
export function partitionToken<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
>(model: Model<F, PKN, RKN, I, T>, partition: KeyValues<F, PKN>, options: PartitionTokenOptions): string {
  const partitionKey = model.compiled.partitionKey.encode(partition as Record<string, unknown>);
  return generateTableSas({
    ...options,
    tableName: model.compiled.table,
    startPartitionKey: partitionKey,
    endPartitionKey: partitionKey,
  });
}
