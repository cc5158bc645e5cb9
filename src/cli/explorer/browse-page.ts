/** The table list, and a table's partitions and entities in key order, a page at a time. */
import { EDM_TYPES } from "../../model/index.js";
import type { EntityRow } from "../formats/entity-row.js";
import { COMPARE_OPS } from "./browse-query.js";
import { href, html, type SafeHtml } from "./html.js";
import type { ImportOutcome } from "./import-route.js";
import { errorBox, keyCell, type PageContext, page, valueCell } from "./layout.js";

export function tablesPage(
  ctx: PageContext,
  tables: readonly string[],
  problem?: { code: string; message: string },
): SafeHtml {
  const body = html`<h1>Tables <small><a href="${ctx.base}/q" data-test="queues-link">queues</a> <a href="${ctx.base}/b" data-test="blobs-link">blobs</a></small></h1>
${problem ? errorBox(problem.code, problem.message, "table-error") : ""}
${tables.length === 0 ? html`<p class="empty">This store has no tables.</p>` : ""}
<ul class="tables" data-test="tables">${tables.map(
    (t) => html`<li><a href="${href(`${ctx.base}/t/${encodeURIComponent(t)}`)}">${t}</a></li>`,
  )}</ul>
${
  ctx.writable
    ? html`<form method="post" action="${ctx.base}/tables" class="create-table" data-test="create-table">
<input type="hidden" name="csrf" value="${ctx.csrf}">
<label>New table <input name="name" required pattern="[A-Za-z][A-Za-z0-9]{2,62}" placeholder="Orders" data-test="create-table-name" autocomplete="off"></label>
<button type="submit">Create</button></form>`
    : ""
}`;
  return page(ctx, "Tables", body);
}

/** Deleting a table asks for its name typed again: a table and all its entities go at once. */
function deleteTableForm(ctx: PageContext, table: string): SafeHtml {
  return html`<form method="post" action="${ctx.base}/t/${encodeURIComponent(table)}/delete" class="delete-table" data-test="delete-table">
<input type="hidden" name="csrf" value="${ctx.csrf}">
<label>Delete this table and every entity in it: type its name <input name="confirm" required data-test="delete-table-confirm" autocomplete="off"></label>
<button type="submit" class="danger">Delete table</button></form>`;
}

/** What the browse page shows. */
export interface BrowseView {
  readonly table: string;
  readonly filter: string;
  readonly partition: string;
  readonly pageToken: string | undefined;
  /** The tokens of the pages before this one, `~`-joined ("" on the first page). */
  readonly trail: string;
  readonly partitions: readonly string[];
  /** The partition the list continues after, when there are more. */
  readonly morePartitionsAfter: string | undefined;
  readonly rows: readonly EntityRow[];
  readonly nextToken: string | undefined;
  /** Why the query builder refused the last condition ("" when it did not). */
  readonly builderError: string;
  /** The matching entities, when the page was asked to count them. */
  readonly count?: { n: number; capped: boolean };
  /** The import just made: what it wrote, or the error that stopped it. */
  readonly imported?: ImportOutcome;
  readonly error?: { code: string; message: string; position?: number };
  /** Show tablekit's internal properties (`tablekit_tx`), hidden by default. */
  readonly internal?: boolean;
  /** Internal properties were left out of the rows shown. */
  readonly hidInternal?: boolean;
  /** Why a filter that matched nothing may have meant something else (a whole number against Doubles). */
  readonly hint?: string;
}

