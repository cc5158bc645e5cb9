/**
 * The public surface: every runtime name each entry point exports. A name added here is a decision
 * (document it); a name that appears without being added is an internal helper leaking.
 */
import { describe, expect, it } from "vitest";

const FILTER = [
  "DEFAULT_MAX_COMPARISONS",
  "DEFAULT_MAX_FILTER_LENGTH",
  "compareTyped",
  "comparison",
  "compileFilter",
  "countComparisons",
  "evaluateFilter",
  "filterToString",
  "filtersEqual",
  "formatFilterError",
  "formatLiteral",
  "isFilterPropertyName",
  "keyRangeContains",
  "keyRanges",
  "odata",
  "parseFilter",
  "where",
];

const KEYS = [
  "AZURE_LIMITS",
  "DYNAMODB_LIMITS",
  "MAX_UNIQUE_COUNTER",
  "chronologicalTicks",
  "compoundKey",
  "float64",
  "fnv1a32",
  "hashBuckets",
  "hierarchicalKey",
  "int64",
  "invertedTicks",
  "keysBetween",
  "odataString",
  "paddedBigInt",
  "paddedInt",
  "prefixRange",
  "prefixSuccessor",
  "rangeFilter",
  "signedInt",
  "uniqueTicks",
  "validateKeyEverywhere",
  "validateKeyFor",
  "versionKey",
];

// The key-design advisor (docs/advisor.md): a tool above the patterns, tablekit/advisor.
const ADVISOR = ["FINDING_IDS", "FINDING_KINDS", "adviseModel", "adviseTable"];

// @azure/data-tables' runtime names a program uses, over any store (docs/data-tables.md).
const DATA_TABLES = [
  "AzureNamedKeyCredential",
  "AzureSASCredential",
  "RestError",
  "TableClient",
  "TableServiceClient",
  "TableTransaction",
  "closeDataTablesStores",
  "generateAccountSas",
  "generateTableSas",
  "isRestError",
  "odata",
];

// @azure/storage-queue's runtime names a program uses, over any store's queue port.
const STORAGE_QUEUE = [
  "QueueClient",
  "QueueServiceClient",
  "RestError",
  "closeStorageQueueStores",
  "isRestError",
];

// @azure/storage-blob's runtime names a program uses, over any store's blob port.
const STORAGE_BLOB = [
  "AppendBlobClient",
  "BlobClient",
  "BlobLeaseClient",
  "BlobServiceClient",
  "BlockBlobClient",
  "ContainerClient",
  "PageBlobClient",
  "RestError",
  "closeStorageBlobStores",
  "isRestError",
];

const PATTERNS = [
  "BlockIdAllocator",
  "DataSeries",
  "HashPartitionedTable",
  "PeriodTables",
  "WideEntities",
  "BlobLog",
  "BlobLogWriter",
  "LargeEntities",
  "keyRangeParts",
  "parallelQuery",
  "partitionParts",
  "ChronologicalLog",
  "EntityTypes",
  "EntityTypesReader",
  "GaplessSequence",
  "KeyBuilder",
  "KeySpec",
  "LogRepository",
  "Model",
  "Repository",
  "SequenceCounter",
  "VersionedEntity",
  "VersionedRepository",
  "defineDenormalization",
  "defineEntityTypes",
  "defineIdListIndex",
  "defineIndexEntities",
  "defineLog",
  "defineModel",
  "defineVersioned",
  "field",
  "partitionToken",
  "sequentialIdKey",
  // eventually consistent transactions and the inter-partition index (issue 13)
  "SyncedRepository",
  "TransactionQueue",
  "defineInterPartitionIndex",
  "step",
];

const ROOT = [
  ...FILTER,
  ...PATTERNS,
  ...ADVISOR,
  "AZURE_LIMITS",
  "AZURE_QUEUE_LIMITS",
  // The blob port (docs/blobs.md)
  "AppendBlobClient",
  "PageBlobClient",
  "BlobBatchClient",
  "BlobClient",
  "BlobContainer",
  "BlobLeaseClient",
  "BlockBlobClient",
  "AccessPolicy",
  "DEFAULT_SAS_VERSION",
  "DEFAULT_STORE_URL",
  "DEVELOPMENT_ACCOUNT",
  "DYNAMODB_LIMITS",
  "DateTime",
  "EDM_TYPES",
  "ERROR_STATUS",
  "Queue",
  "Store",
  "Table",
  "TableKitError",
  "compareUtf16",
  "compareUtf8",
  "entitySize",
  "generateAccountSas",
  "generateTableSas",
  "isTableKitError",
  "keys",
  "openStore",
  "parseSasToken",
  "utf8ItemSize",
  "verifySasToken",
];

const names = (module: object) => Object.keys(module).sort();
const sorted = (list: string[]) => [...list].sort();

describe("public surface", () => {
  it("tablekit exports exactly these names", async () => {
    expect(names(await import("../src/index.js"))).toEqual(sorted(ROOT));
  });

  it("tablekit/keys, /filter, /patterns and /advisor export exactly these names", async () => {
    expect(names(await import("../src/keys/index.js"))).toEqual(sorted(KEYS));
    expect(names(await import("../src/filter/index.js"))).toEqual(sorted(FILTER));
    expect(names(await import("../src/patterns/index.js"))).toEqual(sorted(PATTERNS));
    expect(names(await import("../src/advisor/index.js"))).toEqual(sorted(ADVISOR));
  });

  it("tablekit/data-tables exports exactly these names, each of them a runtime name of @azure/data-tables but two", async () => {
    expect(names(await import("../src/data-tables/index.js"))).toEqual(sorted(DATA_TABLES));
    const sdk = await import("@azure/data-tables");
    const ours = DATA_TABLES.filter((n) => !(n in sdk));
    // isRestError is @azure/core-rest-pipeline's; closeDataTablesStores is tablekit's own.
    expect(ours).toEqual(["closeDataTablesStores", "isRestError"]);
  });

  it("tablekit/storage-queue exports exactly these names, each of them a runtime name of @azure/storage-queue but one", async () => {
    expect(names(await import("../src/storage-queue/index.js"))).toEqual(sorted(STORAGE_QUEUE));
    const sdk = await import("@azure/storage-queue");
    expect(STORAGE_QUEUE.filter((n) => !(n in sdk))).toEqual(["closeStorageQueueStores"]);
  });

  it("tablekit/storage-blob exports exactly these names, each of them a runtime name of @azure/storage-blob but two", async () => {
    expect(names(await import("../src/storage-blob/index.js"))).toEqual(sorted(STORAGE_BLOB));
    const sdk = await import("@azure/storage-blob");
    // isRestError is @azure/core-rest-pipeline's; closeStorageBlobStores is tablekit's own.
    expect(STORAGE_BLOB.filter((n) => !(n in sdk))).toEqual(["closeStorageBlobStores", "isRestError"]);
  });

  it("the root's keys namespace is tablekit/keys", async () => {
    const root = await import("../src/index.js");
    expect(names(root.keys)).toEqual(sorted(KEYS));
  });
});
