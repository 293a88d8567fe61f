import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { AgentContext } from "../roles/agent-context.js";
import { messageText } from "../assistant/dialogue-messages.js";
import { parseLooseJson } from "../parse/loose-json.js";
import type { RunInstructions } from "../llm/llm-run-instructions.js";
import { NearDuplicateIndex } from "../language/near-duplicates.js";
import { OfflineUser } from "./offline-user.js";
import type { PlannerOptions } from "./offline-planner.js";
import type { Plan, PlanRequest } from "../roles/plan.js";
import { plannedValues, relevance, type PlannedValue } from "./reply-composer.js";
import type { UserAgent, UserTurn } from "../roles/roles.js";
import type { Toolbox } from "../roles/toolbox.js";
import { humanize } from "../language/words.js";
import { isObject } from "../../specs/json-object.js";

// ------------------------------------------------------------------------------------------- prompts

/**
 * The instruction-writing prompt. After ToolAlpaca's user prompt (figure 8) and ToolLLM's single- and
 * multi-tool instruction prompts (appendix A.7), improved: the model verbalizes a planned goal (the
 * simulation knows the operations and values, so the tester can check the dialogue) instead of
 * brainstorming one; it never sees tool names; values it must state and values it must keep back are
 * listed; it writes several candidates in different forms and the caller picks one.
 */
export const LLM_USER_INSTRUCTION_PROMPT = [
  "You play a user who asks an AI assistant for help in everyday life. The assistant can use web services; you only describe what you want.",
  "Write {n} different versions of one request that asks for the goal described below.",
  "Rules:",
  "1. 1 to 2 natural sentences each. Vary the form: a question, an imperative, a first-person statement (\"I need ...\"), with different verbs and openings.",
  "2. Never mention APIs, services, tools, functions, endpoints or parameter names; say what you want in plain words.",
  "3. State every value listed under \"Say\" concretely and exactly as written (names, numbers, dates, codes), so nothing is vague (\"a city\", \"some book\").",
  "4. Never reveal a value listed under \"Keep back\", nor hint at it: you will give it only if the assistant asks.",
  "5. When a step uses a result of an earlier step, ask for it naturally (\"...and then show me the details of the first one\").",
  "6. Ask only for this goal; no placeholders, no extra requests.",
  'Output only JSON: {"instructions": ["...", "..."]}',
].join("\n");

/**
 * The reply prompt. After ToolAlpaca's additional-information prompt (figure 9), improved: the user's
 * planned values are given so the reply is consistent with the goal (and checkable), it answers only
 * what is asked, and the output is the bare message (no "[User]:" prefix to strip).
 */
export const LLM_USER_REPLY_PROMPT = [
  "You play the user in a conversation with an AI assistant that works for you. The assistant has just asked you something.",
  "Answer as the user, in 1 to 2 short sentences: directly give the values it asks for, exactly as written in your notes.",
  "Never invent values that are not in your notes, never mention tools or APIs, never add new requests. If it asks you to confirm, confirm.",
  "Output only your message.",
].join("\n");

// ------------------------------------------------------------------------------------------- value checks

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

function flat(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[_\-–—]+/g, " ").replace(/\s+/g, " ");
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a phrase occurs in a text not glued to letters or digits. */
function hasPhrase(hay: string, phrase: string): boolean {
  return new RegExp(`(^|[^a-z0-9])${escapeRe(phrase)}([^a-z0-9]|$)`).test(hay);
}

/** Ways a date may be written: ISO, `May 1, 2024`, `1 May 2024`, `May 1st`. */
function dateForms(iso: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return [];
  const [, y, mo, d] = m;
  const month = MONTHS[Number(mo) - 1];
  if (!month) return [];
  const day = String(Number(d));
  const short = month.slice(0, 3);
  return [`${month} ${day}`, `${short} ${day}`, `${day} ${month}`, `${day} ${short}`, `${month} ${day}st`, `${month} ${day}nd`, `${month} ${day}rd`, `${month} ${day}th`, `${day}th of ${month}`, `${day}st of ${month}`, `${day}nd of ${month}`, `${day}rd of ${month}`, `${mo}/${d}/${y}`, `${d}/${mo}/${y}`].map((f) => f.toLowerCase());
}

