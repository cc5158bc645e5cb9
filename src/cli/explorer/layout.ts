/** The explorer's page frame, and the pieces every page shares. */
import type { TypedValue } from "../../model/index.js";
import type { CompiledModel } from "../../patterns/index.js";
import { valueText } from "../formats/value-text.js";
import { href, html, type SafeHtml } from "./html.js";
import { readKey } from "./key-decoder.js";

/** What every page is rendered with. */
export interface PageContext {
  /** The path prefix the explorer is served under ("" standalone, "/_explorer" under serve). */
  readonly base: string;
  /** The store as shown: its scheme and, for local files, the path (never credentials). */
  readonly storeLabel: string;
  readonly writable: boolean;
  /** Sent back with every form (the access token: a cross-site form cannot know it). */
  readonly csrf: string;
  readonly models: readonly CompiledModel[];
}

/** What a route answers: a page (with its status), where to go next, or a refusal in plain text. */
export type RouteAnswer =
  | { page: SafeHtml; status?: number }
  | { redirect: string }
  | { refused: string; status: number };

/** A whole page: header with the store and the table, then the body. */
export function page(ctx: PageContext, title: string, body: SafeHtml, table?: string): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · tablekit explorer</title>
<link rel="stylesheet" href="${ctx.base}/assets/explorer.css"><script src="${ctx.base}/assets/explorer.js" defer></script></head>
<body><header><a class="brand" href="${ctx.base}/">tablekit explorer</a>
<span class="store">${ctx.storeLabel}</span>${ctx.writable ? "" : html`<span class="badge">read-only</span>`}
${
  table
    ? html`<nav><a href="${href(`${ctx.base}/t/${encodeURIComponent(table)}`)}">${table}</a>
<a href="${href(`${ctx.base}/t/${encodeURIComponent(table)}/advise`)}" data-test="advise-link">advisor</a></nav>`
    : ""
}
</header><main>${body}</main></body></html>`;
}

/** A key cell: the key, and below it each reading of the codec that made it. */
export function keyCell(ctx: PageContext, key: string, kind: "PartitionKey" | "RowKey"): SafeHtml {
  const readings = readKey(key, kind, ctx.models);
  return html`<span class="key">${key}</span>${readings.map(
    (r) => html`<span class="decoded" title="decoded by ${r.codec}"><b>${r.codec}</b> ${r.value}</span>`,
  )}`;
}

/** A typed value cell: the value and its EDM type. */
export function valueCell(tv: TypedValue | undefined): SafeHtml {
  if (!tv) return html``;
  // A DateTime stays on one line: the browser would otherwise break it at its hyphens.
  const cls = tv.type === "DateTime" ? "value time" : "value";
  return html`<span class="${cls}">${valueText(tv)}</span><span class="type">${tv.type}</span>`;
}

/** An error box: the code, and the message in a pre (filter errors carry a caret line). */
export function errorBox(code: string, message: string, testId = "error", position?: number): SafeHtml {
  return html`<div class="error" role="alert" data-test="${testId}"${position === undefined ? "" : html` data-position="${position}"`}><b>${code}</b><pre>${message}</pre></div>`;
}

/** The store as the header shows it: `file:` paths and `memory:`, only the scheme of cloud URLs. */
export function storeLabel(url: string): string {
  const scheme = /^[a-z0-9]+:/i.exec(url)?.[0] ?? url;
  return scheme === "file:" || scheme === "memory:" ? url : `${scheme} store`;
}
