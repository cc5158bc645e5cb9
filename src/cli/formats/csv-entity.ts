/**
 * Entities as typed CSV. The header names each column; a property column is `Name` for strings
 * and `Name@Edm.<Type>` for every other type, so each cell's type is exact. A property that holds
 * different types in different rows gets one column per type. `PartitionKey` and `RowKey` are
 * required; `Timestamp` is written by export and ignored by import.
 *
 *   PartitionKey,RowKey,Timestamp,Name,Age@Edm.Int32,Id@Edm.Int64,Born@Edm.DateTime
 *   staff,0001,2026-01-01T00:00:00.0000000Z,Ada,36,9007199254740993,1815-12-10T00:00:00.0000000Z
 *
 * An unquoted empty cell means the row lacks that property; `""` is the empty string.
 */
import { type EdmType, TableKitError, type TypedValue } from "../../model/index.js";
import type { CsvRecord } from "./csv.js";
import { csvLine } from "./csv.js";
import type { EntityRow } from "./entity-row.js";
import { parseValueText, requireEdmType, valueText } from "./value-text.js";

/** A property column: a property name and the one type its cells hold. */
export interface PropertyColumn {
  readonly name: string;
  readonly type: EdmType;
}

const SYSTEM_COLUMNS = ["PartitionKey", "RowKey", "Timestamp"] as const;

/** The header text of a property column. */
export function columnHeader(column: PropertyColumn): string {
  return column.type === "String" ? column.name : `${column.name}@Edm.${column.type}`;
}

/** Collects the property columns of rows, in first-seen order (export's first pass). */
export class ColumnCollector {
  private readonly seen = new Map<string, PropertyColumn>();

  add(row: EntityRow): void {
    for (const [name, tv] of row.properties) {
      const id = `${name}@${tv.type}`;
      if (!this.seen.has(id)) this.seen.set(id, { name, type: tv.type });
    }
  }

  get columns(): PropertyColumn[] {
    return [...this.seen.values()];
  }
}

/** The header line for the given property columns. */
export function csvHeader(columns: readonly PropertyColumn[]): string {
  return csvLine([...SYSTEM_COLUMNS, ...columns.map(columnHeader)]);
}

/** One row as a CSV line under the header `csvHeader(columns)`. */
export function csvRow(row: EntityRow, columns: readonly PropertyColumn[]): string {
  const cells = columns.map((c) => {
    const tv = row.properties.get(c.name);
    return tv && tv.type === c.type ? valueText(tv) : undefined;
  });
  return csvLine([row.partitionKey, row.rowKey, row.timestamp, ...cells]);
}

/** What a CSV header says about its columns, for reading the records under it. */
export interface CsvLayout {
  readonly columns: readonly (PropertyColumn | "PartitionKey" | "RowKey" | "Timestamp")[];
}

/** Reads a header record; throws InvalidInput for a missing key column or a bad annotation. */
export function parseCsvHeader(record: CsvRecord): CsvLayout {
  const seen = new Set<string>();
  const columns = record.fields.map(({ text }) => {
    if (seen.has(text))
      throw new TableKitError("InvalidInput", `column '${text}' appears twice in the header`);
    seen.add(text);
    if ((SYSTEM_COLUMNS as readonly string[]).includes(text)) return text as (typeof SYSTEM_COLUMNS)[number];
    const at = text.indexOf("@");
    if (at < 0) return { name: text, type: "String" as const };
    return { name: text.slice(0, at), type: requireEdmType(text.slice(at + 1), `column '${text}'`) };
  });
  for (const key of ["PartitionKey", "RowKey"]) {
    if (!seen.has(key)) throw new TableKitError("InvalidInput", `the header has no ${key} column`);
  }
  return { columns };
}

/** Reads one record under a header; throws InvalidInput / InvalidValueType for a bad cell. */
export function parseCsvRow(record: CsvRecord, layout: CsvLayout): EntityRow {
  if (record.fields.length !== layout.columns.length) {
    throw new TableKitError(
      "InvalidInput",
      `expected ${layout.columns.length} fields as in the header, found ${record.fields.length}`,
    );
  }
  let partitionKey = "";
  let rowKey = "";
  const properties = new Map<string, TypedValue>();
  layout.columns.forEach((column, i) => {
    const field = record.fields[i]!;
    if (column === "PartitionKey") partitionKey = field.text;
    else if (column === "RowKey") rowKey = field.text;
    else if (column !== "Timestamp" && (field.quoted || field.text !== "")) {
      if (properties.has(column.name)) {
        throw new TableKitError("InvalidInput", `property '${column.name}' has values in two columns`);
      }
      properties.set(column.name, parseValueText(column.name, column.type, field.text));
    }
  });
  return { partitionKey, rowKey, properties };
}