/** Whether a text states a value (case-, hyphen- and spacing-insensitive; numbers as digits; dates also in words). */
export function mentionsValue(text: string, value: unknown): boolean {
  if (value === null || value === undefined || typeof value === "boolean") return true;
  const hay = flat(text);
  if (typeof value === "number") {
    const forms = [String(value), value.toLocaleString("en-US")];
    return forms.some((f) => new RegExp(`(?<![\\d.])${escapeRe(f)}(?![\\d]|\\.\\d)`).test(text));
  }
  if (typeof value === "string") {
    const v = flat(value).trim();
    if (v === "") return true;
    if (hay.includes(v)) return true;
    const dates = dateForms(value);
    return dates.some((f) => hasPhrase(hay, f));
  }
  if (Array.isArray(value)) return value.every((v) => mentionsValue(text, v));
  if (isObject(value)) return Object.values(value).every((v) => mentionsValue(text, v));
  return true;
}

/** Whether a text gives a withheld value away (a stricter test than {@link mentionsValue}: whole words only). */
export function leaksValue(text: string, value: unknown): boolean {
  if (typeof value === "string") {
    const v = flat(value).trim();
    if (v.length < 2) return false;
    if (hasPhrase(flat(text), v)) return true;
    const dates = dateForms(value);
    return dates.some((f) => hasPhrase(flat(text), f));
  }
  if (typeof value === "number") return mentionsValue(text, value);
  if (Array.isArray(value)) return value.some((v) => leaksValue(text, v));
  if (isObject(value)) return Object.values(value).some((v) => leaksValue(text, v));
  return false;
}

/** Tool names that read as identifiers (`searchBooks`, `get_weather`), which a user would never say. */
function identifierNames(toolbox: Toolbox, request: PlanRequest): string[] {
  const names = new Set<string>();
  for (const step of request.steps) {
    const entry = toolbox.get(step.tool);
    for (const n of [step.tool, entry?.tool.name, entry?.tool.operation.operationId]) {
      if (n && n.length >= 5 && (/[a-z][A-Z]/.test(n) || /[_-]/.test(n))) names.add(n.toLowerCase());
    }
  }
  return [...names];
}

// ------------------------------------------------------------------------------------------- user

/** What the LLM user did for one instruction or reply (accounting, journals, tests). */
export interface LlmUserOutcome {
  kind: "instruction" | "reply";
  episodeId: string;
  request: number;
  text: string;
  /** Who wrote the text: the model, or the offline renderer / composer after the model's texts were refused. */
  source: "llm" | "offline";
  /** Model calls made. */
  calls: number;
  /** Why candidates were refused, and fallbacks. */
  notes: string[];
}

/** Options of {@link LlmUser}. */
export interface LlmUserOptions {
  model: BaseChatModel;
  /** The planner's knobs (plans come from the offline planner). */
  planner?: PlannerOptions;
  /** Candidate instructions asked per model call (default 3). */
  candidates?: number;
  /** Model calls per instruction before falling back to the offline renderer (default 3). */
  maxAttempts?: number;
  /** Similarity at or above which an instruction is a near-duplicate of an earlier one (default 0.8). */
  duplicateThreshold?: number;
  /**
   * The run's instructions, shared by the users of a run's episodes: near-duplicates of earlier episodes'
   * instructions are dropped, and the choice waits for the earlier episodes' choices, so that it does not
   * depend on which episode finished first (see {@link RunInstructions}). `createLlmAgents` passes one.
   */
  history?: RunInstructions;
  /**
   * Without `history`: the instructions to compare with (default: this user's own). Shared by users of
   * concurrent episodes, the choice would depend on completion order: use `history` for that.
   */
  duplicates?: NearDuplicateIndex;
  /** Call options for every invocation (callbacks, tags, timeouts...). */
  callOptions?: Partial<BaseChatModelCallOptions>;
  instructionPrompt?: string;
  replyPrompt?: string;
  /** What to do when the model call fails: fall back to the offline user (default) or throw. */
  onModelError?: "fallback" | "throw";
  /** Sees every instruction and reply with where it came from and why candidates were refused. */
  onOutcome?: (outcome: LlmUserOutcome, ctx: AgentContext) => void;
}

