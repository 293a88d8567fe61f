import type { Distribution } from "../stats/distribution.js";
import { funnelSvg } from "./funnel-svg.js";
import { escapeHtml, jsonForScript } from "./html-escape.js";
import type { ReportData } from "./report-data.js";
import { REPORT_SCRIPT } from "./report-script.js";

const STYLE = `
:root { --fg: #1d2330; --muted: #5d6677; --line: #dde1e8; --bg: #f5f6f8; --card: #fff; --accent: #2f6fdb;
  --ok: #1f8a4c; --bad: #c8372d; --warn: #b7791f; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header.page { padding: 18px 28px 12px; background: #1d2330; color: #fff; }
header.page h1 { margin: 0 0 4px; font-size: 20px; font-weight: 600; }
header.page .sub { color: #b9c0cc; font-size: 13px; }
main { padding: 18px 28px 40px; max-width: 1500px; margin: 0 auto; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin-bottom: 18px; }
section h2 { margin: 0 0 10px; font-size: 16px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; background: #fbfcfd; }
.card .v { font-size: 20px; font-weight: 600; }
.card .k { color: var(--muted); font-size: 12px; }
.row2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 18px; }
@media (max-width: 1100px) { .row2 { grid-template-columns: 1fr; } }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.bar { background: #e7ebf2; border-radius: 3px; height: 10px; width: 140px; overflow: hidden; }
.bar > div { background: var(--accent); height: 100%; }
.funnel { max-width: 100%; height: auto; }
.funnel-label { font-size: 13px; fill: var(--fg); }
.funnel-count { font-size: 12px; fill: var(--muted); }
.funnel-track { fill: #eef1f5; }
.funnel-kept { fill: #5b8def; }
.funnel-accepted .funnel-kept { fill: var(--ok); }
.funnel-all .funnel-kept { fill: #8a94a6; }
.funnel-discarded { fill: var(--bad); }
.reasons-table td:first-child { white-space: nowrap; }
.note { color: var(--muted); font-size: 13px; margin: 6px 0 0; }
.browser { display: grid; grid-template-columns: 380px minmax(0, 1fr); gap: 14px; }
@media (max-width: 900px) { .browser { grid-template-columns: 1fr; } }
.filters { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 8px; align-items: center; }
.filters select, .filters input { font: inherit; padding: 4px 6px; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
.filters input { flex: 1; min-width: 120px; }
#list-count { color: var(--muted); font-size: 12px; }
#episode-list { max-height: 72vh; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.episode { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--line); background: #fff; padding: 7px 10px; cursor: pointer; font: inherit; color: inherit; }
.episode:hover { background: #f1f5fd; }
.episode.selected { background: #e3ecfc; box-shadow: inset 3px 0 0 var(--accent); }
.episode-head { display: flex; gap: 8px; align-items: center; font-size: 12px; color: var(--muted); }
.episode-index { font-weight: 600; color: var(--fg); }
.episode-text { margin-top: 2px; font-size: 13px; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; font-weight: 600; color: #fff; background: #8a94a6; }
.badge.accepted { background: var(--ok); } .badge.rejected { background: var(--bad); } .badge.error { background: var(--warn); }
#list-more { margin: 8px; }
#chat { border: 1px solid var(--line); border-radius: 6px; max-height: 80vh; overflow: auto; padding: 12px 14px; background: #fafbfc; min-height: 200px; }
#chat .placeholder { color: var(--muted); }
.chat-title { margin: 0 0 4px; font-size: 15px; }
.chat-meta { display: flex; gap: 12px; flex-wrap: wrap; color: var(--muted); font-size: 12px; margin-bottom: 10px; align-items: center; }
.chat-log { display: flex; flex-direction: column; gap: 8px; }
.msg { max-width: 86%; border-radius: 8px; padding: 7px 10px; border: 1px solid var(--line); background: #fff; }
.msg .who { font-size: 11px; color: var(--muted); margin-bottom: 2px; text-transform: none; }
.msg .text { white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: #e6efff; border-color: #c7d8fb; }
.msg.thought { font-style: italic; color: var(--muted); background: transparent; border-style: dashed; }
.msg.tool-call { background: #fff8e6; border-color: #f0dca8; }
.msg.tool-call .name { font-family: var(--mono); font-weight: 700; color: #7a4d00; }
.msg.tool-call .call-id { color: var(--muted); font-size: 11px; }
.msg.observation { background: #f2f7f2; border-color: #cfe3cf; }
.msg.observation.failed { background: #fdf0ef; border-color: #f1c6c2; }
.msg.observation summary { cursor: pointer; font-size: 12px; color: #2d5f2d; }
.msg.observation.failed summary { color: var(--bad); }
pre { margin: 4px 0 0; font: 12px/1.4 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
.msg.assistant { background: #fff; }
.msg.assistant.final { border-color: #b7dcc4; }
.msg.assistant.give-up { background: #fdf0ef; border-color: #f1c6c2; }
.verdict { margin-top: 14px; border-radius: 8px; padding: 8px 12px; border: 1px solid var(--line); background: #fff; }
.verdict.accepted { border-color: #b7dcc4; } .verdict.rejected { border-color: #f1c6c2; } .verdict.error { border-color: #f0dca8; }
.verdict h4 { margin: 0 0 6px; }
.stages { list-style: none; margin: 0; padding: 0; }
.stage { margin: 2px 0; }
.stage .mark { display: inline-block; width: 18px; font-weight: 700; }
.stage.pass .mark { color: var(--ok); } .stage.fail .mark { color: var(--bad); }
.reasons { margin: 2px 0 4px 18px; padding-left: 14px; color: #5b2420; }
footer { color: var(--muted); font-size: 12px; text-align: center; padding: 10px; }
`;

