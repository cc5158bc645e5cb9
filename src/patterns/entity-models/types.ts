import type { OperationOptions } from "../../store/index.js";
import type { Fields } from "../shared/schema/field.js";
import type {
  KeyBuilder,
  KeySpec,
  KeyValues,
  LeadingValues,
  PrefixOptions,
} from "../shared/schema/key-spec.js";
import type { InferInput, InferRecord, Simplify } from "../shared/schema/schema.js";
import type { Query, QueryOptions } from "../shared/support/query.js";

/** An index copy of an entity, in its partition under another RowKey (seed 001). */
export interface IndexDefinition<F extends Fields> {
  /** The copy's RowKey; start it with a literal of its own (`k.literal("email_").field("email")`). */
  readonly rowKey: KeySpec<F, readonly string[]>;
  /**
   * Fields the copy holds besides the key fields (the entity's and the index's); default: all.
   * A copy with fewer fields is cheaper to write and read (seed 001: "not all properties").
   */
  readonly include?: readonly (keyof F & string)[];
  /**
   * Default true: two entities of a partition may not share an index key (a second one is
   * refused with EntityAlreadyExists). `false` appends the entity's own RowKey fields to the
   * index key, so equal values may repeat (an index for another sort order).
   */
  readonly unique?: boolean;
}

/** Everything `defineModel` takes. */
export interface ModelDefinition<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  I extends Readonly<Record<string, IndexDefinition<F>>>,
  T extends string,
> {
  /** The table the model lives in (`Model.on(store)` uses it; `Model.on(table)` overrides it). */
  readonly table: string;
  /**
   * The entity type's name: records carry it as `entityType`, and it is stored in the
   * `typeProperty` so a table can mix entity types (seed 001, "heterogeneous entity types").
   */
  readonly entityType?: T;
  /** The property that stores `entityType` (default "EntityType"); `false` stores nothing. */
  readonly typeProperty?: string | false;
  readonly fields: F;
  readonly partitionKey: (k: KeyBuilder<F>) => KeySpec<F, PKN>;
  readonly rowKey: (k: KeyBuilder<F>) => KeySpec<F, RKN>;
  /**
   * Secondary indexes inside the partition, kept in step by entity group transactions:
   * `(k) => ({ email: { rowKey: k.literal("email_").field("email") } })`.
   */
  readonly indexes?: (k: KeyBuilder<F>) => I;
}

/** What every record carries besides its fields. */
export interface RecordMeta {
  /** The entity's ETag when it was read or written: pass it back as `{ etag }` for a conditional write. */
  readonly etag: string;
  /** When the store last wrote the entity (ISO 8601, seven fractional digits). */
  readonly timestamp: string;
}

type TypeTag<T extends string> = [T] extends [never] ? unknown : { readonly entityType: T };

/** A model's entity as reads and writes return it. */
export type ModelRecord<F extends Fields, T extends string = never> = Simplify<
  InferRecord<F> & RecordMeta & TypeTag<T>
>;

/** The field names of an index's own key (before the entity's RowKey fields of a non-unique index). */
export type IndexKeyNames<D> = D extends { rowKey: KeySpec<Fields, infer N> } ? N : never;

/** The names an index key is built from: its own, then the entity's RowKey fields when not unique. */
export type IndexLookupNames<D, RKN extends readonly string[]> = D extends { unique: false }
  ? [...IndexKeyNames<D>, ...RKN]
  : IndexKeyNames<D>;

/** What an index copy holds: every key field, plus the fields it includes (all by default). */
export type IndexRecord<
  F extends Fields,
  PKN extends readonly string[],
  RKN extends readonly string[],
  D,
  T extends string,
> = D extends { include: infer Inc extends readonly string[] }
  ? Simplify<
      Pick<
        InferRecord<F>,
        (PKN[number] | RKN[number] | IndexKeyNames<D>[number] | Inc[number]) & keyof InferRecord<F>
      > &
        RecordMeta &
        TypeTag<T>
    >
  : ModelRecord<F, T>;

/** Where a query looks: the whole PartitionKey, then any leading fields of the RowKey. */
export type Where<F extends Fields, PKN extends readonly string[], N extends readonly string[]> = Simplify<
  KeyValues<F, PKN> & LeadingValues<F, N>
>;

/** Options of a conditional write. */
export interface WriteOptions extends OperationOptions {
  /**
   * Write only if the entity still has this ETag (UpdateConditionNotSatisfied otherwise). Without
   * it, a write that loses a race with another writer is retried on fresh data.
   */
  readonly etag?: string;
}

/** Options of a prefix query. */
export interface ListOptions extends QueryOptions, PrefixOptions {}

/** Reads by one key of a model: the entity's own key or an index's. */
export interface KeyReader<F extends Fields, PKN extends readonly string[], N extends readonly string[], R> {
  /** The entity with this whole key; ResourceNotFound when there is none. One round trip. */
  get(key: KeyValues<F, [...PKN, ...N]>, options?: OperationOptions): Promise<R>;
  /** The entity with this whole key, or undefined. One round trip. */
  find(key: KeyValues<F, [...PKN, ...N]>, options?: OperationOptions): Promise<R | undefined>;
  /**
   * Entities of one partition whose key starts with the leading fields given (any level of a
   * compound or hierarchical key), in key order; `startsWith` narrows the next text field.
   */
  list(where: Where<F, PKN, N>, options?: ListOptions): Query<R>;
  /** Entities from the keys of `from` through those of `to` (both leading prefixes, one partition), inclusive. */
  between(from: Where<F, PKN, N>, to: Where<F, PKN, N>, options?: QueryOptions): Query<R>;
}

/** The typed input of writes. */
export type ModelInput<F extends Fields> = InferInput<F>;

/** A partial update: any fields but the key ones; `null` removes an optional field. */
export type ModelChanges<F extends Fields> = Partial<InferInput<F>>;
