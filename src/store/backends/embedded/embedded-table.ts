import { DateTime, type Limits, type StoredEntity } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import {
  type BackendAction,
  type BackendPage,
  type BackendQuery,
  READ_LATER,
  type TableBackend,
  type WriteResult,
} from "../../tables/table-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import { isBusy, isNoSuchTable, toTableKitError } from "./errors.js";
import { decodeEntity } from "./table-entity-codec.js";
import { toStoredKey } from "./table-key-order.js";
import { readPage } from "./table-query.js";
import type { EmbeddedTableStatements } from "./table-statements.js";
import { applyAction, isSingleStatement, stampAt } from "./table-writes.js";

/** What a table needs of its store's tables (EmbeddedTables); declared here so neither file imports the other. */
export interface EmbeddedTableHost {
  readonly capabilities: Capabilities;
  run<T>(call: CallOptions, work: () => T): Promise<T>;
  immediate<T>(work: () => T): T;
  withTable<T>(name: string, key: string, work: (h: EmbeddedTableStatements) => T): T;
  /** The table's statements if they are prepared already (no lookup). */
  cachedStatements(key: string): EmbeddedTableStatements | undefined;
}

/** One table of an embedded store. Cheap to create: it resolves the table on each call. */
export class EmbeddedTable implements TableBackend {
  /** The name lower-cased: what the host's statements are cached by. */
  private readonly key: string;
  private readonly limits: Limits;
  private readonly endAtPartition: boolean;

  constructor(
    private readonly tables: EmbeddedTableHost,
    private readonly name: string,
  ) {
    this.key = name.toLowerCase();
    this.limits = tables.capabilities.limits;
    this.endAtPartition = tables.capabilities.pageEndsAtPartitionBoundary;
  }

  get(partitionKey: string, rowKey: string, call: CallOptions): Promise<StoredEntity | undefined> {
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, this.key, (h) => readEntity(h, partitionKey, rowKey)),
    );
  }

  /**
   * `get` without its promise and closures, when the table's statements are at hand and the read
   * takes its lock at once; otherwise READ_LATER, and `get` does what it always does.
   */
  getNow(partitionKey: string, rowKey: string): StoredEntity | undefined | typeof READ_LATER {
    const h = this.tables.cachedStatements(this.key);
    if (h === undefined) return READ_LATER;
    try {
      return readEntity(h, partitionKey, rowKey);
    } catch (err) {
      if (isBusy(err) || isNoSuchTable(err)) return READ_LATER;
      throw toTableKitError(err);
    }
  }

  query(query: BackendQuery, call: CallOptions): Promise<BackendPage> {
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, this.key, (h) => readPage(h, query, this.endAtPartition)),
    );
  }

  write(action: BackendAction, call: CallOptions): Promise<WriteResult | undefined> {
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, this.key, (h) => {
        const now = stampAt(DateTime.now());
        return isSingleStatement(action)
          ? applyAction(h, action, now, this.limits)
          : this.tables.immediate(() => applyAction(h, action, now, this.limits));
      }),
    );
  }

  transact(actions: readonly BackendAction[], call: CallOptions): Promise<(WriteResult | undefined)[]> {
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, this.key, (h) =>
        this.tables.immediate(() => {
          const now = stampAt(DateTime.now());
          return actions.map((action, index) => {
            try {
              return applyAction(h, action, now, this.limits);
            } catch (err) {
              // A dropped table is retried whole by withTable, a lock by run; anything else names its action.
              if (isNoSuchTable(err) || isBusy(err)) throw err;
              throw toTableKitError(err).withIndex(index);
            }
          });
        }),
      ),
    );
  }
}

function readEntity(
  h: EmbeddedTableStatements,
  partitionKey: string,
  rowKey: string,
): StoredEntity | undefined {
  const row = h.selectOne.get(toStoredKey(partitionKey), toStoredKey(rowKey)) as
    | [string, bigint, string]
    | undefined;
  return row && decodeEntity(partitionKey, rowKey, row[0], row[1], row[2]);
}
