import { DateTime, type StoredEntity } from "../../../model/index.js";
import type { CallOptions } from "../../call-options.js";
import type {
  BackendAction,
  BackendPage,
  BackendQuery,
  TableBackend,
  WriteResult,
} from "../../tables/table-backend.js";
import type { Capabilities } from "../../tables/table-capabilities.js";
import { isBusy, isNoSuchTable, toTableKitError } from "./errors.js";
import { decodeProperties } from "./table-entity-codec.js";
import { toStoredKey } from "./table-key-order.js";
import { readPage } from "./table-query.js";
import type { EmbeddedTableStatements } from "./table-statements.js";
import { applyAction, isSingleStatement, stampAt } from "./table-writes.js";

/** What a table needs of its store's tables (EmbeddedTables); declared here so neither file imports the other. */
export interface EmbeddedTableHost {
  readonly capabilities: Capabilities;
  run<T>(call: CallOptions, work: () => T): Promise<T>;
  immediate<T>(work: () => T): T;
  withTable<T>(name: string, work: (h: EmbeddedTableStatements) => T): T;
}

/** One table of an embedded store. Cheap to create: it resolves the table on each call. */
export class EmbeddedTable implements TableBackend {
  constructor(
    private readonly tables: EmbeddedTableHost,
    private readonly name: string,
  ) {}

  get(partitionKey: string, rowKey: string, call: CallOptions): Promise<StoredEntity | undefined> {
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, (h) => readEntity(h, partitionKey, rowKey)),
    );
  }

  query(query: BackendQuery, call: CallOptions): Promise<BackendPage> {
    return this.tables.run(call, () => this.tables.withTable(this.name, (h) => readPage(h, query)));
  }

  write(action: BackendAction, call: CallOptions): Promise<WriteResult | undefined> {
    const limits = this.tables.capabilities.limits;
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, (h) => {
        const now = stampAt(DateTime.now());
        return isSingleStatement(action)
          ? applyAction(h, action, now, limits)
          : this.tables.immediate(() => applyAction(h, action, now, limits));
      }),
    );
  }

  transact(actions: readonly BackendAction[], call: CallOptions): Promise<(WriteResult | undefined)[]> {
    const limits = this.tables.capabilities.limits;
    return this.tables.run(call, () =>
      this.tables.withTable(this.name, (h) =>
        this.tables.immediate(() => {
          const now = stampAt(DateTime.now());
          return actions.map((action, index) => {
            try {
              return applyAction(h, action, now, limits);
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
  if (!row) return undefined;
  return {
    partitionKey,
    rowKey,
    properties: decodeProperties(row[0]),
    etag: row[2],
    timestamp: DateTime.fromTicks(row[1]),
  };
}
