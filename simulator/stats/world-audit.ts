import { readJournal } from "../runs/read-journal.js";
import type { SimEvent } from "../core/events.js";
import { callContradictions, stateContradictions, type Contradiction, type ObservedCall } from "./call-contradictions.js";
import { entityContradictions } from "../../agents/tester/entity-contradictions.js";
import { phrasesOf } from "./filler-text.js";
import { namedLists } from "./shared-names.js";
import { typedValues, type ValueKind } from "../../specs/value-kinds.js";
import { isObject } from "../../specs/json-object.js";

/**
 * The audit of a run's world: how many accepted episodes have a response that contradicts its call (or the
 * state the episode built), and how many typed values (dates, countries, currencies, languages,
 * coordinates, emails, URLs, phones, time zones) are plausible. Independent of the simulator: it reads the
 * journal only, judging by names and values (`call-contradictions.ts`, `specs/value-kinds.ts`).
 */

/** The audit's figures. */
export interface WorldAudit {
  episodes: number;
  accepted: number;
  /** Accepted episodes with at least one contradiction. */
  contradicting: number;
  /** `contradicting / accepted`. */
  contradictingShare: number;
  /** Contradictions per rule, over accepted episodes. */
  byRule: Record<string, number>;
  /** The most frequent contradictions by toolset, tool, rule and field, with one example each. */
  top: Array<{ key: string; count: number; example: string }>;
  typed: { total: number; plausible: number; share: number; byKind: Record<string, { total: number; plausible: number }> };
  /** The most frequent implausible values by kind and field, with one example each. */
  implausible: Array<{ key: string; count: number; example: string }>;
  /** Short lowercase phrases in arguments and answers, and those that read as filler (`filler-text.ts`). */
  phrases: { total: number; filler: number; share: number; top: Array<{ key: string; count: number; example: string }> };
  /** Lists of named records in successful answers, and those whose different records share a name (`shared-names.ts`). */
  names: { lists: number; shared: number; share: number; top: Array<{ key: string; count: number; example: string }> };
}

/** The calls of one episode's events, in order, with their results. */
export function observedCalls(events: readonly SimEvent[]): ObservedCall[] {
  const calls = new Map<string, Extract<SimEvent, { type: "tool.call" }>>();
  const out: ObservedCall[] = [];
  for (const e of events) {
    if (e.type === "tool.call") calls.set(e.call.id, e);
    else if (e.type === "tool.result") {
      const c = calls.get(e.callId);
      if (!c) continue;
      const args = isObject(c.call.arguments) ? c.call.arguments : {};
      const requestBody = c.request?.body;
      out.push({
        toolset: c.toolset ?? "",
        tool: e.name,
        method: c.operation?.method ?? c.request?.method ?? "get",
        path: c.operation?.path ?? c.request?.path ?? "",
        args,
        bodyArgs: new Set(isObject(requestBody) ? Object.keys(requestBody) : []),
        status: e.result.status,
        body: e.result.body,
      });
    }
  }
  return out;
}

/** The contradictions of one episode: each call with its arguments, then the calls with the state before them. */
export function episodeContradictions(calls: readonly ObservedCall[]): Contradiction[] {
  const out: Contradiction[] = [];
  for (const c of calls) out.push(...callContradictions(c), ...entityContradictions(c));
  for (const s of stateContradictions(calls)) out.push(s.contradiction);
  return out;
}

function show(v: unknown): string {
  const s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > 70 ? `${s.slice(0, 67)}...` : s;
}

