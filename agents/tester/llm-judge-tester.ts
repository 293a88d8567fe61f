import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { AgentContext } from "../roles/agent-context.js";
import { messageText } from "../assistant/dialogue-messages.js";
import { parseLooseJson } from "../parse/loose-json.js";
import { RuleTester, type RuleStages } from "./offline-tester.js";
import type { EpisodeTranscript, Tester } from "../roles/roles.js";
import type { Toolbox } from "../roles/toolbox.js";
import type { StageVerdict, Verdict } from "../roles/verdict.js";
import { isObject, type Json } from "../../specs/json-object.js";
import { JUDGE_ANSWERS, VERDICT_WORDS } from "../language/lexicon/judgements.js";
import { stemAtStart, wordAtStart } from "../language/word-patterns.js";

const q = (v: unknown): string => JSON.stringify(typeof v === "string" ? v : v === undefined ? null : v) ?? "null";

/**
 * The judge's system prompt. After ToolAlpaca's evaluation prompt (figure 12: process correctness and
 * final response correctness against a standard answer) and ToolEval's pass rules (ToolLLM appendix A.5:
 * solvable vs unsolvable instructions, give-ups and refusals), improved: the standard answer is the
 * user's planned goal, the judge is asked about grounding explicitly, and it answers in one JSON object.
 */
export const LLM_JUDGE_PROMPT = [
  "You review a dialogue between a user and an AI assistant that calls tools (REST APIs), to decide whether it is a correct example of tool use.",
  "First decide whether the user's request is solvable: at least one tool can serve it and the user gave valid information.",
  "Process correctness: the calls cover every step of the standard answer (the user's planned goal), with the values the user gave (values the user never mentioned may differ);",
  "retrying after an error and asking the user for missing values are fine; calls unrelated to the request are not.",
  "Response correctness: the final answer resolves the request completely, using only information from the tool results and the user; invented facts fail.",
  "Pass rules. Solvable: pass when the final answer resolves the request; a give-up or refusal passes only if the tools returned errors or nothing useful after all relevant tools were tried; otherwise fail.",
  "Unsolvable: a refusal or give-up that explains why passes; claiming success that the tool results do not support fails.",
  "If you cannot tell, the verdict is unsure.",
  'Output only JSON: {"solvable": true|false, "process": "yes"|"no"|"uncertain", "response": "yes"|"no"|"uncertain", "verdict": "pass"|"fail"|"unsure", "reason": "<one sentence>"}',
].join("\n");

/** One judge's vote: a verdict with its parts, or an abstention (unparseable answer, model error). */
export interface JudgeVote {
  verdict: "pass" | "fail" | "unsure" | "abstain";
  solvable?: boolean;
  process?: "yes" | "no" | "uncertain";
  response?: "yes" | "no" | "uncertain";
  reason: string;
}

const ANSWER_YES = wordAtStart(JUDGE_ANSWERS.yes, "");
const ANSWER_NO = wordAtStart(JUDGE_ANSWERS.no, "");
const ANSWER_UNCERTAIN = stemAtStart(JUDGE_ANSWERS.uncertain);
const VERDICT_PASS = wordAtStart(VERDICT_WORDS.pass, "");
const VERDICT_FAIL = wordAtStart(VERDICT_WORDS.fail, "");
const VERDICT_UNSURE = wordAtStart(VERDICT_WORDS.unsure, "");

function yesNo(v: unknown): "yes" | "no" | "uncertain" | undefined {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v !== "string") return undefined;
  const s = v.trim().toLowerCase();
  if (ANSWER_YES.test(s)) return "yes";
  if (ANSWER_NO.test(s)) return "no";
  if (ANSWER_UNCERTAIN.test(s)) return "uncertain";
  return undefined;
}

