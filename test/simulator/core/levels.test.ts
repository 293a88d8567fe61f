import { beforeAll, describe, expect, it } from "vitest";
import type { Level } from "../../../agents/roles/agent-context.js";
import type { Plan } from "../../../agents/roles/plan.js";
import { TOOL_SEARCHER } from "../../../agents/assistant/tool-searcher.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { bundledToolsetsDir, loadToolsets } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";

/**
 * The three API-Bank levels with the offline agents: `call` gives the tools and plans mostly single
 * operations (chains sometimes); `retrieve` plans one operation per request, found through ToolSearcher;
 * `plan` plans 2-3 operations per request, each searched for and called in turn.
 */

const EPISODES = 60;
const SEED = 11;

interface Episode {
  id: string;
  plan: Plan;
  accepted: boolean;
  /** Per request: the tool calls in order, with what each ToolSearcher call found. */
  requests: Array<Array<{ name: string; found?: string[] }>>;
}

function episodesOf(events: readonly SimEvent[]): Episode[] {
  const out = new Map<string, Episode>();
  // Episodes run concurrently: their events interleave, each episode's in order.
  const requestOf = new Map<string, number>();
  for (const e of events) {
    let ep = out.get(e.episodeId);
    if (e.type === "user.plan") {
      ep = { id: e.episodeId, plan: e.plan, accepted: false, requests: e.plan.requests.map(() => []) };
      out.set(e.episodeId, ep);
    }
    if (!ep) continue;
    if (e.type === "user.instruction") requestOf.set(e.episodeId, e.request);
    const request = requestOf.get(e.episodeId) ?? 0;
    if (e.type === "tool.call") ep.requests[request]?.push({ name: e.call.name });
    if (e.type === "tool.result" && e.name === TOOL_SEARCHER) {
      const calls = ep.requests[request] ?? [];
      const last = calls[calls.length - 1];
      const body = e.result.body as { tools?: Array<{ name: string }> } | null;
      if (last) last.found = (body?.tools ?? []).map((t) => t.name);
    }
    if (e.type === "tester.verdict") ep.accepted = e.verdict.accepted;
  }
  return [...out.values()];
}

let toolsets: LoadedToolset[];
const runs = new Map<Level, { events: SimEvent[]; episodes: Episode[]; acceptRate: number }>();

async function run(level: Level): Promise<void> {
  const sim = createSimulation({ toolsets, episodes: EPISODES, seed: SEED, level, concurrency: 4, clock: () => new Date("2025-06-01T12:00:00Z") });
  const events: SimEvent[] = [];
  sim.on("*", (e) => void events.push(e));
  const { summary } = await sim.run();
  runs.set(level, { events, episodes: episodesOf(events), acceptRate: summary.accepted / summary.episodes });
}

beforeAll(async () => {
  const loaded = await loadToolsets([bundledToolsetsDir()]);
  toolsets = loaded.toolsets;
  for (const level of ["call", "retrieve", "plan"] as const) await run(level);
}, 120_000);

function get(level: Level): { events: SimEvent[]; episodes: Episode[]; acceptRate: number } {
  const r = runs.get(level);
  if (!r) throw new Error(`no ${level} run`);
  return r;
}

