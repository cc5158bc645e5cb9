import type { TableEntity, TransactionAction, UpdateMode, UpdateTableEntityOptions } from "./models.js";

/** Builds the actions of a transaction, as the SDK's: pass `transaction.actions` to `submitTransaction`. */
export class TableTransaction {
  actions: TransactionAction[];

  constructor(actions?: TransactionAction[]) {
    this.actions = actions ?? [];
  }

  createEntity<T extends object = Record<string, unknown>>(entity: TableEntity<T>): void {
    this.actions.push(["create", entity]);
  }

  deleteEntity(partitionKey: string, rowKey: string): void {
    this.actions.push(["delete", { partitionKey, rowKey }]);
  }

  updateEntity<T extends object = Record<string, unknown>>(
    entity: TableEntity<T>,
    updateOptions?: UpdateTableEntityOptions,
  ): void;
  updateEntity<T extends object = Record<string, unknown>>(
    entity: TableEntity<T>,
    updateMode?: UpdateMode,
    updateOptions?: UpdateTableEntityOptions,
  ): void;
  updateEntity(
    entity: TableEntity,
    modeOrOptions?: UpdateMode | UpdateTableEntityOptions,
    updateOptions?: UpdateTableEntityOptions,
  ): void {
    const mode = typeof modeOrOptions === "string" ? modeOrOptions : "Merge";
    const options = typeof modeOrOptions === "object" ? modeOrOptions : updateOptions;
    this.actions.push(["update", entity, mode, options ?? {}]);
  }

  upsertEntity<T extends object = Record<string, unknown>>(
    entity: TableEntity<T>,
    updateMode: UpdateMode = "Merge",
  ): void {
    this.actions.push(["upsert", entity, updateMode]);
  }
}