function verdictWord(v: unknown): "pass" | "fail" | "unsure" | undefined {
  if (typeof v === "boolean") return v ? "pass" : "fail";
  if (typeof v !== "string") return undefined;
  const s = v.trim().toLowerCase();
  if (VERDICT_PASS.test(s)) return "pass";
  if (VERDICT_FAIL.test(s)) return "fail";
  if (VERDICT_UNSURE.test(s)) return "unsure";
  return undefined;
}

function fromParts(process: JudgeVote["process"], response: JudgeVote["response"]): "pass" | "fail" | "unsure" | undefined {
  if (process === undefined && response === undefined) return undefined;
  if (process === "no" || response === "no") return "fail";
  if (process === "yes" && response === "yes") return "pass";
  return "unsure";
}

function pick(o: Json, keys: readonly string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  const lower = new Map(Object.entries(o).map(([k, v]) => [k.toLowerCase().replace(/[\s_-]/g, ""), v]));
  for (const k of keys) {
    const v = lower.get(k.toLowerCase().replace(/[\s_-]/g, ""));
    if (v !== undefined) return v;
  }
  return undefined;
}

function shortText(text: string, n = 200): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 3)}...` : t;
}

/**
 * Reads a judge's answer forgivingly: the JSON verdict (in fences or prose too, with synonyms for its
 * keys), ToolAlpaca's `Process Correctness: Yes / Final Response Correctness: Yes` lines, or a bare
 * `Pass` / `Fail`. Anything else is an abstention.
 */
export function parseJudgeVote(text: string): JudgeVote {
  const parsed = parseLooseJson(text);
  if (parsed.ok && isObject(parsed.value)) {
    const o = parsed.value;
    const process = yesNo(pick(o, ["process", "process_correctness", "processCorrectness"]));
    const response = yesNo(pick(o, ["response", "final_response", "response_correctness", "final_response_correctness", "finalResponseCorrectness"]));
    const solvableRaw = pick(o, ["solvable", "is_solvable"]);
    const solvable = typeof solvableRaw === "boolean" ? solvableRaw : yesNo(solvableRaw) === "yes" ? true : yesNo(solvableRaw) === "no" ? false : undefined;
    const verdict = verdictWord(pick(o, ["verdict", "label", "result", "pass", "decision", "answer"])) ?? fromParts(process, response);
    const reasonRaw = pick(o, ["reason", "explanation", "analysis", "rationale"]);
    if (verdict !== undefined) {
      return {
        verdict,
        ...(solvable !== undefined ? { solvable } : {}),
        ...(process !== undefined ? { process } : {}),
        ...(response !== undefined ? { response } : {}),
        reason: typeof reasonRaw === "string" ? shortText(reasonRaw) : "",
      };
    }
  }
  const processLine = /process\s+correctness\s*[:：]\s*\**\s*(yes|no|uncertain)/i.exec(text);
  const responseLine = /(?:final\s+)?response\s+correctness\s*[:：]\s*\**\s*(yes|no|uncertain)/i.exec(text);
  const process = yesNo(processLine?.[1]);
  const response = yesNo(responseLine?.[1]);
  const verdictLine = /\b(?:verdict|label|result|decision)\s*[:：]\s*\**\s*(pass(?:ed)?|fail(?:ed)?|unsure)\b/i.exec(text);
  const bare = /^\W*(pass(?:ed)?|fail(?:ed)?|unsure)\W*$/i.exec(text.trim());
  const verdict = verdictWord(verdictLine?.[1] ?? bare?.[1]) ?? fromParts(process, response);
  if (verdict !== undefined) {
    const analysis = /##\s*analysis\s*([\s\S]*?)(?:##|$)/i.exec(text)?.[1] ?? "";
    return { verdict, ...(process !== undefined ? { process } : {}), ...(response !== undefined ? { response } : {}), reason: shortText(analysis) };
  }
  return { verdict: "abstain", reason: text.trim() === "" ? "empty answer" : `unparseable answer ${q(shortText(text, 80))}` };
}

/** Options of {@link LlmJudgeTester}. */
export interface LlmJudgeTesterOptions {
  model: BaseChatModel;
  /** Votes per episode; the majority of the votes cast decides (default 3). */
  k?: number;
  /** Run the judge when a rule stage already failed (default false: the episode is rejected anyway). */
  judgeAfterRuleFailure?: boolean;
  /** Replace rule stages (as {@link RuleTester} takes them). */
  rules?: Partial<RuleStages>;
  /** Call options for every invocation (callbacks, tags, timeouts...). */
  callOptions?: Partial<BaseChatModelCallOptions>;
  systemPrompt?: string;
  /** Longest transcript shown to the judge (default 12000 characters). */
  maxTranscriptChars?: number;
  /** Cast the k votes at once (default true) or one after another. */
  parallel?: boolean;
}

function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n)}… (${text.length - n} more characters)` : text;
}

