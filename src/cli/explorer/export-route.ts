/** A query exported as NDJSON or typed CSV, streamed a page at a time (the formats of `tablekit export`). */
import type { ServerResponse } from "node:http";
import type { Table } from "../../store/index.js";
import { ColumnCollector, csvHeader, csvRow } from "../formats/csv-entity.js";
import { rowFromResult } from "../formats/entity-row.js";
import { encodeTypedJson } from "../formats/typed-json.js";

export async function exportEntities(
  res: ServerResponse,
  table: Table,
  filter: string | undefined,
  format: "ndjson" | "csv",
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  const query = () => table.listEntities({ queryOptions: filter === undefined ? {} : { filter } });
  // CSV names its columns first: one pass to collect them (as `tablekit export` does).
  const collector = format === "csv" ? new ColumnCollector() : undefined;
  if (collector) for await (const e of query()) collector.add(rowFromResult(e));
  const pages = query().byPage();
  const first = await pages.next(); // a bad filter fails here, before the response starts
  res.writeHead(200, {
    ...headers,
    "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="${table.tableName}.${format}"`,
  });
  if (collector) res.write(`${csvHeader(collector.columns)}\n`);
  const write = (page: readonly Parameters<typeof rowFromResult>[0][]) => {
    for (const e of page) {
      const row = rowFromResult(e);
      res.write(`${collector ? csvRow(row, collector.columns) : encodeTypedJson(row)}\n`);
    }
  };
  if (!first.done) write(first.value);
  for await (const page of pages) write(page);
  res.end();
}
