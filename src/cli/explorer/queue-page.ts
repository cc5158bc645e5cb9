/** The store's queues: their names, and a queue's messages peeked (not received), with send and clear. */
import { DateTime } from "../../model/index.js";
import type { PeekedMessageItem } from "../../store/index.js";
import { href, html, type SafeHtml } from "./html.js";
import { errorBox, type PageContext, page } from "./layout.js";

export function queuesPage(ctx: PageContext, names: readonly string[]): SafeHtml {
  const body = html`<h1>Queues</h1>
${names.length === 0 ? html`<p class="empty">This store has no queues.</p>` : ""}
<ul class="tables" data-test="queues">${names.map(
    (q) => html`<li><a href="${href(`${ctx.base}/q/${encodeURIComponent(q)}`)}">${q}</a></li>`,
  )}</ul>`;
  return page(ctx, "Queues", body);
}

/** What a queue's page shows: up to 32 messages peeked, in delivery order, and the count. */
export interface QueueView {
  readonly queue: string;
  readonly count: number;
  readonly messages: readonly PeekedMessageItem[];
  readonly notice?: string;
  readonly error?: { code: string; message: string };
}

export function queuePage(ctx: PageContext, v: QueueView): SafeHtml {
  const action = (verb: string) => `${ctx.base}/q/${encodeURIComponent(v.queue)}/${verb}`;
  const body = html`<p class="back"><a href="${ctx.base}/q" data-test="back-to-queues">← queues</a></p>
<h1>${v.queue} <small data-test="queue-count">${v.count} ${v.count === 1 ? "message" : "messages"}</small></h1>
${v.notice ? html`<p class="notice" data-test="queue-notice">${v.notice}</p>` : ""}
${v.error ? errorBox(v.error.code, v.error.message, "queue-error") : ""}
<p class="empty">Peeked, not received: the messages stay as they are.</p>
<table class="entities" data-test="messages"><thead><tr><th>Id</th><th>Inserted</th><th>Expires</th><th>Dequeues</th><th>Text</th></tr></thead>
<tbody>${v.messages.map(
    (m) =>
      html`<tr><td class="key">${m.messageId}</td><td class="time" data-test="message-inserted">${timeText(m.insertedOn)}</td><td class="time">${timeText(m.expiresOn)}</td><td>${m.dequeueCount}</td><td class="value" data-test="message-text">${m.messageText}</td></tr>`,
  )}</tbody></table>
${
  ctx.writable
    ? html`<form method="post" action="${action("send")}" data-test="send-message"><input type="hidden" name="csrf" value="${ctx.csrf}">
<label>Send a message <textarea name="text" rows="2" cols="60" data-test="message-input"></textarea></label> <button type="submit">Send</button></form>
<form method="post" action="${action("clear")}" data-test="clear-queue"><input type="hidden" name="csrf" value="${ctx.csrf}">
<button type="submit" class="danger">Clear every message</button></form>`
    : ""
}`;
  return page(ctx, v.queue, body);
}

/** A time as the tables' DateTime cells show it: ISO 8601 with 7 fractional digits. */
export function timeText(date: Date): string {
  return DateTime.fromDate(date).toISOString();
}