const fmt = (n: number): string => n.toLocaleString("en-US");
const pct = (x: number | null): string => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);

function card(value: string, key: string): string {
  return `<div class="card"><div class="v">${escapeHtml(value)}</div><div class="k">${escapeHtml(key)}</div></div>`;
}

function distRow(label: string, d: Distribution): string {
  return `<tr><td>${escapeHtml(label)}</td><td class="num">${fmt(d.count)}</td><td class="num">${d.mean}</td><td class="num">${d.p50}</td><td class="num">${d.p90}</td><td class="num">${d.max}</td></tr>`;
}

/**
 * The report as one self-contained HTML page: inline CSS, inline SVG funnel, inline script, and the data as JSON
 * in a `<script type="application/json">` element (escaped so no text can close it). It loads nothing.
 */
export function renderReportHtml(data: ReportData): string {
  const s = data.stats;
  const title = `toolsim report: ${data.run.id}`;
  const cards = [
    card(fmt(s.episodes), "episodes"),
    card(`${fmt(s.accepted)} (${pct(s.acceptRate)})`, "accepted"),
    card(fmt(s.rejected), "rejected"),
    card(fmt(s.errors), "errors"),
    card(String(s.steps.mean), "steps per episode (mean)"),
    card(`${fmt(s.calls.total)}`, `tool calls (${fmt(s.calls.ok)} ok, ${fmt(s.calls.failed)} failed)`),
    card(`${s.instructions.chars.mean} / ${s.instructions.words.mean}`, "instruction chars / words (mean)"),
    card(pct(s.nearDuplicates.rate), `near-duplicate instructions (${fmt(s.nearDuplicates.duplicates)})`),
    card(s.coverage.total !== null ? `${s.coverage.covered}/${s.coverage.total}` : String(s.coverage.covered), `spec coverage (${pct(s.coverage.rate)})`),
    card(`${s.tools.called}`, `distinct tools called${s.tools.offered !== null ? ` of ${s.tools.offered}` : ""}`),
    card(`${Object.keys(s.toolsets).length} / ${Object.keys(s.categories).length}`, "toolsets / categories"),
    ...(s.llm.calls > 0 ? [card(`${fmt(s.llm.calls)} · $${s.llm.cost.toFixed(4)}`, `LLM calls · cost (${fmt(s.llm.promptTokens + s.llm.completionTokens)} tokens)`)] : []),
  ].join("");

  const reasonRows: string[] = [];
  if (s.errors > 0) {
    reasonRows.push(`<tr><td>errors</td><td class="num">${fmt(s.errors)}</td><td>${s.funnel.errorReasons.map((r) => `${r.count} × ${escapeHtml(r.reason)}`).join("<br>")}</td></tr>`);
  }
  for (const [stage, st] of Object.entries(s.funnel.stages)) {
    if (!st) continue;
    reasonRows.push(
      `<tr><td>${escapeHtml(stage)}</td><td class="num">${fmt(st.discarded)}</td><td>${st.topReasons.length > 0 ? st.topReasons.map((r) => `${r.count} × ${escapeHtml(r.reason)}`).join("<br>") : "–"}</td></tr>`,
    );
  }

  const coverageRows = Object.entries(s.coverage.byToolset).map(([name, o]) => {
    const share = o.total ? o.covered / o.total : 0;
    return (
      `<tr><td>${escapeHtml(name)}</td><td>${escapeHtml(data.categories[name] ?? "")}</td>` +
      `<td class="num">${o.covered}/${o.total ?? "?"}</td><td><div class="bar" title="${pct(o.total ? share : null)}"><div style="width:${(share * 100).toFixed(1)}%"></div></div></td>` +
      `<td class="num">${fmt(o.calls)}</td><td class="num">${fmt(s.toolsets[name] ?? 0)}</td></tr>`
    );
  });

  const capNote =
    data.cap.total > data.cap.shown
      ? `<p class="note" id="cap-note">The browser holds the first ${fmt(data.cap.shown)} of ${fmt(data.cap.total)} episodes (the limit is ${fmt(data.cap.limit)}); the figures above cover all of them.</p>`
      : `<p class="note" id="cap-note">All ${fmt(data.cap.total)} episodes.</p>`;

  const nd = s.nearDuplicates;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="page">
  <h1>${escapeHtml(title)}</h1>
  <div class="sub">${escapeHtml(data.run.dir)} · created ${escapeHtml(data.run.createdAt)} · seed ${data.run.seed} · level ${escapeHtml(data.run.level)} · ${data.run.toolsets.length} toolsets</div>
</header>
<main>
<section id="summary">
  <h2>Summary</h2>
  <div class="cards">${cards}</div>
</section>
<div class="row2">
<section id="funnel">
  <h2>Tester funnel</h2>
  ${funnelSvg(s)}
  <table class="reasons-table"><thead><tr><th>discarded at</th><th class="num">episodes</th><th>most frequent reasons</th></tr></thead><tbody>${reasonRows.join("")}</tbody></table>
</section>
<section id="dataset">
  <h2>Dataset</h2>
  <table><thead><tr><th></th><th class="num">count</th><th class="num">mean</th><th class="num">p50</th><th class="num">p90</th><th class="num">max</th></tr></thead><tbody>
  ${distRow("steps per episode", s.steps)}
  ${distRow("tool calls per episode", s.calls)}
  ${distRow("messages per episode", s.turns)}
  ${distRow("instruction characters", s.instructions.chars)}
  ${distRow("instruction words", s.instructions.words)}
  </tbody></table>
  <p class="note">Near-duplicate instructions: ${fmt(nd.duplicates)} of ${fmt(s.instructions.count)} (${pct(nd.rate)}), similarity ≥ ${nd.threshold} against the previous ${fmt(nd.window)}.
  Most called tools: ${s.tools.top.slice(0, 6).map((t) => `${escapeHtml(t.tool)} (${t.calls})`).join(", ") || "none"}.</p>
</section>
</div>
<section id="coverage">
  <h2>Spec coverage</h2>
  <table><thead><tr><th>toolset</th><th>category</th><th class="num">operations covered</th><th></th><th class="num">calls</th><th class="num">episodes</th></tr></thead><tbody>${coverageRows.join("")}</tbody></table>
  <p class="note">An operation is covered when an accepted episode called it successfully.</p>
</section>
<section id="conversations">
  <h2>Conversations</h2>
  ${capNote}
  <div class="browser">
    <div>
      <div class="filters">
        <select id="filter-toolset" aria-label="toolset"><option value="">all toolsets</option></select>
        <select id="filter-verdict" aria-label="verdict"><option value="">all verdicts</option></select>
        <input id="filter-text" type="search" placeholder="search instructions" aria-label="search">
        <span id="list-count"></span>
      </div>
      <div id="episode-list" role="list"></div>
      <button id="list-more" type="button" hidden>show more</button>
    </div>
    <div id="chat" aria-live="polite"><p class="placeholder">Select an episode to read it as a chat: the user's messages, the assistant's thoughts and tool calls, the observations (click to expand) and the tester's verdict.</p></div>
  </div>
</section>
</main>
<footer>Generated by ${escapeHtml(data.generatedBy)}. Self-contained: this page loads nothing from the network.</footer>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
