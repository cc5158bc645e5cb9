/** The store's blob containers, and a container's blobs one level below a prefix, with downloads. */
import { href, html, type SafeHtml } from "./html.js";
import { errorBox, type PageContext, page } from "./layout.js";
import { timeText } from "./queue-page.js";

export function containersPage(ctx: PageContext, names: readonly string[]): SafeHtml {
  const body = html`<h1>Blob containers</h1>
${names.length === 0 ? html`<p class="empty">This store has no blob containers.</p>` : ""}
<ul class="tables" data-test="containers">${names.map(
    (c) => html`<li><a href="${href(`${ctx.base}/b/${encodeURIComponent(c)}`)}">${c}</a></li>`,
  )}</ul>`;
  return page(ctx, "Blob containers", body);
}

/** One listing: the virtual directories and blobs directly below `prefix` (delimiter `/`). */
export interface BlobListView {
  readonly container: string;
  readonly prefix: string;
  readonly directories: readonly string[];
  readonly blobs: readonly { name: string; size: number; modified: Date; type: string }[];
  readonly more: boolean;
  readonly notice?: string;
  readonly error?: { code: string; message: string };
}

export function blobsPage(ctx: PageContext, v: BlobListView): SafeHtml {
  const base = `${ctx.base}/b/${encodeURIComponent(v.container)}`;
  const up = v.prefix.replace(/[^/]*\/$/, "");
  const body = html`<p class="back"><a href="${ctx.base}/b" data-test="back-to-containers">← blob containers</a></p>
<h1>${v.container} <small>${v.prefix}</small></h1>
<form method="get" action="${base}" class="filter" data-test="prefix-form">
<label>Prefix <input name="prefix" value="${v.prefix}" size="40" placeholder="logs/2026/" data-test="prefix-input" autocomplete="off"></label>
<button type="submit">List</button></form>
<table class="entities" data-test="blobs"><thead><tr><th>Name</th><th>Size</th><th>Modified</th><th>Type</th></tr></thead><tbody>
${v.prefix ? html`<tr><td><a href="${href(base, { prefix: up })}" data-test="up">..</a></td><td></td><td></td><td></td></tr>` : ""}
${v.directories.map((d) => html`<tr><td><a href="${href(base, { prefix: d })}" data-test="directory">${d}</a></td><td></td><td></td><td>directory</td></tr>`)}
${v.blobs.map(
  (b) =>
    html`<tr><td><a href="${href(`${base}/download`, { name: b.name })}" data-test="blob">${b.name}</a></td><td>${b.size.toLocaleString("en-US")} B</td><td class="time">${timeText(b.modified)}</td><td>${b.type}</td></tr>`,
)}</tbody></table>
${v.more ? html`<p class="empty">More below this prefix: narrow it to see them.</p>` : ""}
${v.notice ? html`<p class="notice" data-test="blob-notice">${v.notice}</p>` : ""}
${v.error ? errorBox(v.error.code, v.error.message, "blob-error") : ""}
${ctx.writable ? uploadForm(ctx, base, v.prefix) : ""}`;
  return page(ctx, v.container, body);
}

/** Upload a file to a path: a name ending in "/" (the listing's prefix by default) is a folder. */
function uploadForm(ctx: PageContext, base: string, prefix: string): SafeHtml {
  return html`<form method="post" action="${base}/upload" enctype="multipart/form-data" class="upload" data-test="upload">
<input type="hidden" name="csrf" value="${ctx.csrf}"><input type="hidden" name="prefix" value="${prefix}">
<label>Upload <input type="file" name="file" required data-test="upload-file"></label>
<label>to <input name="name" value="${prefix}" size="40" placeholder="folder/ or folder/name.ext" data-test="upload-name" autocomplete="off"></label>
<label><input type="checkbox" name="overwrite" value="1" data-test="upload-overwrite"> replace a blob of that name</label>
<button type="submit">Upload</button></form>`;
}