function short(text: string, n = 120): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 3)}...` : t;
}

function valueJson(v: unknown): string {
  return JSON.stringify(v) ?? "null";
}

function label(v: PlannedValue): string {
  const h = humanize(v.arg);
  return h === "q" ? "search text" : h;
}

/** The candidates in a model's answer: `{"instructions": [...]}`, a JSON list, or numbered lines. */
export function parseInstructions(text: string): string[] {
  const parsed = parseLooseJson(text);
  const fromList = (list: unknown[]): string[] =>
    list
      .map((x) => (typeof x === "string" ? x : isObject(x) ? (["instruction", "text", "query", "request"].map((k) => x[k]).find((v) => typeof v === "string") as string | undefined) : undefined))
      .filter((x): x is string => x !== undefined);
  if (parsed.ok) {
    const v = parsed.value;
    if (Array.isArray(v)) return fromList(v).map((s) => s.trim()).filter((s) => s !== "");
    if (isObject(v)) {
      const list = ["instructions", "queries", "requests", "candidates"].map((k) => v[k]).find(Array.isArray);
      if (list) return fromList(list).map((s) => s.trim()).filter((s) => s !== "");
      const single = ["instruction", "text", "query"].map((k) => v[k]).find((x) => typeof x === "string");
      if (typeof single === "string") return [single.trim()];
    }
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)]|query\s*\d*:|instruction\s*\d*:)\s*/i, "").trim().replace(/^["“](.*)["”]$/, "$1").trim())
    .filter((l) => l.length >= 8 && !/^```|^\{|^\}|^\[|^\]/.test(l));
}

/**
 * The LLM user: its hidden goal comes from the offline planner (a structured plan the tester checks);
 * the model puts it into words after ToolAlpaca (figure 8) and ToolLLM: several candidates per call in
 * varied forms, no API names, concrete values. Candidates that leak a withheld value, name a tool, miss a
 * planned value or nearly repeat an earlier instruction of the run are dropped and new ones asked for (a
 * bounded number of times), else the offline renderer writes the instruction. Replies to the assistant's
 * questions (figure 9) are checked to hold the value asked for, else the offline composer answers.
 */
export class LlmUser implements UserAgent {
  private readonly offline: OfflineUser;
  /** This user's instructions so far, when no run `history` is given (near-duplicates are dropped). */
  readonly duplicates: NearDuplicateIndex;

  constructor(private readonly options: LlmUserOptions) {
    this.offline = new OfflineUser(options.planner ?? {});
    this.duplicates = options.duplicates ?? new NearDuplicateIndex({ threshold: options.duplicateThreshold ?? 0.8 });
  }

  plan(ctx: AgentContext): Promise<Plan> {
    return this.offline.plan(ctx);
  }

  private async invoke(messages: BaseMessage[]): Promise<string> {
    const reply = await this.options.model.invoke(messages, this.options.callOptions);
    return messageText(reply);
  }

  private report(outcome: LlmUserOutcome, ctx: AgentContext): void {
    this.options.onOutcome?.(outcome, ctx);
  }

  /** The goal of a request as the model reads it: what each step does, the values to say, keep back, or take from results. */
  goalText(request: PlanRequest, toolbox: Toolbox): string {
    const values = plannedValues(request, toolbox);
    const lines: string[] = [];
    const service = toolbox.get(request.steps[0]?.tool ?? "")?.toolset;
    if (service && service.description.trim() !== "") lines.push(`Service: ${short(service.description, 300)}`);
    request.steps.forEach((step, i) => {
      const entry = toolbox.get(step.tool);
      const what = entry ? short(entry.tool.description || humanize(entry.tool.name), 240) : humanize(step.tool);
      lines.push(`Step ${i + 1}: ${what}`);
      for (const v of values.filter((x) => x.step === i)) {
        const about = v.info?.description ? ` (${short(v.info.description, 100)})` : "";
        if (v.link) lines.push(`  From step ${v.link.fromStep + 1}'s result: ${label(v)}${about}`);
        else if (v.withheld) lines.push(`  Keep back: ${label(v)}${about}`);
        else lines.push(`  Say: ${label(v)}${about} = ${valueJson(v.value)}`);
      }
    });
    return lines.join("\n");
  }