function toolsText(episode: EpisodeTranscript, toolbox: Toolbox | undefined): string {
  if (!toolbox) return "";
  const toolsets = new Set<string>([...episode.plan.requests.flatMap((r) => r.steps.map((s) => s.toolset)), ...episode.calls.map((c) => c.toolset).filter((t): t is string => t !== undefined)]);
  const entries = toolbox.entries.filter((e) => toolsets.size === 0 || toolsets.has(e.toolset.name)).slice(0, 30);
  return entries.map((e) => `- ${e.name}: ${shortText(e.description, 160)}`).join("\n");
}

/** The episode as the judge reads it: tools, the standard answer (the plan), the dialogue and how each request ended. */
export function judgeTranscript(episode: EpisodeTranscript, toolbox?: Toolbox, maxChars = 12_000): string {
  const parts: string[] = [];
  const tools = toolsText(episode, toolbox);
  if (tools !== "") parts.push(`## Tools\n${tools}`);
  const plan = episode.plan.requests.map((r, i) => {
    const steps = r.steps.map((s, j) => {
      const links = s.links.map((l) => `${l.arg} from step ${l.fromStep + 1}'s result at ${q(l.field)}`);
      return `  ${j + 1}. ${s.tool} ${JSON.stringify(s.args)}${links.length > 0 ? ` (${links.join("; ")})` : ""}`;
    });
    const held = r.withheld.length > 0 ? `\n  (values the user gives only when asked: ${r.withheld.join(", ")})` : "";
    return `Request ${i + 1}:\n${steps.join("\n")}${held}`;
  });
  parts.push(`## Standard answer (the user's planned goal)\n${plan.join("\n")}`);
  const lines: string[] = [];
  for (const m of episode.dialogue) {
    if (m.role === "user") lines.push(`[User]: ${m.content}`);
    else if (m.role === "assistant") {
      if (m.content.trim() !== "") lines.push(`[Assistant]: ${clip(m.content, 1500)}`);
      for (const c of m.toolCalls ?? []) lines.push(`[Assistant calls] ${c.name} ${clip(typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments), 600)}`);
    } else {
      const body = m.result !== undefined ? `status ${m.result.status}: ${JSON.stringify(m.result.body) ?? ""}` : m.content;
      lines.push(`[Tool ${m.name}]: ${clip(body, 800)}`);
    }
  }
  parts.push(`## Dialogue\n${lines.join("\n")}`);
  const ends = episode.ends.map((e, i) => `Request ${i + 1}: ${e.kind === "final" ? "finished with a final answer" : e.kind === "give-up" ? `gave up (${e.reason})` : e.kind === "budget" ? `ran out of steps (${e.reason})` : `broke off with an error (${e.reason})`}`);
  if (episode.plan.requests.length > episode.ends.length) ends.push(`Requests ${episode.ends.length + 1}-${episode.plan.requests.length}: never reached`);
  parts.push(`## How it ended\n${ends.join("\n")}`);
  const text = parts.join("\n\n");
  if (text.length <= maxChars) return text;
  // Keep the head (tools, goal, first turns) and the end (final answers).
  const head = Math.floor(maxChars * 0.6);
  return `${text.slice(0, head)}\n… (${text.length - maxChars} characters left out) …\n${text.slice(text.length - (maxChars - head))}`;
}

