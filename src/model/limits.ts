/**
 * The rules a backend enforces, as data. The embedded engine declares Azure's; other backends
 * declare their own (stricter where the service is stricter). The core checks every write against
 * the backend's limits before anything reaches the backend. Documented in docs/limits.md.
 */
export interface Limits {
  /** Largest PartitionKey / RowKey, in bytes of `keyEncoding`. */
  readonly maxKeyBytes: number;
  /** How key size is measured: Azure counts UTF-16 (2 bytes a code unit), DynamoDB UTF-8. */
  readonly keyEncoding: "utf16" | "utf8";
  /** Characters a key may not contain. */
  readonly forbiddenKeyCharacters: RegExp;
  /** Custom properties an entity may have (PartitionKey, RowKey and Timestamp not counted). */
  readonly maxProperties: number;
  readonly maxPropertyNameLength: number;
  /** Largest String value, in bytes of UTF-16. */
  readonly maxStringBytes: number;
  readonly maxBinaryBytes: number;
  /** Largest entity, measured with the Table service's size formula (docs/limits.md). */
  readonly maxEntityBytes: number;
  /**
   * Optional: the largest entity measured DynamoDB's way (`utf8ItemSize`: UTF-8 bytes of every
   * name and value, keys included). Absent where the service measures only with `maxEntityBytes`.
   */
  readonly maxItemBytes?: number;
  /**
   * Optional: property names this backend cannot store although the service can (Azurite drops
   * properties named like Object.prototype members). Writing one is NotSupported, never lost.
   */
  readonly unstorablePropertyNames?: readonly string[];
  /** Earliest and latest DateTime a property may hold, as .NET ticks. */
  readonly minDateTimeTicks: bigint;
  readonly maxDateTimeTicks: bigint;
  readonly tableNamePattern: RegExp;
  /** Table names that may not be created (compared case-insensitively). */
  readonly reservedTableNames: readonly string[];
  readonly maxTransactionOperations: number;
  /** Largest entity group transaction: its `$batch` request body (`transactionPayloadBytes`). */
  readonly maxTransactionBytes: number;
  readonly maxPageSize: number;
  readonly maxFilterComparisons: number;
  /** How long one query page may take before it ends early with a continuation token. */
  readonly pageTimeBudgetMs: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** The Azure Table service's documented limits (field notes; Azure "Understanding the data model"). */
export const AZURE_LIMITS: Limits = Object.freeze({
  // "up to 1 KiB in size" as UTF-16: 512 code units. One page says 1,024 characters; we take the
  // stricter reading so a key accepted here is accepted by the service.
  maxKeyBytes: 1 * KiB,
  keyEncoding: "utf16",
  forbiddenKeyCharacters: /[/\\#?\u0000-\u001f\u007f-\u009f]/,
  maxProperties: 252,
  maxPropertyNameLength: 255,
  maxStringBytes: 64 * KiB,
  maxBinaryBytes: 64 * KiB,
  maxEntityBytes: 1 * MiB,
  minDateTimeTicks: 504_911_232_000_000_000n, // 1601-01-01T00:00:00Z
  maxDateTimeTicks: 3_155_378_975_999_999_999n, // 9999-12-31T23:59:59.9999999Z
  tableNamePattern: /^[A-Za-z][A-Za-z0-9]{2,62}$/,
  reservedTableNames: ["tables"],
  maxTransactionOperations: 100,
  maxTransactionBytes: 4 * MiB,
  maxPageSize: 1000,
  maxFilterComparisons: 15,
  pageTimeBudgetMs: 5000,
});

/**
 * DynamoDB's rules as the `dynamodb:` backend enforces them: Azure's, with keys measured in UTF-8
 * (a sort key holds at most 1,024 bytes; tablekit holds PartitionKeys to the same) and the 400 KiB
 * item rule in `maxItemBytes`, less what tablekit's item layout adds (docs/dynamodb.md).
 */
export const DYNAMODB_LIMITS: Limits = Object.freeze({
  ...AZURE_LIMITS,
  keyEncoding: "utf8",
  maxKeyBytes: 1 * KiB,
  // 400 KiB less the layout's reserve: Timestamp 37, key escapes 2, a type suffix of 9 per property.
  maxItemBytes: 400 * KiB - (37 + 2 + 9 * AZURE_LIMITS.maxProperties),
});
