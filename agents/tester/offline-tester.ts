import type { ToolResult } from "../../specs/call/tool-result.js";
import type { AgentContext } from "../roles/agent-context.js";
import type { AssistantToolCall, DialogueMessage } from "../roles/dialogue.js";
import type { PlanStep } from "../roles/plan.js";
import type { CallRecord, EpisodeTranscript, Tester } from "../roles/roles.js";
import { TOOL_SEARCHER } from "../assistant/tool-searcher.js";
import type { StageVerdict, TesterStage, Verdict } from "../roles/verdict.js";
import { checkConsistency } from "./consistency-check.js";
import { isObject } from "../../specs/json-object.js";
import { typedValues } from "../../specs/value-kinds.js";
import { answerTokens, buildHaystack, containsBounded, norm, tokenGrounded, type Haystack } from "./answer-evidence.js";
export { answerTokens, type AnswerToken } from "./answer-evidence.js";

/*
 * Reasons name what failed with indices into the transcript (`dialogue[3]`, `calls[2]`, `requests[0]`,
 * `steps[1]`, all from 0) and quote every value with JSON quotes, so the run summary can group reasons into
 * templates by blanking the quoted values and the numbers.
 */

/** A stage of the rule tester: reads a transcript (and the episode's context: its toolbox), returns its reasons for failing (empty when it passes). */
export type RuleStage = (episode: EpisodeTranscript, ctx?: AgentContext) => string[];

/** The rule tester's stages, in order; tests and custom testers swap one. */
export interface RuleStages {
  format: RuleStage;
  execution: RuleStage;
  consistency: RuleStage;
  grounding: RuleStage;
  plan: RuleStage;
}

const q = (v: unknown): string => JSON.stringify(typeof v === "string" ? v : v === undefined ? null : v) ?? "null";

