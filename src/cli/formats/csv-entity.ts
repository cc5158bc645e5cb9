/**
 * Entities as typed CSV. The header names each column; a property column is `Name` for strings
 * and `Name@Edm.<Type>` for every other type, so each cell's type is exact. A property that holds
 * different types in different rows (Int32 in some, Double in others) gets one column, `Name@Edm`,
 * whose cells carry their own type (`Int32:5`, `Double:5`). `PartitionKey` and `RowKey` are
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

/** A property column: a property name and the one type its cells hold, or `PerCell` (each cell says). */
export interface PropertyColumn {
  readonly name: string;
  readonly type: EdmType | "PerCell";
}

const SYSTEM_COLUMNS = ["PartitionKey", "RowKey", "Timestamp"] as const;

/** The header text of a property column. */
export function columnHeader(column: PropertyColumn): string {
  if (column.type === "PerCell") return `${column.name}@Edm`;
  return column.type === "String" ? column.name : `${column.name}@Edm.${column.type}`;
}

/** Collects the property columns of rows, in first-seen order (export's first pass): one per name. */
export class ColumnCollector {
  private readonly seen = new Map<string, EdmType | "PerCell">();

  add(row: EntityRow): void {
    for (const [name, tv] of row.properties) {
      const type = this.seen.get(name);
      if (type === undefined) this.seen.set(name, tv.type);
      else if (type !== tv.type) this.seen.set(name, "PerCell");
    }
  }

  get columns(): PropertyColumn[] {
    return [...this.seen].map(([name, type]) => ({ name, type }));
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
    if (!tv) return undefined;
    if (c.type === "PerCell") return `${tv.type}:${valueText(tv)}`;
    if (tv.type === c.type) return valueText(tv);
    // The columns were chosen from an earlier read (an export's first pass, or its state file).
    throw new TableKitError(
      "InvalidInput",
      `property '${c.name}' of ${row.partitionKey}/${row.rowKey} is ${tv.type}, but its column holds ${c.type}: the table changed while exporting; export again with --restart`,
    );
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
    if (text.slice(at + 1) === "Edm") return { name: text.slice(0, at), type: "PerCell" as const };
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
      properties.set(column.name, cellValue(column, field.text));
    }
  });
  return { partitionKey, rowKey, properties };
}

/** A cell's value: typed by its column, or, in a `Name@Edm` column, by its own `Type:` prefix. */
function cellValue(column: PropertyColumn, text: string): TypedValue {
  if (column.type !== "PerCell") return parseValueText(column.name, column.type, text);
  const colon = text.indexOf(":");
  const where = `a cell of column '${column.name}@Edm'`;
  if (colon < 0)
    throw new TableKitError("InvalidInput", `${where} starts with its type, e.g. Int32:5 or Double:2.5`);
  const type = requireEdmType(`Edm.${text.slice(0, colon)}`, where);
  return parseValueText(column.name, type, text.slice(colon + 1));
}
