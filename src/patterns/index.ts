/**
 * tablekit/patterns: the key-design patterns of partition-key / row-key tables, built only on the
 * public Store/Table port so they work on every backend. docs/patterns/ has one page per pattern.
 */
// Kept in the declarations (preserve): blob bodies, SDK slices and the server name Node types,
// which TypeScript 7 (whose "types" default is []) would not load otherwise.
/// <reference types="node" preserve="true" />

export {
  type AppendOptions,
  ChronologicalLog,
  defineLog,
  type LogDefinition,
  type LogOrder,
  type LogRecord,
  LogRepository,
} from "./chronological-log/chronological-log.js";
export {
  DataSeries,
  type DataSeriesOptions,
  type SeriesKey,
  type SeriesSnapshot,
  type SeriesValueType,
  type SeriesWriteOptions,
} from "./data-series/data-series.js";
export type { CopyDerivations } from "./denormalization/copy-derivations.js";
export {
  type Denormalization,
  type DenormalizationDefinition,
  defineDenormalization,
} from "./denormalization/denormalized-copy.js";
export type { Companion, CompanionPlan, CompanionWrite } from "./entity-models/companion.js";
export { type CompiledModel, defineModel, Model, type ModelKeys } from "./entity-models/define-model.js";
export type { FieldFilter } from "./entity-models/field-filter.js";
export { type IndexReaders, Repository } from "./entity-models/repository.js";
export type {
  IndexDefinition,
  IndexRecord,
  KeyReader,
  ListOptions,
  ModelChanges,
  ModelDefinition,
  ModelInput,
  ModelRecord,
  RecordMeta,
  Where,
  WriteOptions,
} from "./entity-models/types.js";
export type { HandlerContext, StepHandler } from "./eventually-consistent-transactions/handler.js";
export type {
  PoisonedTransaction,
  PoisonQueue,
  PoisonReason,
} from "./eventually-consistent-transactions/poison-queue.js";
export {
  type BlobPrecondition,
  type JsonValue,
  step,
  type TransactionStep,
} from "./eventually-consistent-transactions/steps.js";
export {
  type EnqueuedTransaction,
  type EnqueueOptions,
  type PendingTransaction,
  TransactionQueue,
  type TransactionQueueOptions,
  type TransactionStatus,
} from "./eventually-consistent-transactions/transaction-queue.js";
export type {
  BoundaryInfo,
  TransactionWorker,
  WorkerOptions,
  WorkerStats,
} from "./eventually-consistent-transactions/worker.js";
export type { FanOutResult } from "./hash-partitioning/fan-out-writer.js";
export {
  type BucketQueryOptions,
  HashPartitionedTable,
  type HashPartitionOptions,
  type LogicalEntity,
  type PartitionSelector,
  type WriteManyOptions,
} from "./hash-partitioning/hash-partitioned.js";
export {
  defineIdListIndex,
  type IdListIndex,
  type IdListIndexDefinition,
  type IdListIndexReader,
  type IndexBlobs,
  type IndexEntitiesApart,
} from "./index-entities/id-list-index.js";
export type { IdLists, ListKey, StoredList } from "./index-entities/id-lists.js";
export {
  defineIndexEntities,
  type IndexEntities,
  type IndexEntitiesDefinition,
  type IndexEntitiesOn,
} from "./index-entities/index-entities.js";
export type {
  IndexVerifyOptions,
  IndexVerifyReport,
  InterPartitionIndexReader,
} from "./inter-partition-index/index-reader.js";
export {
  defineInterPartitionIndex,
  type EntryKey,
  type InterPartitionIndex,
  type InterPartitionIndexDefinition,
} from "./inter-partition-index/inter-partition-index.js";
export type { LargeCleanupOptions, LargeCleanupReport } from "./large-entities/large-cleanup.js";
export {
  LargeEntities,
  type LargeEntitiesOptions,
  type LargeEntityStep,
  type LargeRecord,
  type LargeWriteOptions,
  type LargeWriteResult,
} from "./large-entities/large-entities.js";
export {
  BlobLog,
  type BlobLogEntry,
  type BlobLogOptions,
  type ReadLogOptions,
} from "./log-data-in-blobs/blob-log.js";
export type { PeriodMinutes } from "./log-data-in-blobs/log-names.js";
export type { BlobLogStats } from "./log-data-in-blobs/log-sinks.js";
export {
  BlobLogWriter,
  type BlobLogWriterOptions,
  type LogFields,
  type WriteLogOptions,
} from "./log-data-in-blobs/log-writer.js";
export {
  defineEntityTypes,
  EntityTypes,
  EntityTypesReader,
  type EntityTypesRecord,
  type MixedListOptions,
} from "./mixed-entity-types/entity-types.js";
export {
  type MergeOrder,
  type ParallelQueryOptions,
  type PartEntity,
  parallelQuery,
  type QueryPart,
} from "./parallel-queries/parallel-query.js";
export { keyRangeParts, partitionParts } from "./parallel-queries/query-parts.js";
export { type PartitionTokenOptions, partitionToken } from "./scoped-access/partition-token.js";
export {
  type BlockAllocatorOptions,
  BlockIdAllocator,
  type BlockSizeOptions,
  type IdRange,
} from "./sequential-ids/block-allocator.js";
export {
  type CounterOptions,
  type CounterStats,
  type Reservation,
  SequenceCounter,
} from "./sequential-ids/counter.js";
export { type GaplessInsert, type GaplessOptions, GaplessSequence } from "./sequential-ids/gapless.js";
export { type IdKeyOptions, sequentialIdKey } from "./sequential-ids/id-keys.js";
export type { Derivation, PrimaryChange } from "./shared/derivations/derived.js";
export { SyncedRepository, type SyncedRepositoryOptions } from "./shared/derivations/synced-repository.js";
export { type Field, type FieldInput, type Fields, type FieldValue, field } from "./shared/schema/field.js";
export {
  KeyBuilder,
  type KeyMatch,
  KeySpec,
  type KeyValues,
  type LeadingValues,
} from "./shared/schema/key-spec.js";
export type { InferInput, InferRecord } from "./shared/schema/schema.js";
export type { Query, QueryOptions } from "./shared/support/query.js";
export type { RetryOptions } from "./shared/support/retry.js";
export {
  type PeriodQueryOptions,
  type PeriodTable,
  PeriodTables,
  type PeriodTablesOptions,
  type PeriodUnit,
} from "./table-per-period/period-tables.js";
export {
  defineVersioned,
  type VersionedDefinition,
  VersionedEntity,
  VersionedRepository,
  type VersionRecord,
  type VersionWriteOptions,
} from "./version-history/version-history.js";
export {
  WideEntities,
  type WideRecord,
  type WideUpdateOptions,
  type WideWriteResult,
} from "./wide-entities/wide-entities.js";
export type { PartPlan } from "./wide-entities/wide-layout.js";
