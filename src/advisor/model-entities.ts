/**
 * Entities of the models a table holds: each must decode as its model, and its secondary-index
 * copies (seed 001's intra-partition index) against their entities: in each partition, every entity of the model should have one copy per index under the key its
 * values give, holding the same values; copies nothing points to are orphans. Partitions are
 * checked whole, so memory is one partition's keys and digests.
 */
import { createHash } from "node:crypto";
import { TableKitError, type TypedValue } from "../model/index.js";
import type { CompiledModel } from "../patterns/entity-models/define-model.js";
import { fromEntity } from "../patterns/shared/schema/schema.js";
import { type Collector, Examples, plural, type ScannedEntity } from "./collector.js";
import { type AdvisorFinding, finding } from "./findings.js";
import { showKey } from "./key-shapes.js";

interface Expected {
  readonly digest: string;
  readonly owner: string;
}

export class ModelEntities implements Collector {
  private expected = new Map<string, Expected>();
  private copies = new Map<string, string>();
  private missing = 0;
  private stale = 0;
  private orphans = 0;
  private undecodable = 0;
  private skipped = 0;
  private readonly examples = new Examples();
  private readonly undecodableExamples = new Examples();
  constructor(private readonly models: readonly CompiledModel[]) {}

  add(entity: ScannedEntity): void {
    for (const model of this.models) {
      const ix = model.indexes.find((i) => entity.rowKey.startsWith(i.key.prefix));
      if (ix) {
        this.copies.set(entity.rowKey, digest(entity.properties, ix.holds));
        return;
      }
      if (!entity.rowKey.startsWith(model.rowKey.prefix)) continue;
      if (model.typeProperty && entity.properties.get(model.typeProperty)?.value !== model.entityType)
        continue;
      let values: Record<string, unknown>;
      try {
        values = fromEntity(model.fields, entity.result as Record<string, unknown>);
      } catch (err) {
        if (!(err instanceof TableKitError)) throw err;
        this.undecodable++;
        this.undecodableExamples.add(
          `${showKey(entity.partitionKey)} / ${showKey(entity.rowKey)}: ${err.message}`,
        );
        return;
      }
      for (const index of model.indexes) {
        try {
          this.expected.set(index.key.encode(values), {
            digest: digest(entity.properties, index.holds),
            owner: entity.rowKey,
          });
        } catch (err) {
          if (!(err instanceof TableKitError)) throw err;
        }
      }
      return;
    }
  }

  endPartition(partitionKey: string, truncated: boolean): void {
    if (truncated) this.skipped++;
    else {
      const where = (rowKey: string) => `${showKey(partitionKey)} / ${showKey(rowKey)}`;
      for (const [rowKey, want] of this.expected) {
        const have = this.copies.get(rowKey);
        if (have === undefined) {
          this.missing++;
          this.examples.add(`${where(rowKey)}: missing (entity ${showKey(want.owner)})`);
        } else if (have !== want.digest) {
          this.stale++;
          this.examples.add(`${where(rowKey)}: differs from entity ${showKey(want.owner)}`);
        }
      }
      for (const rowKey of this.copies.keys()) {
        if (!this.expected.has(rowKey)) {
          this.orphans++;
          this.examples.add(`${where(rowKey)}: no entity has this index key`);
        }
      }
    }
    this.expected = new Map();
    this.copies = new Map();
  }

  findings(): AdvisorFinding[] {
    const out: AdvisorFinding[] = [];
    const bad = this.missing + this.stale + this.orphans;
    if (bad > 0) {
      const kinds = [
        this.missing && `${plural(this.missing, "copy", "copies")} missing`,
        this.stale && `${plural(this.stale, "copy", "copies")} holding other values than their entity`,
        this.orphans && plural(this.orphans, "orphan copy", "orphan copies"),
      ].filter((k): k is string => typeof k === "string");
      const skipped =
        this.skipped > 0 ? ` (${plural(this.skipped, "partition")} read only in part were not checked)` : "";
      out.push(
        finding("index-copy-mismatch", "error", {
          subject: `index copies of ${this.models.map((m) => m.entityType ?? m.table).join(", ")}`,
          count: bad,
          message: `${kinds.join(", ")}${skipped}.`,
          examples: this.examples.list,
        }),
      );
    }
    if (this.undecodable > 0) {
      out.push(
        finding("model-field-mismatch", "error", {
          subject: `entities of ${this.models.map((m) => m.entityType ?? m.table).join(", ")}`,
          count: this.undecodable,
          message: `${plural(this.undecodable, "entity", "entities")} under the model's keys do not decode as the model.`,
          examples: this.undecodableExamples.list,
        }),
      );
    }
    return out;
  }
}

/** A digest of the values of the fields a copy holds (type and value, by name). */
function digest(properties: ReadonlyMap<string, TypedValue>, holds: ReadonlySet<string>): string {
  const parts: string[] = [];
  for (const name of [...holds].sort()) {
    const tv = properties.get(name);
    if (!tv) continue;
    const value =
      tv.type === "Binary"
        ? Buffer.from(tv.value).toString("base64")
        : tv.type === "DateTime"
          ? tv.value.ticks.toString()
          : Object.is(tv.value, -0)
            ? "-0"
            : String(tv.value);
    parts.push(`${name}\u0000${tv.type}\u0000${value}`);
  }
  return createHash("sha1").update(parts.join("\u0001")).digest("base64");
}