class Counter {
  private readonly counts = new Map<string, { count: number; example: string }>();
  add(key: string, example: string): void {
    const hit = this.counts.get(key);
    if (hit) hit.count++;
    else this.counts.set(key, { count: 1, example });
  }
  top(n: number): Array<{ key: string; count: number; example: string }> {
    return [...this.counts]
      .map(([key, v]) => ({ key, ...v }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
      .slice(0, n);
  }
}

/** Audits a run folder's journal (episodes with a damaged line are skipped, with `warn`). */
export async function auditRun(dir: string, options: { top?: number; warn?: (message: string) => void } = {}): Promise<WorldAudit> {
  let episodes = 0;
  let accepted = 0;
  let contradicting = 0;
  const byRule: Record<string, number> = {};
  const top = new Counter();
  const implausible = new Counter();
  const byKind: Record<string, { total: number; plausible: number }> = {};
  let typedTotal = 0;
  let typedPlausible = 0;
  let phraseTotal = 0;
  let phraseFiller = 0;
  const fillers = new Counter();
  let namedTotal = 0;
  let namedShared = 0;
  const sharedNames = new Counter();
  for await (const events of readJournal(dir, { onCorrupt: options.warn ?? (() => undefined) })) {
    episodes++;
    const verdict = events.find((e): e is Extract<SimEvent, { type: "tester.verdict" }> => e.type === "tester.verdict");
    if (!verdict?.verdict.accepted) continue;
    accepted++;
    const calls = observedCalls(events);
    const found = episodeContradictions(calls);
    const episodeId = events[0]?.episodeId ?? "";
    if (found.length > 0) contradicting++;
    for (const c of found) {
      byRule[c.rule] = (byRule[c.rule] ?? 0) + 1;
      const toolset = calls.find((k) => k.tool === c.tool)?.toolset ?? "";
      top.add(`${toolset}.${c.tool} ${c.rule} ${c.field}${c.argument !== undefined ? ` <- ${c.argument}` : ""}`, `${episodeId}: expected ${show(c.expected)}, got ${show(c.actual)}`);
    }
    for (const call of calls) {
      for (const p of phrasesOf(call.status >= 200 && call.status <= 299 ? [call.args, call.body] : call.args)) {
        phraseTotal++;
        if (!p.filler) continue;
        phraseFiller++;
        fillers.add(`${call.toolset}.${call.tool} ${p.field}`, `${episodeId}: ${show(p.value)}`);
      }
      if (call.status >= 200 && call.status <= 299) {
        for (const list of namedLists(call.body)) {
          namedTotal++;
          if (!list.shared) continue;
          namedShared++;
          sharedNames.add(`${call.toolset}.${call.tool} ${list.path.replace(/\[\d+\]/g, "[]")}.${list.shared.field}`, `${episodeId}: ${show(list.shared.value)}`);
        }
      }
      const values = typedValues(call.args);
      if (call.status >= 200 && call.status <= 299) typedValues(call.body, values);
      for (const v of values) {
        typedTotal++;
        const k = (byKind[v.kind as ValueKind] ??= { total: 0, plausible: 0 });
        k.total++;
        if (v.plausible) {
          typedPlausible++;
          k.plausible++;
        } else implausible.add(`${v.kind} ${call.toolset}.${call.tool} ${v.field}`, `${episodeId}: ${show(v.value)}`);
      }
    }
  }
  const n = options.top ?? 15;
  return {
    episodes,
    accepted,
    contradicting,
    contradictingShare: accepted === 0 ? 0 : contradicting / accepted,
    byRule,
    top: top.top(n),
    typed: { total: typedTotal, plausible: typedPlausible, share: typedTotal === 0 ? 1 : typedPlausible / typedTotal, byKind },
    implausible: implausible.top(n),
    phrases: { total: phraseTotal, filler: phraseFiller, share: phraseTotal === 0 ? 0 : phraseFiller / phraseTotal, top: fillers.top(n) },
    names: { lists: namedTotal, shared: namedShared, share: namedTotal === 0 ? 0 : namedShared / namedTotal, top: sharedNames.top(n) },
  };
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** The audit as text. */
export function formatAudit(a: WorldAudit, dir: string): string {
  const lines = [
    `world audit of ${dir}: ${a.episodes} episodes, ${a.accepted} accepted`,
    `accepted episodes whose responses contradict their calls: ${a.contradicting}/${a.accepted} (${pct(a.contradictingShare)})`,
  ];
  const rules = Object.entries(a.byRule).sort((x, y) => y[1] - x[1]);
  if (rules.length > 0) lines.push(`  by rule: ${rules.map(([r, c]) => `${r} ${c}`).join(", ")}`);
  for (const t of a.top) lines.push(`  ${String(t.count).padStart(5)} ${t.key}   e.g. ${t.example}`);
  lines.push(`typed values plausible: ${a.typed.plausible}/${a.typed.total} (${pct(a.typed.share)})`);
  const kinds = Object.entries(a.typed.byKind).sort((x, y) => y[1].total - x[1].total);
  if (kinds.length > 0) lines.push(`  by kind: ${kinds.map(([k, v]) => `${k} ${v.plausible}/${v.total}`).join(", ")}`);
  for (const t of a.implausible) lines.push(`  ${String(t.count).padStart(5)} ${t.key}   e.g. ${t.example}`);
  lines.push(`short phrases that read as filler: ${a.phrases.filler}/${a.phrases.total} (${pct(a.phrases.share)})`);
  for (const t of a.phrases.top) lines.push(`  ${String(t.count).padStart(5)} ${t.key}   e.g. ${t.example}`);
  lines.push(`lists whose different records share a name: ${a.names.shared}/${a.names.lists} (${pct(a.names.share)})`);
  for (const t of a.names.top) lines.push(`  ${String(t.count).padStart(5)} ${t.key}   e.g. ${t.example}`);
  return lines.join("\n") + "\n";
}
