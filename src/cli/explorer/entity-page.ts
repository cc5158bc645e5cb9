/** One entity: each property with its EDM type, and (when writable) a typed form to edit, create or delete it. */
import { EDM_TYPES, type TypedValue } from "../../model/index.js";
import { valueText } from "../formats/value-text.js";
import { href, html, type SafeHtml } from "./html.js";
import { errorBox, keyCell, type PageContext, page } from "./layout.js";

/** A property as the form holds it: name, type, text. */
export interface PropertyField {
  readonly name: string;
  readonly type: string;
  readonly value: string;
}

export interface EntityView {
  readonly table: string;
  /** Absent for a new entity. */
  readonly existing?: {
    readonly partitionKey: string;
    readonly rowKey: string;
    readonly etag: string;
    readonly timestamp?: string;
  };
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly properties: readonly PropertyField[];
  readonly error?: { code: string; message: string };
  readonly notice?: string;
}

/** The form fields of stored properties. */
export function propertyFields(properties: ReadonlyMap<string, TypedValue>): PropertyField[] {
  return [...properties].map(([name, tv]) => ({ name, type: tv.type, value: valueText(tv) }));
}

const BLANK_ROWS = 3;

export function entityPage(ctx: PageContext, v: EntityView): SafeHtml {
  const base = `${ctx.base}/t/${encodeURIComponent(v.table)}`;
  const e = v.existing;
  const rows = [
    ...v.properties,
    ...Array.from({ length: ctx.writable ? BLANK_ROWS : 0 }, () => ({ name: "", type: "String", value: "" })),
  ];
  const view = html`<table class="properties" data-test="properties"><thead><tr><th>Property</th><th>Type</th><th>Value</th></tr></thead><tbody>
<tr><td>PartitionKey</td><td class="type">String</td><td>${keyCell(ctx, v.partitionKey, "PartitionKey")}</td></tr>
<tr><td>RowKey</td><td class="type">String</td><td>${keyCell(ctx, v.rowKey, "RowKey")}</td></tr>
${e?.timestamp ? html`<tr><td>Timestamp</td><td class="type">DateTime</td><td class="time">${e.timestamp}</td></tr>` : ""}
${v.properties.map((p) => html`<tr><td>${p.name}</td><td class="type">${p.type}</td><td class="value">${p.value}</td></tr>`)}
</tbody></table>${e ? html`<p class="etag">ETag <code data-test="etag">${e.etag}</code></p>` : ""}`;
  const form = ctx.writable
    ? html`<form method="post" action="${base}/e" class="edit" data-test="edit-form">
<input type="hidden" name="csrf" value="${ctx.csrf}">
${e ? html`<input type="hidden" name="etag" value="${e.etag}"><input type="hidden" name="pk" value="${e.partitionKey}"><input type="hidden" name="rk" value="${e.rowKey}">` : html`<label>PartitionKey <input name="pk" value="${v.partitionKey}" data-test="new-pk"></label> <label>RowKey <input name="rk" value="${v.rowKey}" data-test="new-rk"></label>`}
<table class="fields"><thead><tr><th>Property</th><th>Type</th><th>Value</th></tr></thead><tbody data-test="fields">
${rows.map(
  (p) =>
    html`<tr><td><input name="name" value="${p.name}"></td><td><select name="type">${EDM_TYPES.map(
      (t) => html`<option${t === p.type ? html` selected` : ""}>${t}</option>`,
    )}</select></td><td><input name="value" value="${p.value}" size="50"></td></tr>`,
)}</tbody></table>
<p>Leave a name empty to drop that property. Values are written as their type's text (ISO 8601 for DateTime, base64 for Binary).</p>
<button type="submit" name="action" value="${e ? "save" : "create"}" data-test="save">${e ? "Save (replace, If-Match)" : "Create"}</button>
${e ? html`<button type="submit" name="action" value="delete" class="danger" data-test="delete">Delete (If-Match)</button>` : ""}
</form>`
    : "";
  const body = html`<h1>${e ? "Entity" : "New entity"} <small><a href="${href(base, { pk: v.partitionKey })}">${v.table}</a></small></h1>
${v.notice ? html`<p class="notice" data-test="notice">${v.notice}</p>` : ""}
${v.error ? errorBox(v.error.code, v.error.message) : ""}
${e ? view : ""}${form}`;
  return page(ctx, e ? `${v.partitionKey} / ${v.rowKey}` : "New entity", body, v.table);
}