  /** Why a candidate instruction is refused, or undefined when it is usable. */
  private refusal(text: string, request: PlanRequest, toolbox: Toolbox): string | undefined {
    if (text.length < 8) return "too short";
    if (text.length > 700) return "too long";
    const values = plannedValues(request, toolbox);
    for (const v of values.filter((x) => x.withheld)) {
      if (leaksValue(text, v.value)) return `reveals the kept-back ${label(v)} ${valueJson(v.value)}`;
    }
    const lower = text.toLowerCase();
    const named = identifierNames(toolbox, request).find((n) => lower.includes(n));
    if (named !== undefined) return `names the tool "${named}"`;
    for (const v of values.filter((x) => !x.withheld && !x.link)) {
      if (!mentionsValue(text, v.value)) return `does not state ${label(v)} ${valueJson(v.value)}`;
    }
    if (/\{\{|\[[A-Z_ ]+\]|<[a-z_ ]+>|\bxxx\b/i.test(text)) return "has a placeholder";
    return undefined;
  }

  async instruct(turn: UserTurn, ctx: AgentContext): Promise<string> {
    const request = turn.plan.requests[turn.request];
    if (!request) throw new RangeError(`the plan has no request ${turn.request}`);
    const n = Math.max(1, this.options.candidates ?? 3);
    const maxAttempts = Math.max(1, this.options.maxAttempts ?? 3);
    const earlier = turn.dialogue.filter((m) => m.role === "user").map((m) => m.content);
    const user = [
      `Goal:\n${this.goalText(request, ctx.toolbox)}`,
      earlier.length > 0 ? `This is a follow-up in the same conversation; your earlier messages were:\n${earlier.map((e) => `- ${short(e, 200)}`).join("\n")}\nDo not repeat them.` : "",
      `Preferred form of the first version: ${request.style === "first-person" ? "a first-person statement" : request.style === "question" ? "a question" : "an imperative"}.`,
    ].filter((s) => s !== "").join("\n\n");
    const messages: BaseMessage[] = [new SystemMessage((this.options.instructionPrompt ?? LLM_USER_INSTRUCTION_PROMPT).replace("{n}", String(n))), new HumanMessage(user)];
    const notes: string[] = [];
    let calls = 0;
    const history = this.options.history;
    const last = turn.request === turn.plan.requests.length - 1;
    // With a run history, the near-duplicate check and the choice wait for the earlier episodes' choices.
    let inTurn = false;
    const takeTurn = async (): Promise<void> => {
      if (history && !inTurn) await history.turn(ctx.index, turn.request);
      inTurn = true;
    };
    const nearest = (text: string): { similarity: number; text?: string } => (history ? history.nearest(text, ctx.index, turn.request) : this.duplicates.nearest(text));
    const threshold = history ? history.threshold : this.duplicates.threshold;
    let decided = false;
    const keep = (text: string): void => {
      if (history) history.add(ctx.index, turn.request, text, last);
      else this.duplicates.add(text);
      decided = true;
    };
    try {
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        let text: string;
        try {
          calls++;
          text = await this.invoke(messages);
        } catch (err) {
          if (this.options.onModelError === "throw") throw err;
          notes.push(`llm unavailable: ${short(err instanceof Error ? err.message : String(err))}`);
          break;
        }
        const candidates = parseInstructions(text).map((c) => c.replace(/\s+/g, " ").trim());
        const problems: string[] = [];
        const fit: string[] = [];
        if (candidates.length === 0) problems.push("no instruction could be read from the answer");
        for (const c of candidates) {
          const why = this.refusal(c, request, ctx.toolbox);
          if (why !== undefined) problems.push(`"${short(c, 80)}" ${why}`);
          else fit.push(c);
        }
        const usable: { text: string; similarity: number }[] = [];
        if (fit.length > 0) await takeTurn();
        for (const c of fit) {
          const near = nearest(c);
          if (near.similarity >= threshold) {
            problems.push(`"${short(c, 80)}" is a near-duplicate of an earlier request ("${short(near.text ?? "", 80)}")`);
            continue;
          }
          usable.push({ text: c, similarity: near.similarity });
        }
        notes.push(...problems.map((p) => `attempt ${attempt + 1}: ${p}`));
        if (usable.length > 0) {
          // The candidate least like the run's earlier instructions (the first on ties).
          const chosen = usable.reduce((best, u) => (u.similarity < best.similarity ? u : best));
          keep(chosen.text);
          this.report({ kind: "instruction", episodeId: ctx.episodeId, request: turn.request, text: chosen.text, source: "llm", calls, notes }, ctx);
          return chosen.text;
        }
        messages.push(new AIMessage(text), new HumanMessage(`None of these can be used:\n${problems.map((p) => `- ${p}`).join("\n")}\nWrite ${n} new, differently worded versions that follow the rules. Output only JSON: {"instructions": [...]}`));
      }
      const text = await this.offline.instruct(turn, ctx);
      notes.push(`llm instruction unusable after ${calls} call(s): offline renderer used`);
      await takeTurn();
      keep(text);
      this.report({ kind: "instruction", episodeId: ctx.episodeId, request: turn.request, text, source: "offline", calls, notes }, ctx);
      return text;
    } finally {
      // Failed before choosing (an error thrown): later episodes must not wait for this request.
      if (history && !decided) history.pass(ctx.index, turn.request, last);
    }
  }

  /** The planned values a question asks for: by name, words and description (as the offline composer scores them), else the withheld ones. */
  askedValues(question: string, request: PlanRequest, toolbox: Toolbox): PlannedValue[] {
    const values = plannedValues(request, toolbox);
    const scored = values.map((v) => ({ v, score: relevance(question, v) + (v.withheld ? 0.75 : 0) }));
    const best = Math.max(0, ...scored.map((s) => s.score));
    if (best >= 1.5) return scored.filter((s) => s.score >= 1.5 && s.score >= best - 1.25).sort((a, b) => b.score - a.score).slice(0, 3).map((s) => s.v);
    return values.filter((v) => v.withheld);
  }

  async reply(question: string, turn: UserTurn, ctx: AgentContext): Promise<string> {
    const request = turn.plan.requests[turn.request];
    if (!request) return this.offline.reply(question, turn, ctx);
    const values = plannedValues(request, ctx.toolbox);
    const asked = this.askedValues(question, request, ctx.toolbox);
    const notesLines = values.map((v) => (v.link ? `- ${label(v)}: the one from the earlier result (e.g. the first result)` : `- ${label(v)}: ${valueJson(v.value)}${v.withheld ? " (not told yet)" : ""}`));
    const history = turn.dialogue
      .filter((m) => m.role !== "tool")
      .slice(-8)
      .map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${short(m.content, 400)}`);
    const user = [
      `Your notes (what you want):\n${this.goalText(request, ctx.toolbox)}\nValues:\n${notesLines.join("\n")}`,
      history.length > 0 ? `Conversation so far:\n${history.join("\n")}` : "",
      `The assistant asks: ${question}`,
      asked.length > 0 ? `Give: ${asked.map((v) => (v.link ? `${label(v)} (from the earlier result)` : `${label(v)} = ${valueJson(v.value)}`)).join("; ")}` : "",
    ].filter((s) => s !== "").join("\n\n");
    const notes: string[] = [];
    let text = "";
    try {
      text = await this.invoke([new SystemMessage(this.options.replyPrompt ?? LLM_USER_REPLY_PROMPT), new HumanMessage(user)]);
    } catch (err) {
      if (this.options.onModelError === "throw") throw err;
      notes.push(`llm unavailable: ${short(err instanceof Error ? err.message : String(err))}`);
    }
    text = text.replace(/^\s*\[?user\]?\s*:\s*/i, "").trim().replace(/^"(.*)"$/s, "$1").trim();
    if (notes.length === 0) {
      const missing = asked.filter((v) => !v.link && !mentionsValue(text, v.value));
      if (text === "") notes.push("llm reply is empty");
      else if (missing.length > 0) notes.push(`llm reply lacks ${missing.map((v) => `${label(v)} ${valueJson(v.value)}`).join(", ")}`);
    }
    if (notes.length === 0) {
      this.report({ kind: "reply", episodeId: ctx.episodeId, request: turn.request, text, source: "llm", calls: 1, notes }, ctx);
      return text;
    }
    const fallback = await this.offline.reply(question, turn, ctx);
    notes.push("offline composer used");
    this.report({ kind: "reply", episodeId: ctx.episodeId, request: turn.request, text: fallback, source: "offline", calls: 1, notes }, ctx);
    return fallback;
  }
}
