/** Writes entities as a table, typed JSON, NDJSON or CSV. */
import { ColumnCollector, csvHeader, csvRow } from "../formats/csv-entity.js";
import type { EntityRow } from "../formats/entity-row.js";
import { encodeTypedJson } from "../formats/typed-json.js";
import { valueText } from "../formats/value-text.js";
import type { Channel } from "./terminal.js";
import { writeTextTable } from "./text-table.js";

export const OUTPUT_FORMATS = ["table", "json", "ndjson", "csv"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Receives rows a page at a time; `end()` finishes the output (tables and CSV print there). */
export interface EntityWriter {
  write(rows: readonly EntityRow[]): void;
  end(): void;
}

/** A writer for `format`. NDJSON and JSON stream; table and CSV need every row to pick columns. */
export function entityWriter(format: OutputFormat, out: Channel): EntityWriter {
  switch (format) {
    case "ndjson":
      return {
        write: (rows) => {
          for (const r of rows) out.line(encodeTypedJson(r, { etag: true }));
        },
        end: () => {},
      };
    case "json": {
      // An array with one entity per line: valid JSON that still reads (and greps) line by line.
      let first = true;
      return {
        write: (rows) => {
          for (const r of rows) {
            out.write(`${first ? "[\n" : ",\n"}  ${encodeTypedJson(r, { etag: true })}`);
            first = false;
          }
        },
        end: () => out.line(first ? "[]" : "\n]"),
      };
    }
    case "csv":
      return buffered((rows) => {
        const collector = new ColumnCollector();
        for (const r of rows) collector.add(r);
        out.line(csvHeader(collector.columns));
        for (const r of rows) out.line(csvRow(r, collector.columns));
      });
    case "table":
      return buffered((rows) => writeEntityTable(out, rows));
  }
}

function buffered(flush: (rows: EntityRow[]) => void): EntityWriter {
  const all: EntityRow[] = [];
  return { write: (rows) => void all.push(...rows), end: () => flush(all) };
}

/** Entities as a table: keys first, then every property any row has, in first-seen order. */
export function writeEntityTable(out: Channel, rows: readonly EntityRow[]): void {
  const names: string[] = [];
  const known = new Set<string>();
  for (const r of rows) {
    for (const name of r.properties.keys()) {
      if (!known.has(name)) names.push(name);
      known.add(name);
    }
  }
  const cells = rows.map((r) => [
    r.partitionKey,
    r.rowKey,
    ...names.map((n) => {
      const tv = r.properties.get(n);
      return tv ? valueText(tv) : "";
    }),
  ]);
  writeTextTable(out, ["PartitionKey", "RowKey", ...names], cells);
  out.line(out.style.dim(`${rows.length} ${rows.length === 1 ? "entity" : "entities"}`));
}

/** One entity, vertically: each property with its EDM type and value. */
export function writeEntityCard(out: Channel, row: EntityRow): void {
  const lines: string[][] = [
    ["PartitionKey", "String", row.partitionKey],
    ["RowKey", "String", row.rowKey],
  ];
  if (row.timestamp !== undefined) lines.push(["Timestamp", "DateTime", row.timestamp]);
  for (const [name, tv] of row.properties) lines.push([name, tv.type, valueText(tv)]);
  writeTextTable(out, ["Property", "Type", "Value"], lines, { maxCellWidth: 200 });
  if (row.etag !== undefined) out.line(out.style.dim(`etag ${row.etag}`));
}