export function browsePage(ctx: PageContext, v: BrowseView): SafeHtml {
  const base = `${ctx.base}/t/${encodeURIComponent(v.table)}`;
  const query = { filter: v.filter, pk: v.partition, ...(v.internal ? { internal: "1" } : {}) };
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
<input type="hidden" name="pk" value="${v.partition}">${v.internal ? html`<input type="hidden" name="internal" value="1">` : ""}
<label>$filter <input name="filter" value="${v.filter}" size="60" placeholder="Age gt 30 and Name eq 'Ada'" data-test="filter-input" autocomplete="off"></label>
<button type="submit">Query</button>
${v.partition ? html`<span class="chip">PartitionKey eq ${v.partition}</span>` : ""}
</form>
${conditionBuilder(base, v, columnTypes(v.rows, columns))}
${v.builderError ? errorBox("Condition", v.builderError, "builder-error") : ""}
${v.error ? errorBox(v.error.code, v.error.message, "filter-error", v.error.position) : ""}
${v.hint ? html`<p class="notice" data-test="filter-hint">${v.hint}</p>` : ""}
${v.imported ? importResult(v.imported) : ""}
<p class="actions"><a href="${href(`${base}/export`, { ...query, format: "ndjson" })}" data-test="export-ndjson">export NDJSON</a>
<a href="${href(`${base}/export`, { ...query, format: "csv" })}" data-test="export-csv">export CSV</a>
${ctx.writable ? html`<a href="${href(`${base}/new`, { pk: v.partition })}" data-test="new-entity">new entity</a>` : ""}</p>
<div class="grid" data-test="grid"><table class="entities" data-test="entities"><thead><tr><th class="pk">PartitionKey</th><th class="rk">RowKey</th>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
<tbody>${v.rows.map(
    (r) => html`<tr><td class="pk">${keyCell(ctx, r.partitionKey, "PartitionKey")}</td>
<td class="rk"><a href="${href(`${base}/e`, { pk: r.partitionKey, rk: r.rowKey })}">${keyCell(ctx, r.rowKey, "RowKey")}</a></td>
${columns.map((c) => html`<td>${valueCell(r.properties.get(c))}</td>`)}</tr>`,
  )}</tbody></table></div>
<p class="paging" data-test="paging">${v.rows.length} ${v.rows.length === 1 ? "entity" : "entities"} on this page
${v.hidInternal ? html`<a href="${href(base, { ...query, internal: "1" })}" data-test="show-internal">show tablekit's internal properties</a>` : ""}
${v.internal ? html`<a href="${href(base, { filter: v.filter, pk: v.partition })}" data-test="hide-internal">hide tablekit's internal properties</a>` : ""}
${v.pageToken ? html`<a href="${href(base, query)}">first page</a>` : ""}
${v.pageToken ? html`<a href="${href(base, { ...query, ...previousPage(v.trail) })}" data-test="previous-page">previous page</a>` : ""}
${v.nextToken ? html`<a href="${href(base, { ...query, page: v.nextToken, trail: v.trail ? `${v.trail}~${v.pageToken}` : v.pageToken })}" data-test="next-page">next page</a>` : ""}
${
  v.count
    ? html`<span data-test="count">${v.count.capped ? "more than " : ""}${v.count.n.toLocaleString("en-US")} matching ${v.count.n === 1 ? "entity" : "entities"}</span>`
    : html`<a href="${href(base, { ...query, ...(v.pageToken ? { page: v.pageToken, trail: v.trail } : {}), count: "1" })}" data-test="count-link">count all</a>`
}</p>
${ctx.writable ? importForm(ctx, base) : ""}
${ctx.writable ? deleteTableForm(ctx, v.table) : ""}
</section></div>`;
  return page(ctx, v.table, body, v.table);
}

/** The query of the page before: the last token of the trail ("" is the first page), and the rest. */
function previousPage(trail: string): { page?: string; trail?: string } {
  const tokens = trail === "" ? [] : trail.split("~");
  const page = tokens.pop() ?? "";
  return { ...(page ? { page } : {}), ...(tokens.length > 0 ? { trail: tokens.join("~") } : {}) };
}

/** Each column's EDM type when every row shown that has it holds that one type. */
function columnTypes(
  rows: readonly EntityRow[],
  columns: readonly string[],
): Map<string, string | undefined> {
  const types = new Map<string, string | undefined>();
  for (const name of columns) {
    const seen = new Set(rows.flatMap((r) => r.properties.get(name)?.type ?? []));
    types.set(name, seen.size === 1 ? [...seen][0] : undefined);
  }
  return types;
}

/**
 * A form that adds `property op value` of a chosen type to the $filter, quoted by the server. The
 * property list offers the columns shown; picking one chooses the type its values have (the
 * script), so a Double column's `50` is written `50.0`.
 */
function conditionBuilder(
  base: string,
  v: BrowseView,
  types: ReadonlyMap<string, string | undefined>,
): SafeHtml {
  return html`<form method="get" action="${base}" class="builder" data-test="builder">
<input type="hidden" name="pk" value="${v.partition}"><input type="hidden" name="filter" value="${v.filter}">
<label>Add a condition <input name="add-prop" required placeholder="Property" size="14" data-test="builder-property" autocomplete="off" list="builder-properties"></label>
<datalist id="builder-properties">${[...types].map(([name, type]) => html`<option value="${name}" data-type="${type ?? ""}"></option>`)}</datalist>
<select name="add-op" data-test="builder-op">${COMPARE_OPS.map((op) => html`<option>${op}</option>`)}</select>
<select name="add-type" data-test="builder-type">${EDM_TYPES.map((t) => html`<option>${t}</option>`)}</select>
<input name="add-value" placeholder="value, as typed" size="24" data-test="builder-value" autocomplete="off">
<button type="submit">Add</button></form>`;
}

/** An NDJSON or typed CSV file into this table, with `tablekit import`'s options. */
function importForm(ctx: PageContext, base: string): SafeHtml {
  return html`<form method="post" action="${base}/import" enctype="multipart/form-data" class="import" data-test="import">
<input type="hidden" name="csrf" value="${ctx.csrf}">
<label>Import <input type="file" name="file" accept=".ndjson,.jsonl,.json,.csv" required data-test="import-file"></label>
<select name="format" data-test="import-format"><option value="">format from the extension</option><option value="ndjson">NDJSON</option><option value="csv">typed CSV</option></select>
<select name="mode" data-test="import-mode"><option value="replace">replace entities that exist</option><option value="merge">merge into entities that exist</option></select>
<label><input type="checkbox" name="check" value="1" data-test="import-check"> check only (write nothing)</label>
<button type="submit">Import</button></form>`;
}

/** What the import did, as `tablekit import` says it; a stopped import says what it wrote first. */
function importResult(r: ImportOutcome): SafeHtml {
  const entities = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "entity" : "entities"}`;
  if (r.error) {
    const before =
      r.check || r.entities === 0
        ? "Nothing was written."
        : `${entities(r.entities)} before it were written.`;
    return errorBox(r.error.code, `${r.file}: ${r.error.message}\n${before}`, "import-error");
  }
  return html`<p class="notice" data-test="import-notice">${
    r.check
      ? `Checked ${entities(r.entities)} in ${r.file}: the file is valid; nothing was written.`
      : `Imported ${entities(r.entities)} from ${r.file}.`
  }</p>`;
}
