import type { SimEvent } from "../core/events.js";
import { TOOL_SEARCHER } from "../../agents/assistant/tool-searcher.js";
import { isObject } from "../../specs/json-object.js";
import { stableStringify } from "../../specs/stable-stringify.js";

/*
 * How well the assistant recovers the user's hidden plan: for each request, whether the first tool it called
 * (ToolSearcher calls aside) is the tool the plan's first step names and, if so, whether it has the step's arguments
 * (those the plan does not link to an earlier result); and for each episode whether the tester's plan stage passed. The regression corpus of the offline agents keeps these figures as goldens.
 */

/** Plan recovery over a set of episodes. */
export interface PlanRecovery {
  episodes: number;
  requests: number;
  /** Requests whose first call is the planned first tool. */
  recovered: number;
  /** `recovered / requests`. */
  recoveryRate: number;
  /** Recovered requests whose first call also has the planned arguments. */
  argumentsMatched: number;
  /** Episodes with a verdict whose plan stage passed. */
  planPassed: number;
  /** Episodes with a verdict that has a plan stage. */
  planJudged: number;
  /** `planPassed / planJudged`. */
  planPassRate: number;
}

/** Collects plan recovery from the events of finished episodes. */
export class PlanRecoveryCounter {
  private episodes = 0;
  private requests = 0;
  private recovered = 0;
  private argumentsMatched = 0;
  private planPassed = 0;
  private planJudged = 0;

  /** Adds one episode (its events, in order). */
  add(events: readonly SimEvent[]): void {
    this.episodes++;
    let planned: Array<{ tool: string; args: Record<string, unknown> }> = [];
    let request = -1;
    const first = new Map<number, { name: string; args: unknown }>();
    for (const e of events) {
      if (e.type === "user.plan") {
        planned = e.plan.requests.map((r) => {
          const step = r.steps[0];
          const linked = new Set(step?.links.map((l) => l.arg) ?? []);
          return { tool: step?.tool ?? "", args: Object.fromEntries(Object.entries(step?.args ?? {}).filter(([k]) => !linked.has(k))) };
        });
      } else if (e.type === "user.instruction") request = e.request;
      else if (e.type === "tool.call" && request >= 0 && e.call.name !== TOOL_SEARCHER && !first.has(request)) first.set(request, { name: e.call.name, args: e.call.arguments });
      else if (e.type === "tester.verdict") {
        const stage = e.verdict.stages.find((s) => s.stage === "plan");
        if (stage) {
          this.planJudged++;
          if (stage.pass) this.planPassed++;
        }
      }
    }
    planned.forEach((step, r) => {
      this.requests++;
      const call = first.get(r);
      if (step.tool === "" || call?.name !== step.tool) return;
      this.recovered++;
      const args = isObject(call.args) ? call.args : {};
      if (Object.entries(step.args).every(([k, v]) => normalized(args[k]) === normalized(v))) this.argumentsMatched++;
    });
  }

  /** The figures so far. */
  result(): PlanRecovery {
    return {
      episodes: this.episodes,
      requests: this.requests,
      recovered: this.recovered,
      recoveryRate: this.requests > 0 ? this.recovered / this.requests : 0,
      argumentsMatched: this.argumentsMatched,
      planPassed: this.planPassed,
      planJudged: this.planJudged,
      planPassRate: this.planJudged > 0 ? this.planPassed / this.planJudged : 0,
    };
  }
}

/** A value as compared: strings trimmed and lower case, numeric strings as numbers, objects by their sorted JSON. */
function normalized(v: unknown): string {
  const walk = (x: unknown): unknown => {
    if (typeof x === "string") {
      const t = x.trim().toLowerCase();
      return t !== "" && Number.isFinite(Number(t)) ? Number(t) : t;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return stableStringify(walk(v));
}
