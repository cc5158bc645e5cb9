import { isTableKitError } from "../../../model/index.js";
import type {
  ResourceMetadata,
  ResourceStateChange,
  StateBackend,
  StatePart,
  StoredResourceState,
  StoredServiceProperties,
} from "../../access/state-backend.js";
import type { StoredAccessPolicy } from "../../access/verify-sas.js";
import type { CallOptions } from "../../call-options.js";
import type { Table } from "../../tables/table.js";
import { queueNotFound } from "./errors.js";
import { CATALOGUE_PARTITION } from "./queue-message-entity.js";

/**
 * The row of the Queue service's properties, in the catalogue partition: `~` sorts after every
 * queue name ([a-z0-9-]), so no listing or lookup of a queue ever reads it.
 */
const PROPERTIES_ROW = "~service-properties";
/** Tries of a conditional state change that lost to another writer. */
const TRIES = 5;

/**
 * Queue metadata and stored access policies as properties of the queue's catalogue entity (JSON
 * text): created with the queue, deleted with it in the same entity write. Changes are
 * ETag-conditional, so one never lands on a queue deleted and created again meanwhile.
 */
export class TableQueueState implements StateBackend {
  constructor(private readonly table: () => Table) {}

  private async entry(name: string, call: CallOptions): Promise<Record<string, unknown> & { etag: string }> {
    try {
      return (await this.table().getEntity(CATALOGUE_PARTITION, name, call)) as Record<string, unknown> & {
        etag: string;
      };
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound", "TableNotFound")) throw queueNotFound(name, err);
      throw err;
    }
  }

  async getState(name: string, _part: StatePart, call: CallOptions): Promise<StoredResourceState> {
    const entity = await this.entry(name, call);
    return {
      metadata: decodeMetadata(entity.metadata),
      policies:
        typeof entity.policies === "string" ? (JSON.parse(entity.policies) as StoredAccessPolicy[]) : [],
    };
  }

  async setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void> {
    const properties =
      "metadata" in change
        ? { metadata: encodeMetadata(change.metadata) }
        : { policies: JSON.stringify(change.access.policies) };
    for (let attempt = 1; ; attempt++) {
      const { etag } = await this.entry(name, call);
      try {
        await this.table().updateEntity(
          { partitionKey: CATALOGUE_PARTITION, rowKey: name, ...properties },
          "Merge",
          { ...call, etag },
        );
        return;
      } catch (err) {
        if (isTableKitError(err, "ResourceNotFound")) throw queueNotFound(name, err);
        if (!isTableKitError(err, "UpdateConditionNotSatisfied") || attempt >= TRIES) throw err;
      }
    }
  }

  async getServiceProperties(call: CallOptions): Promise<StoredServiceProperties> {
    try {
      const entity = await this.table().getEntity(CATALOGUE_PARTITION, PROPERTIES_ROW, call);
      return JSON.parse(entity.properties as string) as StoredServiceProperties;
    } catch (err) {
      if (isTableKitError(err, "ResourceNotFound", "TableNotFound")) return {};
      throw err;
    }
  }

  async setServiceProperties(properties: StoredServiceProperties, call: CallOptions): Promise<void> {
    const write = () =>
      this.table().upsertEntity(
        { partitionKey: CATALOGUE_PARTITION, rowKey: PROPERTIES_ROW, properties: JSON.stringify(properties) },
        "Replace",
        call,
      );
    try {
      await write();
    } catch (err) {
      if (!isTableKitError(err, "TableNotFound")) throw err;
      await this.table().createTable({ ...call });
      await write();
    }
  }
}

/** Metadata as JSON pairs: names keep their case, and none is special. */
export function encodeMetadata(metadata: Readonly<ResourceMetadata>): string {
  return JSON.stringify(Object.entries(metadata));
}

function decodeMetadata(text: unknown): ResourceMetadata {
  const out: ResourceMetadata = {};
  if (typeof text !== "string") return out;
  for (const [name, value] of JSON.parse(text) as [string, string][]) {
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
