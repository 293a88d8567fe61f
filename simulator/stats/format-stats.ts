import type { Distribution } from "./distribution.js";
import type { RunStats } from "./run-stats.js";

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const dist = (d: Distribution): string => `mean ${d.mean}, p50 ${d.p50}, p90 ${d.p90}, max ${d.max}`;

/** `toolsim stats` as text. */
export function formatStats(s: RunStats, dir: string): string {
  const lines: string[] = [];
  lines.push(`run ${s.runId} (${dir})`);
  lines.push(`episodes ${s.episodes}: accepted ${s.accepted} (${pct(s.acceptRate)}), rejected ${s.rejected}, errors ${s.errors}`);
  lines.push(`steps per episode: ${dist(s.steps)}`);
  lines.push(`tool calls ${s.calls.total} (per episode ${dist(s.calls)}): ok ${s.calls.ok}, failed ${s.calls.failed} (invalid ${s.calls.invalid}, unknown tool ${s.calls.unknownTool})`);
  lines.push(`dialogue messages per episode: ${dist(s.turns)}`);
  lines.push(`instructions ${s.instructions.count}: chars ${dist(s.instructions.chars)}; words ${dist(s.instructions.words)}`);
  const nd = s.nearDuplicates;
  lines.push(`near-duplicate instructions: ${nd.duplicates} of ${s.instructions.count} (${pct(nd.rate)}; similarity >= ${nd.threshold}, each against the previous ${nd.window})`);
  for (const e of nd.examples.slice(0, 3)) lines.push(`  ${JSON.stringify(e.text)} ~ ${JSON.stringify(e.similarTo)} (${e.similarity})`);
  lines.push(`tools: ${s.tools.called} distinct called, ${s.tools.succeeded} with a successful call${s.tools.offered !== null ? `, of ${s.tools.offered} offered` : ""}`);
  if (s.tools.top.length > 0) lines.push(`  most called: ${s.tools.top.slice(0, 5).map((t) => `${t.tool} ${t.calls}`).join(", ")}`);
  lines.push(`toolsets ${Object.keys(s.toolsets).length}, categories ${Object.keys(s.categories).length}: ${Object.entries(s.categories).map(([c, n]) => `${c} ${n}`).join(", ")}`);
  const cov = s.coverage;
  lines.push(`spec coverage (operations with a successful call in an accepted episode): ${cov.covered}${cov.total !== null ? `/${cov.total} (${pct(cov.rate ?? 0)})` : ""}`);
  const per = Object.entries(cov.byToolset).map(([name, o]) => `${name} ${o.covered}/${o.total ?? "?"}`);
  if (per.length > 0) lines.push(`  ${per.join(", ")}`);
  lines.push("tester funnel (episodes discarded at each stage):");
  let remaining = s.episodes - s.errors;
  if (s.errors > 0) lines.push(`  ${"errors".padEnd(10)} ${String(s.errors).padStart(5)}  (broke off before a verdict)`);
  for (const [stage, st] of Object.entries(s.funnel.stages)) {
    if (!st) continue;
    lines.push(`  ${stage.padEnd(10)} ${String(st.discarded).padStart(5)}  (${pct(st.discardRate)}; ${remaining} reached it, ${st.failed} failed it)`);
    for (const r of st.topReasons.slice(0, 3)) lines.push(`      ${r.count} × ${r.reason}`);
    remaining -= st.discarded;
  }
  lines.push(`  ${"accepted".padEnd(10)} ${String(s.accepted).padStart(5)}`);
  if (s.llm.calls > 0) lines.push(`llm: ${s.llm.calls} calls, ${s.llm.promptTokens + s.llm.completionTokens} tokens, $${s.llm.cost.toFixed(4)}`);
  return `${lines.join("\n")}\n`;
}
