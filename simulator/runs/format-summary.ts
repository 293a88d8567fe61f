import type { RunSummary } from "./run-summary.js";

const pct = (n: number, d: number): string => (d > 0 ? `${((n / d) * 100).toFixed(1)}%` : "0%");

/** A one-screen, human-readable summary of a run: counts, the tester funnel with reasons, coverage, time. */
export function formatSummary(summary: RunSummary, dir?: string): string {
  const lines: string[] = [];
  lines.push(`run ${summary.runId}${dir ? ` (${dir})` : ""}`);
  lines.push(
    `episodes ${summary.episodes}: accepted ${summary.accepted} (${pct(summary.accepted, summary.episodes)}), rejected ${summary.rejected}, errors ${summary.errors}`,
  );
  lines.push("tester funnel (episodes discarded at each stage):");
  for (const [stage, s] of Object.entries(summary.stages)) {
    if (!s) continue;
    lines.push(`  ${stage.padEnd(10)} ${String(s.discarded).padStart(6)}  (${pct(s.discarded, summary.episodes)})`);
    for (const r of s.topReasons.slice(0, 3)) lines.push(`      ${String(r.count).padStart(5)} × ${truncate(r.reason, 110)}`);
  }
  if (summary.errors > 0) {
    lines.push(`  ${"error".padEnd(10)} ${String(summary.errors).padStart(6)}`);
    for (const r of summary.errorReasons.slice(0, 3)) lines.push(`      ${String(r.count).padStart(5)} × ${truncate(r.reason, 110)}`);
  }
  const hist = Object.entries(summary.steps.histogram)
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  lines.push(`steps per episode: mean ${summary.steps.mean.toFixed(2)}, max ${summary.steps.max}  [${hist}]`);
  const c = summary.calls;
  lines.push(`tool calls ${c.total}: ok ${c.ok}, failed ${c.failed} (invalid ${c.invalid}, unknown tool ${c.unknownTool}), ${c.perEpisode.toFixed(2)} per episode`);
  const ops = Object.entries(summary.operations);
  const covered = ops.reduce((n, [, o]) => n + o.covered, 0);
  const total = ops.reduce((n, [, o]) => n + (o.total ?? 0), 0);
  lines.push(`operations covered in accepted episodes: ${covered}/${total}`);
  lines.push("  " + ops.map(([name, o]) => `${name} ${o.covered}/${o.total ?? "?"}`).join(", "));
  if (summary.llm.calls > 0) {
    lines.push(`llm calls ${summary.llm.calls} (cached ${summary.llm.cached}, errors ${summary.llm.errors}), tokens ${summary.llm.promptTokens} in / ${summary.llm.completionTokens} out`);
  }
  lines.push(`time ${summary.time.wallSeconds.toFixed(1)} s, ${summary.time.episodesPerSecond.toFixed(1)} episodes/s`);
  return lines.join("\n") + "\n";
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 1) + "…";
}
