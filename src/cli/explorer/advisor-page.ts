/** The advisor's findings for a table, as cards. */
import type { AdvisorReport } from "../../advisor/index.js";
import { html, type SafeHtml } from "./html.js";
import { type PageContext, page } from "./layout.js";

export function advisorPage(ctx: PageContext, report: AdvisorReport): SafeHtml {
  const read = report.read!;
  const body = html`<h1>Advisor <small>${report.subject}</small></h1>
<p class="coverage">Read ${read.entities} entities in ${read.partitions} partitions${read.complete && read.partialPartitions === 0 ? " (all of them)" : " (a bounded sample)"}.</p>
${report.findings.length === 0 ? html`<p class="clean" data-test="no-findings">No findings: the keys follow the catalogue.</p>` : ""}
<div data-test="findings">${report.findings.map(
    (f) => html`<article class="finding ${f.severity}" data-id="${f.id}">
<h2><span class="severity">${f.severity}</span> <code>${f.id}</code> ${f.title}</h2>
<p class="subject">${f.subject} · ${f.count}</p>
<p>${f.message}</p>
${f.examples.length > 0 ? html`<ul class="examples">${f.examples.map((e) => html`<li><code>${e}</code></li>`)}</ul>` : ""}
<p class="fix"><b>Fix:</b> ${f.pattern} <span class="docs">docs/${f.docs}</span></p>
<p class="advice">${f.advice}</p></article>`,
  )}</div>`;
  return page(ctx, `Advisor · ${report.subject}`, body, report.subject);
}