/** The arguments of a call as an object, parsing a JSON string; undefined when they are not a JSON object. */
export function callArguments(call: AssistantToolCall): Record<string, unknown> | undefined {
  if (isObject(call.arguments)) return call.arguments;
  if (typeof call.arguments === "string") {
    try {
      const parsed: unknown = JSON.parse(call.arguments);
      return isObject(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function argumentsProblem(call: AssistantToolCall): string | undefined {
  if (isObject(call.arguments)) return undefined;
  if (typeof call.arguments === "string") {
    try {
      const parsed: unknown = JSON.parse(call.arguments);
      if (isObject(parsed)) return undefined;
      return `arguments are JSON ${parsed === null ? "null" : Array.isArray(parsed) ? "array" : typeof parsed}, not an object`;
    } catch {
      return `arguments are not valid JSON (${q(call.arguments.slice(0, 60))})`;
    }
  }
  const a: unknown = call.arguments;
  return `arguments are ${a === null ? "null" : Array.isArray(a) ? "an array" : typeof a}, not an object`;
}

/** A successful call: routed, valid, answered below 400. */
function succeeded(r: ToolResult): boolean {
  return r.status < 400 && r.source !== "route" && r.source !== "validation";
}

// ---------------------------------------------------------------------------------------------- format

/**
 * `format`: every turn is well-formed (no empty user or assistant message, tool calls with a name, an id
 * answered by exactly one tool result, and object arguments), every request of the plan reached an end,
 * no end is an error, and every final answer is non-empty text.
 *
 * A give-up or an exhausted step budget is a well-formed dialogue that did not achieve the user's goal:
 * it fails the `plan` stage, not this one (and so do the requests it left unreached).
 */
export function checkFormat(episode: EpisodeTranscript): string[] {
  const reasons: string[] = [];
  const { dialogue } = episode;
  if (dialogue.length === 0) reasons.push("the dialogue is empty");
  else if (dialogue[0]?.role !== "user") reasons.push(`the dialogue starts with a ${q(dialogue[0]?.role)} message, not a user message`);

  const issued = new Map<string, number>();
  const answered = new Set<string>();
  const checkCall = (call: AssistantToolCall, where: string): void => {
    if (typeof call.name !== "string" || call.name.trim() === "") reasons.push(`${where}: tool call ${q(call.id)} has no name`);
    const problem = argumentsProblem(call);
    if (problem) reasons.push(`${where}: tool call ${q(call.name)} ${problem}`);
  };
  dialogue.forEach((m: DialogueMessage, i) => {
    const where = `dialogue[${i}]`;
    if (m.role === "user") {
      if (typeof m.content !== "string" || m.content.trim() === "") reasons.push(`${where}: empty user message`);
    } else if (m.role === "assistant") {
      const calls = m.toolCalls ?? [];
      if ((typeof m.content !== "string" || m.content.trim() === "") && calls.length === 0) {
        reasons.push(`${where}: empty assistant message (no text and no tool calls)`);
      }
      for (const call of calls) {
        checkCall(call, where);
        const first = issued.get(call.id);
        if (first !== undefined) reasons.push(`${where}: tool call id ${q(call.id)} is already used in dialogue[${first}]`);
        else issued.set(call.id, i);
      }
    } else {
      if (!issued.has(m.toolCallId)) reasons.push(`${where}: tool result ${q(m.name)} answers unknown call id ${q(m.toolCallId)}`);
      else if (answered.has(m.toolCallId)) reasons.push(`${where}: call id ${q(m.toolCallId)} is answered twice`);
      answered.add(m.toolCallId);
    }
  });
  for (const [id, i] of issued) {
    if (!answered.has(id)) reasons.push(`dialogue[${i}]: tool call ${q(id)} got no result`);
  }
  // Calls the dialogue does not show are still checked.
  episode.calls.forEach((rec, i) => {
    if (!issued.has(rec.call.id)) checkCall(rec.call, `calls[${i}]`);
  });

  const requests = episode.plan.requests.length;
  episode.ends.forEach((end, r) => {
    if (end.kind === "error") reasons.push(`requests[${r}]: the episode broke off with an error: ${q(end.reason)}`);
    else if (end.kind === "final" && (typeof end.text !== "string" || end.text.trim() === "")) {
      reasons.push(`requests[${r}]: the final answer is empty`);
    }
  });
  // Requests left unreached after a give-up or an exhausted budget are the plan stage's business.
  const lastKind = episode.ends[episode.ends.length - 1]?.kind;
  if (lastKind !== "give-up" && lastKind !== "budget") {
    for (let r = episode.ends.length; r < requests; r++) {
      reasons.push(`requests[${r}]: the dialogue stops before this request ends (no final answer)`);
    }
  }
  return reasons;
}

// ---------------------------------------------------------------------------------------------- execution

function issues(result: ToolResult["errors"], max = 3): string {
  const shown = result.slice(0, max).map((e) => `${e.location.join(".") || "(call)"}: ${e.message}`);
  if (result.length > max) shown.push(`and ${result.length - max} more`);
  return shown.join("; ");
}

/**
 * `execution`: every call routed to a known tool (no invented tools), every call valid in the end (a
 * rejected call is fine when a later call of the same tool passes validation), not all calls failed
 * (status >= 400), every response body valid against its response schema, no read answered 200 without content,
 * and every argument whose name says what it holds (a country, a currency, a date, an e-mail...) plausibly holds one.
 */
export function checkExecution(episode: EpisodeTranscript): string[] {
  const reasons: string[] = [];
  const { calls } = episode;
  calls.forEach((rec, i) => {
    const r = rec.result;
    if (r.source === "route") {
      const body = r.body as { suggestions?: unknown } | null;
      const near = Array.isArray(body?.suggestions) ? body.suggestions.filter((s): s is string => typeof s === "string") : [];
      reasons.push(`calls[${i}] ${q(rec.call.name)}: unknown tool${near.length > 0 ? ` (nearest: ${near.map(q).join(", ")})` : ""}`);
      return;
    }
    if (r.source === "validation") {
      const corrected = calls.some((later, j) => j > i && later.call.name === rec.call.name && later.result.source !== "validation" && later.result.source !== "route");
      if (!corrected) {
        reasons.push(`calls[${i}] ${q(rec.call.name)} stays invalid (no corrected retry): ${issues(r.errors) || `status ${r.status}`}`);
      }
    }
    if (r.responseErrors.length > 0) {
      reasons.push(`calls[${i}] ${q(rec.call.name)}: response does not match its schema: ${issues(r.responseErrors)}`);
    }
    // A read answered 200 with nothing in it (a spec that declares no body for it): the final answer rests on nothing.
    if (r.status === 200 && (rec.result.operation?.method ?? "get") === "get" && (r.body === undefined || r.body === null || r.body === "")) {
      reasons.push(`calls[${i}] ${q(rec.call.name)}: a read answered 200 without content, so the answer rests on nothing`);
    }
    // An argument whose name says what it holds holds one (`country_code: "Busy Suspension"` is no country).
    const args = callArguments(rec.call);
    for (const t of args ? typedValues(args) : []) {
      if (!t.plausible) reasons.push(`calls[${i}] ${q(rec.call.name)}: argument ${t.field} ${q(t.value)} is not a ${t.kind}`);
    }
  });
  if (calls.length > 0 && calls.every((c) => c.result.status >= 400)) {
    reasons.push(`all ${calls.length} calls failed (statuses ${[...new Set(calls.map((c) => c.result.status))].join(", ")})`);
  }
  return reasons;
}

// ---------------------------------------------------------------------------------------------- grounding

/**
 * `grounding`: the values of each final answer (see {@link answerTokens}) appear in the observations (tool
 * result statuses and bodies, their field names, the names of the tools called) or in the user's messages;
 * one reason per ungrounded value.
 */
export function checkGrounding(episode: EpisodeTranscript): string[] {
  const finals = episode.ends.map((e, r) => ({ e, r })).filter((x) => x.e.kind === "final");
  if (finals.length === 0) return [];
  const hay = buildHaystack(episode);
  const reasons: string[] = [];
  for (const { e, r } of finals) {
    if (e.kind !== "final") continue;
    const seen = new Set<string>();
    for (const token of answerTokens(e.text)) {
      const key = `${token.kind}:${token.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!tokenGrounded(token, hay)) reasons.push(`requests[${r}] final answer: ${token.kind} ${q(token.text)} appears in no observation or user message`);
    }
  }
  return reasons;
}

// ---------------------------------------------------------------------------------------------- plan

/** A value normalized for comparison: strings trimmed, lower-cased, whitespace collapsed; numeric strings as numbers. */
export function normalizeValue(v: unknown): unknown {
  if (typeof v === "string") {
    const s = v.replace(/\s+/g, " ").trim();
    if (/^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(s)) return Number(s);
    if (s === "true" || s === "false") return s === "true";
    // A text of several words says the same with or without the full stop that ends it.
    return (/\s/.test(s) ? s.replace(/(?<=\w)[.!]$/, "") : s).toLowerCase();
  }
  if (Array.isArray(v)) return v.map(normalizeValue);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalizeValue(x)]));
  return v;
}

/** True when an actual value matches a planned one (normalized; planned object keys must all match, extra keys allowed). */
export function valuesMatch(planned: unknown, actual: unknown): boolean {
  const p = normalizeValue(planned);
  let a = normalizeValue(actual);
  if (Array.isArray(p) && typeof actual === "string") a = actual.split(",").map(normalizeValue);
  return sameNormalized(p, a);
}

function sameNormalized(p: unknown, a: unknown): boolean {
  if (typeof p === "number" && typeof a === "number") return Math.abs(p - a) <= 1e-9 * Math.max(1, Math.abs(p));
  if (Array.isArray(p)) return Array.isArray(a) && a.length === p.length && p.every((x, i) => sameNormalized(x, a[i]));
  if (isObject(p)) return isObject(a) && Object.entries(p).every(([k, x]) => x === undefined || sameNormalized(x, a[k]));
  if (p === null || p === undefined) return a === null || a === undefined;
  return p === a;
}

/** The value at a path of a body: `items.0.id`, `items[0].id` or a JSON pointer `/items/0/id`. */
export function valueAt(body: unknown, path: string): { found: boolean; value?: unknown } {
  let v: unknown = body;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      // a text body has no fields
    }
  }
  const parts = path.startsWith("/")
    ? path.slice(1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    : path.replace(/\[(\d+)\]/g, ".$1").split(".").filter((p) => p !== "");
  for (const part of parts) {
    if (Array.isArray(v) && /^\d+$/.test(part) && Number(part) < v.length) v = v[Number(part)];
    else if (isObject(v) && Object.hasOwn(v, part)) v = v[part];
    else return { found: false };
  }
  return { found: true, value: v };
}

function sameTool(rec: CallRecord, step: PlanStep): boolean {
  if (rec.toolset !== undefined && rec.toolset !== step.toolset) return false;
  const name = rec.call.name;
  return name === step.tool || rec.result.tool === step.tool || name.endsWith(`__${step.tool}`);
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/**
 * `plan`: the calls achieve the user's plan, and do nothing it does not ask for (see {@link offPlanCalls}). Every request ended with a final answer (a give-up or an
 * exhausted budget fails here, with the requests it left unreached), and each planned step has a successful call of its tool within its request
 * whose arguments match the planned values (normalized), whose linked arguments equal the value at `field`
 * in the actual result of a call that achieved the earlier step, and which carries the withheld values.
 */
export function checkPlan(episode: EpisodeTranscript): string[] {
  const reasons: string[] = [];
  episode.ends.forEach((end, r) => {
    if (end.kind === "give-up") reasons.push(`requests[${r}] was not answered: the assistant gave up (${q(end.reason)})`);
    else if (end.kind === "budget") reasons.push(`requests[${r}] was not answered: the step budget ran out (${q(end.reason)})`);
  });
  const lastKind = episode.ends[episode.ends.length - 1]?.kind;
  if (lastKind === "give-up" || lastKind === "budget") {
    for (let r = episode.ends.length; r < episode.plan.requests.length; r++) {
      reasons.push(`requests[${r}] was never reached (the dialogue stopped at requests[${episode.ends.length - 1}])`);
    }
  }
  const indexOf = new Map<CallRecord, number>();
  episode.calls.forEach((c, i) => indexOf.set(c, i));
  reasons.push(...offPlanCalls(episode, indexOf));

  episode.plan.requests.forEach((request, r) => {
    const inRequest = episode.calls.filter((c) => c.request === r);
    const withheld = new Map<number, Set<string>>();
    for (const w of request.withheld) {
      const colon = w.indexOf(":");
      const arg = w.slice(colon + 1);
      // `step:arg`; a bare `arg` belongs to the first step that plans it.
      const s = colon >= 0 ? Number(w.slice(0, colon)) : Math.max(0, request.steps.findIndex((st) => arg in st.args));
      if (!withheld.has(s)) withheld.set(s, new Set());
      withheld.get(s)?.add(arg);
    }
    /** The calls that achieved each step. */
    const achieved: CallRecord[][] = [];
    request.steps.forEach((step, s) => {
      const where = `requests[${r}] steps[${s}] ${q(step.tool)}`;
      const linkArgs = new Set(step.links.map((l) => l.arg));
      const held = withheld.get(s) ?? new Set<string>();
      const ofTool = inRequest.filter((c) => sameTool(c, step));
      const ok = ofTool.filter((c) => succeeded(c.result));
      if (ofTool.length === 0) {
        reasons.push(`${where}: never called`);
        achieved.push([]);
        return;
      }
      if (ok.length === 0) {
        reasons.push(`${where}: no successful call (${ofTool.map((c) => `calls[${indexOf.get(c)}] status ${c.result.status}`).join(", ")})`);
        achieved.push([]);
        return;
      }
      const problemsOf = (c: CallRecord): string[] => {
        const ci = indexOf.get(c) ?? -1;
        const args = callArguments(c.call) ?? {};
        const problems: string[] = [];
        for (const [arg, planned] of Object.entries(step.args)) {
          if (linkArgs.has(arg) || planned === undefined) continue;
          const actual = args[arg];
          if (actual === undefined) {
            problems.push(held.has(arg)
              ? `withheld ${q(arg)} was not obtained (calls[${ci}] lacks it; the user holds ${show(planned)})`
              : `calls[${ci}] lacks ${q(arg)} (plan: ${show(planned)})`);
          } else if (!valuesMatch(planned, actual)) {
            problems.push(held.has(arg)
              ? `withheld ${q(arg)} was not obtained (calls[${ci}] has ${show(actual)}; the user holds ${show(planned)})`
              : `calls[${ci}] has ${q(arg)} = ${show(actual)} where the plan wants ${show(planned)}`);
          }
        }
        for (const arg of held) {
          if (!(arg in step.args) && args[arg] === undefined) problems.push(`withheld ${q(arg)} was not obtained (calls[${ci}] lacks it)`);
        }
        for (const link of step.links) {
          const sources = achieved[link.fromStep];
          if (link.fromStep >= s || sources === undefined) {
            problems.push(`link ${q(link.arg)} points to steps[${link.fromStep}], which does not come before`);
            continue;
          }
          if (sources.length === 0) {
            problems.push(`cannot check link ${q(link.arg)}: steps[${link.fromStep}] was not achieved`);
            continue;
          }
          const earlier = sources.filter((src) => (indexOf.get(src) ?? 0) < ci);
          if (earlier.length === 0) {
            problems.push(`calls[${ci}] comes before any call that achieved steps[${link.fromStep}], so ${q(link.arg)} cannot come from its result`);
            continue;
          }
          const found = earlier.map((src) => ({ src, at: valueAt(src.result.body, link.field) }));
          const withValue = found.filter((f) => f.at.found);
          if (withValue.length === 0) {
            problems.push(`field ${q(link.field)} is missing from the result of ${earlier.map((src) => `calls[${indexOf.get(src)}]`).join(", ")} (steps[${link.fromStep}])`);
            continue;
          }
          const actual = args[link.arg];
          if (!withValue.some((f) => valuesMatch(f.at.value, actual))) {
            const f = withValue[withValue.length - 1];
            problems.push(`calls[${ci}] has ${q(link.arg)} = ${show(actual)} but the result of calls[${indexOf.get(f?.src as CallRecord)}] (steps[${link.fromStep}]) has ${show(f?.at.value)} at ${q(link.field)}`);
          }
        }
        return problems;
      };
      const judged = ok.map((c) => ({ c, problems: problemsOf(c) }));
      const good = judged.filter((j) => j.problems.length === 0).map((j) => j.c);
      achieved.push(good);
      if (good.length === 0) {
        const closest = judged.reduce((best, j) => (j.problems.length < best.problems.length ? j : best));
        for (const p of closest.problems) reasons.push(`${where}: ${p}`);
      }
    });
  });
  return reasons;
}

/** Where a value stands in the dialogue or the observations (word-bounded, case-insensitive; numbers by value). */
function foundIn(hay: Haystack, value: unknown): boolean {
  if (typeof value === "boolean" || value === null || value === undefined) return true;
  if (typeof value === "number") return hay.numbers.some((x) => Math.abs(x - value) <= 1e-9 * Math.max(1, Math.abs(value))) || containsBounded(hay.text, String(value));
  if (typeof value === "string") return containsBounded(hay.text, norm(value));
  if (Array.isArray(value)) return value.every((v) => foundIn(hay, v));
  if (isObject(value)) return Object.values(value).every((v) => foundIn(hay, v));
  return true;
}

/**
 * Calls the plan does not ask for: a call of a tool no step of its request plans that changes something (a
 * read, such as a search that finds an id for a chain, is harmless), and arguments no step plans whose
 * values appear nowhere in the dialogue or the observations (invented optional values).
 */
function offPlanCalls(episode: EpisodeTranscript, indexOf: ReadonlyMap<CallRecord, number>): string[] {
  const reasons: string[] = [];
  let hay: Haystack | undefined;
  for (const rec of episode.calls) {
    const request = episode.plan.requests[rec.request];
    if (!request || rec.call.name === TOOL_SEARCHER || rec.result.source === "route") continue;
    const ci = indexOf.get(rec) ?? -1;
    const steps = request.steps.filter((st) => sameTool(rec, st));
    if (steps.length === 0) {
      const method = rec.result.operation?.method ?? "get";
      if (method !== "get" && method !== "head") reasons.push(`requests[${rec.request}] calls[${ci}] ${q(rec.call.name)} is not in the plan and changes something (${method.toUpperCase()})`);
      continue;
    }
    const args = callArguments(rec.call) ?? {};
    for (const [arg, value] of Object.entries(args)) {
      if (steps.some((st) => arg in st.args || st.links.some((l) => l.arg === arg))) continue;
      // A credential the harness filled in is not the assistant's invention.
      if (rec.supplied?.includes(arg)) continue;
      hay ??= buildHaystack(episode);
      if (!foundIn(hay, value)) reasons.push(`requests[${rec.request}] calls[${ci}] ${q(rec.call.name)} has ${q(arg)} = ${show(value)}, which the plan does not ask for and no message or observation gives`);
    }
  }
  return reasons;
}

// ---------------------------------------------------------------------------------------------- tester

/** The default rule stages. */
export const defaultRuleStages: RuleStages = {
  format: checkFormat,
  execution: checkExecution,
  consistency: checkConsistency,
  grounding: checkGrounding,
  plan: checkPlan,
};

const STAGE_ORDER = ["format", "execution", "consistency", "grounding", "plan"] as const satisfies readonly TesterStage[];

/**
 * The offline tester: judges a transcript with rules in five stages (format, execution, consistency,
 * grounding, plan).
 * Every stage runs and records its reasons; the episode is accepted when all pass, and `failedStage` names
 * the first that failed.
 */
export class RuleTester implements Tester {
  private readonly stages: RuleStages;

  constructor(stages: Partial<RuleStages> = {}) {
    this.stages = { ...defaultRuleStages, ...stages };
  }

  /** Judges synchronously (the rules need no I/O). */
  judgeNow(episode: EpisodeTranscript, ctx?: AgentContext): Verdict {
    const stages: StageVerdict[] = STAGE_ORDER.map((stage) => {
      let reasons: string[];
      try {
        reasons = this.stages[stage](episode, ctx);
      } catch (err) {
        reasons = [`the ${stage} check crashed: ${q(err instanceof Error ? err.message : String(err))}`];
      }
      return { stage, pass: reasons.length === 0, reasons };
    });
    const failed = stages.find((s) => !s.pass);
    return failed ? { accepted: false, stages, failedStage: failed.stage } : { accepted: true, stages };
  }

  judge(episode: EpisodeTranscript, ctx?: AgentContext): Promise<Verdict> {
    return Promise.resolve(this.judgeNow(episode, ctx));
  }
}
