/**
 * tablekit/patterns: the key-design patterns of partition-key / row-key tables, built only on the
 * public Store/Table port so they work on every backend. docs/patterns/ has one page per pattern.
 */

export { type PartitionTokenOptions, partitionToken } from "./access/partition-token.js";
export { adviseModel } from "./advisor/advise-model.js";
export {
  type AdviseProgress,
  type AdviseTableOptions,
  type AdvisorCoverage,
  type AdvisorReport,
  adviseTable,
} from "./advisor/advise-table.js";
export {
  type AdvisorFinding,
  FINDING_IDS,
  FINDING_KINDS,
  type FindingId,
  type FindingKind,
  type FindingSeverity,
} from "./advisor/findings.js";
export {
  BlobLog,
  type BlobLogEntry,
  type BlobLogOptions,
  type ReadLogOptions,
} from "./blob-log/blob-log.js";
export type { PeriodMinutes } from "./blob-log/log-names.js";
export type { BlobLogStats } from "./blob-log/log-sinks.js";
export {
  BlobLogWriter,
  type BlobLogWriterOptions,
  type LogFields,
  type WriteLogOptions,
} from "./blob-log/log-writer.js";
export type { Derivation, PrimaryChange } from "./consistency/derived.js";
export type { HandlerContext, StepHandler } from "./consistency/handler.js";
export type { PoisonedTransaction, PoisonQueue, PoisonReason } from "./consistency/poison-queue.js";
export { type BlobPrecondition, type JsonValue, step, type TransactionStep } from "./consistency/steps.js";
export { SyncedRepository, type SyncedRepositoryOptions } from "./consistency/synced-repository.js";
export {
  type EnqueuedTransaction,
  type EnqueueOptions,
  type PendingTransaction,
  TransactionQueue,
  type TransactionQueueOptions,
  type TransactionStatus,
} from "./consistency/transaction-queue.js";
export type { BoundaryInfo, TransactionWorker, WorkerOptions, WorkerStats } from "./consistency/worker.js";
export type {
  IndexVerifyOptions,
  IndexVerifyReport,
  InterPartitionIndexReader,
} from "./cross-index/index-reader.js";
export {
  defineInterPartitionIndex,
  type EntryKey,
  type InterPartitionIndex,
  type InterPartitionIndexDefinition,
} from "./cross-index/inter-partition-index.js";
export type { CopyDerivations } from "./denormalize/copy-derivations.js";
export {
  type Denormalization,
  type DenormalizationDefinition,
  defineDenormalization,
} from "./denormalize/denormalized-copy.js";
export type { FanOutResult } from "./hash/fan-out-writer.js";
export {
  type BucketQueryOptions,
  HashPartitionedTable,
  type HashPartitionOptions,
  type LogicalEntity,
  type PartitionSelector,
  type WriteManyOptions,
} from "./hash/hash-partitioned.js";
export {
  type BlockAllocatorOptions,
  BlockIdAllocator,
  type BlockSizeOptions,
  type IdRange,
} from "./ids/block-allocator.js";
export { type CounterOptions, type CounterStats, type Reservation, SequenceCounter } from "./ids/counter.js";
export { type GaplessInsert, type GaplessOptions, GaplessSequence } from "./ids/gapless.js";
export { type IdKeyOptions, sequentialIdKey } from "./ids/id-keys.js";
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
export type { Query, QueryOptions } from "./internal/query.js";
export type { RetryOptions } from "./internal/retry.js";
export type { LargeCleanupOptions, LargeCleanupReport } from "./large/large-cleanup.js";
export {
  LargeEntities,
  type LargeEntitiesOptions,
  type LargeEntityStep,
  type LargeRecord,
  type LargeWriteOptions,
  type LargeWriteResult,
} from "./large/large-entities.js";
export {
  type AppendOptions,
  ChronologicalLog,
  defineLog,
  type LogDefinition,
  type LogOrder,
  type LogRecord,
  LogRepository,
} from "./log/chronological-log.js";
export {
  defineEntityTypes,
  EntityTypes,
  EntityTypesReader,
  type EntityTypesRecord,
  type MixedListOptions,
} from "./mixed/entity-types.js";
export type { Companion, CompanionPlan, CompanionWrite } from "./model/companion.js";
export { type CompiledModel, defineModel, Model, type ModelKeys } from "./model/define-model.js";
export { type IndexReaders, Repository } from "./model/repository.js";
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
} from "./model/types.js";
export {
  type MergeOrder,
  type ParallelQueryOptions,
  type PartEntity,
  parallelQuery,
  type QueryPart,
} from "./parallel/parallel-query.js";
export { keyRangeParts, partitionParts } from "./parallel/query-parts.js";
export {
  type PeriodQueryOptions,
  type PeriodTable,
  PeriodTables,
  type PeriodTablesOptions,
  type PeriodUnit,
} from "./periods/period-tables.js";
export { type Field, type FieldInput, type Fields, type FieldValue, field } from "./schema/field.js";
export { KeyBuilder, type KeyMatch, KeySpec, type KeyValues, type LeadingValues } from "./schema/key-spec.js";
export type { InferInput, InferRecord } from "./schema/schema.js";
export {
  DataSeries,
  type DataSeriesOptions,
  type SeriesKey,
  type SeriesSnapshot,
  type SeriesValueType,
  type SeriesWriteOptions,
} from "./series/data-series.js";
export {
  defineVersioned,
  type VersionedDefinition,
  VersionedEntity,
  VersionedRepository,
  type VersionRecord,
  type VersionWriteOptions,
} from "./versions/version-history.js";
export {
  WideEntities,
  type WideRecord,
  type WideUpdateOptions,
  type WideWriteResult,
} from "./wide/wide-entities.js";
export type { PartPlan } from "./wide/wide-layout.js";