/**
 * The LLM tester: the rule stages first (format, execution, grounding, plan), then a `judge` stage where
 * an LLM judge (ToolAlpaca figure 12, ToolEval pass rules) votes k times; the majority of the votes cast
 * decides, every vote is recorded in the reasons, and a stage where every judge abstained fails with
 * "judge unavailable".
 */
export class LlmJudgeTester implements Tester {
  private readonly rules: RuleTester;

  constructor(private readonly options: LlmJudgeTesterOptions) {
    this.rules = new RuleTester(options.rules ?? {});
  }

  async judge(episode: EpisodeTranscript, ctx?: AgentContext): Promise<Verdict> {
    const ruled = this.rules.judgeNow(episode, ctx);
    if (!ruled.accepted && this.options.judgeAfterRuleFailure !== true) return ruled;
    const judged = await this.judgeStage(episode, ctx);
    const stages = [...ruled.stages, judged];
    const failed = stages.find((s) => !s.pass);
    return failed ? { accepted: false, stages, failedStage: failed.stage } : { accepted: true, stages };
  }

  /** Asks the judge k times and counts the votes. */
  async judgeStage(episode: EpisodeTranscript, ctx?: AgentContext): Promise<StageVerdict> {
    const k = Math.max(1, Math.floor(this.options.k ?? 3));
    const transcript = judgeTranscript(episode, ctx?.toolbox, this.options.maxTranscriptChars);
    const system = this.options.systemPrompt ?? LLM_JUDGE_PROMPT;
    const vote = async (i: number): Promise<JudgeVote> => {
      try {
        // Each vote is its own request (caches and cassettes would otherwise return one answer k times).
        const reply = await this.options.model.invoke([new SystemMessage(`${system}\n(Independent review ${i + 1} of ${k}.)`), new HumanMessage(transcript)], this.options.callOptions);
        return parseJudgeVote(messageText(reply));
      } catch (err) {
        return { verdict: "abstain", reason: `model error ${q(shortText(err instanceof Error ? err.message : String(err), 120))}` };
      }
    };
    const votes: JudgeVote[] = [];
    if (this.options.parallel === false) for (let i = 0; i < k; i++) votes.push(await vote(i));
    else votes.push(...(await Promise.all(Array.from({ length: k }, (_, i) => vote(i)))));
    return tallyVotes(votes);
  }
}

/** The `judge` stage from votes: passes when more than half of the votes cast (abstentions left out) pass. */
export function tallyVotes(votes: readonly JudgeVote[]): StageVerdict {
  const count = (v: JudgeVote["verdict"]): number => votes.filter((x) => x.verdict === v).length;
  const pass = count("pass");
  const fail = count("fail");
  const unsure = count("unsure");
  const abstain = count("abstain");
  const cast = votes.length - abstain;
  const lines = votes.map((v, i) => {
    const parts = [v.solvable === undefined ? undefined : v.solvable ? "solvable" : "unsolvable", v.process ? `process ${v.process}` : undefined, v.response ? `response ${v.response}` : undefined].filter((p): p is string => p !== undefined);
    const head = v.verdict === "abstain" ? "abstained" : v.verdict;
    return `votes[${i}]: ${head}${parts.length > 0 ? ` (${parts.join(", ")})` : ""}${v.reason !== "" ? `: ${v.verdict === "abstain" ? v.reason : q(v.reason)}` : ""}`;
  });
  const tally = `${pass} pass, ${fail} fail, ${unsure} unsure, ${abstain} abstained of ${votes.length} votes`;
  if (cast === 0) return { stage: "judge", pass: false, reasons: ["judge unavailable", `judge: ${tally}`, ...lines] };
  const passed = pass * 2 > cast;
  return { stage: "judge", pass: passed, reasons: [`judge: ${passed ? "accepted" : "rejected"} by ${tally}`, ...lines] };
}
