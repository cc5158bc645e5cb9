/** The explorer's stylesheet and its one small script, served from memory (no build step). */

export const EXPLORER_CSS = `
:root { --fg: #1d2330; --muted: #667085; --line: #d8dde6; --accent: #2457c5; --bad: #b42318; --warn: #b54708; --bg: #f7f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 16px; align-items: center; padding: 10px 20px; background: #fff; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; color: var(--fg); text-decoration: none; }
header .store { color: var(--muted); font-family: ui-monospace, monospace; }
header nav { margin-left: auto; display: flex; gap: 14px; }
a { color: var(--accent); }
main { padding: 16px 20px; }
h1 small { font-weight: 400; color: var(--muted); font-size: 15px; }
.badge, .chip { background: #eef2f8; border: 1px solid var(--line); border-radius: 10px; padding: 1px 8px; font-size: 12px; }
.browse { display: grid; grid-template-columns: 240px 1fr; gap: 20px; }
aside ul { list-style: none; padding: 0; margin: 0; }
aside li a { display: block; padding: 4px 6px; border-radius: 4px; text-decoration: none; }
aside li a.current { background: #e3ebfb; }
table { border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #f0f2f5; font-weight: 600; }
.key { font-family: ui-monospace, monospace; }
.decoded { display: block; font-size: 12px; color: var(--muted); }
.decoded b { color: #3b6b2f; font-weight: 600; }
.type { font-size: 11px; color: var(--muted); margin-left: 6px; font-family: ui-monospace, monospace; }
td.type { margin: 0; }
.filter input[name=filter] { font-family: ui-monospace, monospace; padding: 4px 6px; }
.error { border: 1px solid var(--bad); background: #fef3f2; color: var(--bad); padding: 6px 10px; border-radius: 4px; margin: 8px 0; }
.error pre { margin: 4px 0 0; font-family: ui-monospace, monospace; white-space: pre-wrap; }
.notice { background: #ecfdf3; border: 1px solid #abefc6; padding: 6px 10px; border-radius: 4px; }
.actions a { margin-right: 12px; }
.finding { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--warn); padding: 6px 14px; margin: 10px 0; border-radius: 4px; }
.finding.error { border-left-color: var(--bad); }
.finding h2 { font-size: 15px; margin: 6px 0; }
.finding .severity { text-transform: uppercase; font-size: 11px; color: var(--muted); }
.finding .docs, .finding .subject { color: var(--muted); }
.clean { color: #067647; font-weight: 600; }
button { padding: 4px 12px; }
button.danger { color: var(--bad); }
.browse > section { min-width: 0; }
.grid { overflow: auto; max-height: 70vh; border: 1px solid var(--line); background: #fff; }
.grid table { border: 0; }
.grid thead th { position: sticky; top: 0; z-index: 1; }
.grid .pk, .grid .rk { position: sticky; background: #fff; z-index: 2; white-space: nowrap; }
.grid th.pk, .grid th.rk { background: #f0f2f5; z-index: 3; }
.grid .pk { left: 0; min-width: 160px; max-width: 160px; overflow: hidden; text-overflow: ellipsis; }
.grid .rk { left: 160px; min-width: 160px; box-shadow: 2px 0 0 var(--line); }
.create-table, .delete-table, .import, .upload { margin: 14px 0; }
.time { white-space: nowrap; }
.back { margin: 0 0 4px; }
`;

/** Confirms deletes, puts the cursor where a $filter error is, and types the builder's condition. */
export const EXPLORER_JS = `
document.addEventListener("DOMContentLoaded", () => {
  const input = document.querySelector("[data-test=filter-input]");
  const error = document.querySelector("[data-test=filter-error]");
  const at = error && Number(error.getAttribute("data-position"));
  if (input && error && Number.isInteger(at)) { input.focus(); input.setSelectionRange(at, at); }
  // The builder takes the type the grid shows for a column picked (or typed) as its property.
  const property = document.querySelector("[data-test=builder-property]");
  const type = document.querySelector("[data-test=builder-type]");
  if (property && type) {
    const follow = () => {
      for (const option of document.querySelectorAll("#builder-properties option")) {
        if (option.value === property.value && option.dataset.type) type.value = option.dataset.type;
      }
    };
    property.addEventListener("input", follow);
    property.addEventListener("change", follow);
  }
  for (const button of document.querySelectorAll("[data-test=delete]")) {
    button.addEventListener("click", (event) => { if (!confirm("Delete this entity?")) event.preventDefault(); });
  }
});
`;
