/** The table list, and a table's partitions and entities in key order, a page at a time. */
import type { EntityRow } from "../formats/entity-row.js";
import { href, html, type SafeHtml } from "./html.js";
import { errorBox, keyCell, type PageContext, page, valueCell } from "./layout.js";

export function tablesPage(ctx: PageContext, tables: readonly string[]): SafeHtml {
  const body = html`<h1>Tables</h1>
${tables.length === 0 ? html`<p class="empty">This store has no tables.</p>` : ""}
<ul class="tables" data-test="tables">${tables.map(
    (t) => html`<li><a href="${href(`${ctx.base}/t/${encodeURIComponent(t)}`)}">${t}</a></li>`,
  )}</ul>`;
  return page(ctx, "Tables", body);
}

/** What the browse page shows. */
export interface BrowseView {
  readonly table: string;
  readonly filter: string;
  readonly partition: string;
  readonly pageToken: string | undefined;
  readonly partitions: readonly string[];
  /** The partition the list continues after, when there are more. */
  readonly morePartitionsAfter: string | undefined;
  readonly rows: readonly EntityRow[];
  readonly nextToken: string | undefined;
  readonly error?: { code: string; message: string; position?: number };
}

export function browsePage(ctx: PageContext, v: BrowseView): SafeHtml {
  const base = `${ctx.base}/t/${encodeURIComponent(v.table)}`;
  const query = { filter: v.filter, pk: v.partition };
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of v.rows) {
    for (const name of r.properties.keys()) {
      if (!seen.has(name)) columns.push(name);
      seen.add(name);
    }
  }
  const body = html`<h1>${v.table}</h1>
<div class="browse"><aside><h2>Partitions</h2><ul data-test="partitions">
<li><a href="${href(base, { filter: v.filter })}" class="${v.partition === "" ? "current" : ""}">(all)</a></li>
${v.partitions.map(
  (p) =>
    html`<li><a href="${href(base, { pk: p, filter: v.filter })}" class="${p === v.partition ? "current" : ""}">${keyCell(ctx, p, "PartitionKey")}</a></li>`,
)}</ul>${
    v.morePartitionsAfter !== undefined
      ? html`<a class="more" href="${href(base, { ...query, after: v.morePartitionsAfter })}">more partitions</a>`
      : ""
  }</aside>
<section>
<form method="get" action="${base}" class="filter" data-test="filter-form">
<input type="hidden" name="pk" value="${v.partition}">
<label>$filter <input name="filter" value="${v.filter}" size="60" placeholder="Age gt 30 and Name eq 'Ada'" data-test="filter-input" autocomplete="off"></label>
<button type="submit">Query</button>
${v.partition ? html`<span class="chip">PartitionKey eq ${v.partition}</span>` : ""}
</form>
${v.error ? errorBox(v.error.code, v.error.message, "filter-error", v.error.position) : ""}
<p class="actions"><a href="${href(`${base}/export`, { ...query, format: "ndjson" })}" data-test="export-ndjson">export NDJSON</a>
<a href="${href(`${base}/export`, { ...query, format: "csv" })}" data-test="export-csv">export CSV</a>
${ctx.writable ? html`<a href="${href(`${base}/new`, { pk: v.partition })}" data-test="new-entity">new entity</a>` : ""}</p>
<table class="entities" data-test="entities"><thead><tr><th>PartitionKey</th><th>RowKey</th>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
<tbody>${v.rows.map(
    (r) => html`<tr><td>${keyCell(ctx, r.partitionKey, "PartitionKey")}</td>
<td><a href="${href(`${base}/e`, { pk: r.partitionKey, rk: r.rowKey })}">${keyCell(ctx, r.rowKey, "RowKey")}</a></td>
${columns.map((c) => html`<td>${valueCell(r.properties.get(c))}</td>`)}</tr>`,
  )}</tbody></table>
<p class="paging">${v.rows.length} ${v.rows.length === 1 ? "entity" : "entities"} on this page
${v.pageToken ? html`<a href="${href(base, query)}">first page</a>` : ""}
${v.nextToken ? html`<a href="${href(base, { ...query, page: v.nextToken })}" data-test="next-page">next page</a>` : ""}</p>
</section></div>`;
  return page(ctx, v.table, body, v.table);
}