describe("levels of the offline simulation", () => {
  it("call: the tools are given (no ToolSearcher); requests are mostly one operation, with some chains", () => {
    const { episodes, events } = get("call");
    const requests = episodes.flatMap((e) => e.plan.requests);
    const single = requests.filter((r) => r.steps.length === 1).length;
    expect(single / requests.length).toBeGreaterThan(0.55);
    expect(requests.some((r) => r.steps.some((s) => s.links.length > 0))).toBe(true);
    expect(events.some((e) => e.type === "tool.call" && e.call.name === TOOL_SEARCHER)).toBe(false);
  });

  it("retrieve: every request is one operation, and its tool is found with ToolSearcher before it is called", () => {
    const { episodes } = get("retrieve");
    for (const ep of episodes) for (const r of ep.plan.requests) expect(r.steps).toHaveLength(1);
    let checked = 0;
    for (const ep of episodes.filter((e) => e.accepted)) {
      ep.requests.forEach((calls, r) => {
        const planned = ep.plan.requests[r]?.steps[0]?.tool;
        const first = calls[0];
        expect(first?.name, `${ep.id} requests[${r}]`).toBe(TOOL_SEARCHER);
        const at = calls.findIndex((c) => c.name === planned);
        expect(at, `${ep.id} requests[${r}] calls ${planned}`).toBeGreaterThan(0);
        expect(calls.slice(0, at).some((c) => c.found?.includes(planned as string)), `${ep.id}: ${planned} was found before it was called`).toBe(true);
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(EPISODES / 2);
  });

  it("plan: every request takes 2-3 operations, each searched for in turn before it is called", () => {
    const { episodes } = get("plan");
    for (const ep of episodes) for (const r of ep.plan.requests) expect(r.steps.length).toBeGreaterThanOrEqual(2);
    for (const ep of episodes) for (const r of ep.plan.requests) expect(r.steps.length).toBeLessThanOrEqual(3);
    const accepted = episodes.filter((e) => e.accepted);
    expect(accepted.length).toBeGreaterThan(EPISODES / 4);
    for (const ep of accepted) {
      ep.requests.forEach((calls, r) => {
        const searches = calls.filter((c) => c.name === TOOL_SEARCHER).length;
        const steps = ep.plan.requests[r]?.steps.length ?? 0;
        // One search per operation; each call follows a search that found its tool.
        expect(searches, `${ep.id} requests[${r}]`).toBeGreaterThanOrEqual(steps);
        calls.forEach((c, i) => {
          if (c.name === TOOL_SEARCHER) return;
          expect(calls.slice(0, i).some((s) => s.found?.includes(c.name)), `${ep.id} requests[${r}] ${c.name}`).toBe(true);
        });
        // Searches and calls alternate: a search comes between the calls of two operations.
        const order = calls.map((c) => (c.name === TOOL_SEARCHER ? "S" : "C")).join("");
        expect(order, `${ep.id} requests[${r}]`).toMatch(/^S+C+(S+C+)+$/);
      });
    }
  });

  it("the levels give different dialogues: plan requests take more operations and more searches than retrieve ones", () => {
    const mean = (level: Level, f: (ep: Episode) => number): number => {
      const eps = get(level).episodes;
      return eps.reduce((a, e) => a + f(e), 0) / eps.reduce((a, e) => a + e.plan.requests.length, 0);
    };
    const steps = (e: Episode): number => e.plan.requests.reduce((a, r) => a + r.steps.length, 0);
    const searches = (e: Episode): number => e.requests.flat().filter((c) => c.name === TOOL_SEARCHER).length;
    expect(mean("retrieve", steps)).toBe(1);
    expect(mean("plan", steps)).toBeGreaterThanOrEqual(2);
    expect(mean("plan", searches)).toBeGreaterThan(1.5 * mean("retrieve", searches));
    expect(mean("call", searches)).toBe(0);
    const text = (level: Level): string => get(level).events.filter((e) => e.type === "user.instruction").map((e) => (e.type === "user.instruction" ? e.text : "")).join("\n");
    expect(text("plan")).not.toBe(text("retrieve"));
  });

  it("call: the assistant seldom asks when the user held nothing back", () => {
    const { events } = get("call");
    const plans = new Map<string, Plan>();
    const requestOf = new Map<string, number>();
    let open = 0;
    let needless = 0;
    for (const e of events) {
      if (e.type === "user.plan") plans.set(e.episodeId, e.plan);
      const plan = plans.get(e.episodeId);
      if (e.type === "user.instruction") {
        requestOf.set(e.episodeId, e.request);
        if (plan?.requests[e.request]?.withheld.length === 0) open++;
      }
      if (e.type === "assistant.question" && plan?.requests[requestOf.get(e.episodeId) ?? 0]?.withheld.length === 0) needless++;
    }
    expect(open).toBeGreaterThan(40);
    expect(needless / open).toBeLessThan(0.05);
  });

  it("final answers never mention the catalogue search or a tool's name", () => {
    for (const level of ["retrieve", "plan"] as const) {
      const { events } = get(level);
      // Operation ids (camelCase or snake_case), not tools named by a plain word ("login").
      const names = new Set(events.flatMap((e) => (e.type === "tool.call" && /[A-Z_]/.test(e.call.name) ? [e.call.name] : [])));
      const finals = events.flatMap((e) => (e.type === "assistant.final" ? [e.text] : []));
      expect(finals.length).toBeGreaterThan(10);
      for (const text of finals) for (const name of names) expect(new RegExp(`\\b${name}\\b`).test(text), `${level}: ${text}`).toBe(false);
    }
  });

  it("every level accepts a reasonable share, and the assistant still fails sometimes", () => {
    for (const level of ["call", "retrieve", "plan"] as const) {
      const rate = get(level).acceptRate;
      expect(rate, level).toBeGreaterThan(level === "plan" ? 0.35 : 0.55);
      expect(rate, level).toBeLessThan(1);
    }
  });
});
