import type { RunStats } from "../stats/run-stats.js";
import { escapeHtml } from "./html-escape.js";

/** One row of the funnel: how many reached a point and how many were discarded there. */
export interface FunnelRow {
  label: string;
  reached: number;
  discarded: number;
  /** The most frequent reason discarded here. */
  reason?: string;
}

/** The tester funnel as rows: all episodes, those that broke off, each stage in order, the accepted ones. */
export function funnelRows(stats: RunStats): FunnelRow[] {
  const rows: FunnelRow[] = [];
  let remaining = stats.episodes;
  if (stats.errors > 0) {
    rows.push({ label: "errors", reached: remaining, discarded: stats.errors, ...(stats.funnel.errorReasons[0] ? { reason: stats.funnel.errorReasons[0].reason } : {}) });
    remaining -= stats.errors;
  }
  for (const [stage, st] of Object.entries(stats.funnel.stages)) {
    if (!st) continue;
    rows.push({ label: stage, reached: remaining, discarded: st.discarded, ...(st.topReasons[0] ? { reason: st.topReasons[0].reason } : {}) });
    remaining -= st.discarded;
  }
  return rows;
}

const pct = (part: number, whole: number): string => (whole === 0 ? "0%" : `${((part / whole) * 100).toFixed(1)}%`);

/**
 * The funnel chart as inline SVG (no script, no external resource): one bar per row, its length the episodes
 * that reached the point, the discarded part in red with its count; the last bar is the accepted episodes.
 */
export function funnelSvg(stats: RunStats): string {
  const rows = funnelRows(stats);
  const width = 760;
  const labelW = 110;
  const barW = 420;
  const rowH = 34;
  const top = 8;
  const total = Math.max(1, stats.episodes);
  const scale = (n: number): number => (n / total) * barW;
  const parts: string[] = [];
  const bar = (y: number, label: string, reached: number, discarded: number, note: string, klass: string): void => {
    const kept = reached - discarded;
    parts.push(`<g class="funnel-row ${klass}" data-stage="${escapeHtml(label)}">`);
    parts.push(`<text x="${labelW - 10}" y="${y + 21}" text-anchor="end" class="funnel-label">${escapeHtml(label)}</text>`);
    parts.push(`<rect x="${labelW}" y="${y + 6}" width="${barW}" height="${rowH - 12}" class="funnel-track"/>`);
    if (kept > 0) parts.push(`<rect x="${labelW}" y="${y + 6}" width="${scale(kept).toFixed(1)}" height="${rowH - 12}" class="funnel-kept"><title>${kept} went on</title></rect>`);
    if (discarded > 0) parts.push(`<rect x="${(labelW + scale(kept)).toFixed(1)}" y="${y + 6}" width="${Math.max(2, scale(discarded)).toFixed(1)}" height="${rowH - 12}" class="funnel-discarded"><title>${discarded} discarded</title></rect>`);
    parts.push(`<text x="${labelW + barW + 10}" y="${y + 21}" class="funnel-count">${escapeHtml(note)}</text>`);
    parts.push("</g>");
  };
  let y = top;
  bar(y, "episodes", stats.episodes, 0, `${stats.episodes}`, "funnel-all");
  y += rowH;
  for (const r of rows) {
    bar(y, r.label, r.reached, r.discarded, `${r.reached} reached, −${r.discarded} (${pct(r.discarded, stats.episodes)})`, r.discarded > 0 ? "funnel-loss" : "funnel-pass");
    y += rowH;
  }
  bar(y, "accepted", stats.accepted, 0, `${stats.accepted} (${pct(stats.accepted, stats.episodes)})`, "funnel-accepted");
  y += rowH;
  const height = y + top;
  return (
    `<svg class="funnel" role="img" aria-label="tester funnel" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<title>Tester funnel: ${stats.episodes} episodes, ${stats.accepted} accepted</title>` +
    parts.join("") +
    "</svg>"
  );
}
