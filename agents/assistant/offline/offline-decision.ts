import type { Json } from "../../../specs/json-object.js";
import { stableStringify } from "../../../specs/stable-stringify.js";
import { GIVE_UP_PREFIX } from "../dialogue-text.js";
import { goalOf, listPhrases, purposeOf } from "./ask-phrases.js";
import { repairArguments } from "./argument-repair.js";
import { failed, readHistory, succeeded, type Call, type RequestView } from "./dialogue-history.js";
import type { ChatMessageLike } from "./offline-types.js";
import { composeAnswer, describeFailure, emptyResultAnswer, type AnswerCall } from "./answer/offline-answer.js";
import { OfflineToolboxes, type OfflineToolbox } from "./offline-toolbox.js";
import { observations } from "./observations.js";
import { isIdParam } from "./param-traits.js";
import { discoveredTools, planSteps, withImplicitSearches, type RankNote } from "./request-plan.js";
import { fillArguments } from "./slot-filling.js";
import { contentStems } from "./tool-index.js";
import { isToolSearcherName } from "./tool-traits.js";
import { rankTools } from "./tool-ranking.js";
import type { OfflineToolSpec, Param } from "./offline-types.js";
import { isObject } from "../../../specs/json-object.js";

export type { ChatMessageLike } from "./dialogue-history.js";
export type { OfflineToolSpec } from "./tool-params.js";
export { humanize } from "./tool-params.js";
export { OfflineToolboxes } from "./offline-toolbox.js";

/*
 * The offline assistant: a deterministic tool-calling chat model. It reads only the LangChain messages it is
 * given (never the user's plan) and, each turn, either calls one tool, asks the user one question, answers, or
 * gives up. How it decides:
 *   1. the latest request (a user message after an answer; later user messages after questions are replies)
 *      is split into clauses ("find X, then show Y"); each clause gets the best tool by BM25 (minisearch over
 *      split tool names, descriptions, parameter names and enum values, with verb kinds and everyday
 *      concepts), re-ranked by how many of the user's values the tool can take (`request-plan.ts`, `tool-ranking.ts`);
 *   2. a step whose id nobody gave is preceded by a search tool that the user's words can fill;
 *   3. arguments are filled in stages across all parameters: values named or cued in the clause and in replies,
 *      then typed values (e-mails, dates, codes, ids), then earlier observations, then weaker guesses (`slot-filling.ts`);
 *   4. missing required values are asked for once, in plain words; still missing after that: the documented
 *      default, else give up; a failed call is repaired once from its validation errors, else explained;
 *   5. when every step succeeded, the answer summarises the results with their own values (`offline-answer.ts`).
 * Where it puts what:
 *   - tool calls in `AIMessage.tool_calls` (ids `call_<n>`, n counting every call in the conversation);
 *   - a short sentence about the next step in `AIMessage.additional_kwargs.thought`, and the matches, scores and
 *     where each argument came from in `additional_kwargs.debug` (never part of training text);
 *   - what the turn is in `AIMessage.additional_kwargs.intent`: "call" | "question" | "final" | "give-up";
 *   - questions end with "?", final answers never do, give-ups start with {@link GIVE_UP_PREFIX}.
 * This module is the decision alone, without LangChain: `OfflineChatModel` (offline-chat-model.ts) wraps it as a
 * LangChain chat model, and the offline assistant (offline-assistant.ts) calls it directly with plain messages.
 */

/** What one offline turn is. */
export type OfflineIntent = "call" | "question" | "final" | "give-up";

/** The decision of one turn, before it is wrapped in an AIMessage. */
export interface OfflineDecision {
  intent: OfflineIntent;
  /** The message text: empty for calls, the question, the answer, or `GIVE UP: reason`. */
  text: string;
  /** A short sentence about the next step. */
  thought: string;
  /** Why, for debugging: which tool matched with which scores, where each argument came from, what is missing. */
  debug?: string;
  calls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  /** For a question: the arguments it asks for (dot paths of nested ones). */
  asks?: string[];
}

/** Options of {@link decideOffline}. */
export interface DecideOptions {
  /** Tool calls allowed per user request before answering with what it has (default 6). */
  maxCallsPerRequest?: number;
  /** The toolboxes (and their caches) to use: an assistant keeps one for its life; without it, each call starts fresh. */
  toolboxes?: OfflineToolboxes;
}

/** A call as the answer reads it. */
function answerCall(c: Call): AnswerCall {
  const lengths = c.result?.lengths;
  return { name: c.name, args: typeof c.args === "string" ? {} : c.args, status: c.result?.status ?? 0, body: c.result?.body, ...(lengths !== undefined ? { lengths } : {}) };
}

/** The final answer: the successful calls of the request (not the catalogue searches) in sentences. */
function finalAnswer(request: RequestView): string {
  const ok = request.calls.filter((c) => succeeded(c) && !isToolSearcherName(c.name));
  return composeAnswer([request.text, ...request.replies.map((r) => r.text)].join("\n"), ok.map(answerCall));
}

/** A failed call in words: what could not be done, the status, and the service's own words. */
function explainError(call: Call): string {
  return describeFailure({ name: call.name, status: call.result?.status ?? 0, body: call.result?.body });
}

function isEmptyResult(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  if (!isObject(body)) return false;
  const arrays = Object.entries(body).filter(([, v]) => Array.isArray(v));
  return arrays.length > 0 && arrays.every(([, v]) => (v as unknown[]).length === 0);
}

function rankNoteText(n: RankNote): string {
  return `"${n.clause.slice(0, 60)}" -> ${n.tool} (${n.score.toFixed(2)}${n.runnerUp ? `, next ${n.runnerUp.tool} ${n.runnerUp.score.toFixed(2)}` : ""})`;
}

/** The tools ranked for a request text, best first (what the offline model would choose from; for tests and tuning). */
export function rankToolsFor(text: string, tools: readonly OfflineToolSpec[], toolboxes: OfflineToolboxes = new OfflineToolboxes()): Array<{ name: string; score: number }> {
  const box = toolboxes.for(tools);
  const req: RequestView = { text, facts: box.factsOf(text), replies: [], questions: [], calls: [] };
  return rankTools(box, box.index(tools), tools, text, "", req).map((r) => ({ name: tools[r.tool]?.name ?? "", score: Number(r.score.toFixed(3)) }));
}

/** Decides the next turn from the messages and the tools; pure and deterministic (caches aside, which change no result). */
export function decideOffline(messages: readonly ChatMessageLike[], boundTools: readonly OfflineToolSpec[], options: DecideOptions = {}): OfflineDecision {
  const box = (options.toolboxes ?? new OfflineToolboxes()).for(boundTools);
  return decideWith(box, messages, options.maxCallsPerRequest ?? 6);
}

function decideWith(box: OfflineToolbox, messages: readonly ChatMessageLike[], maxCallsPerRequest: number): OfflineDecision {
  const history = readHistory(box, messages);
  const req = history.current;
  const nextId = (): string => `call_${history.totalCalls + 1}`;
  const withDebug = (debug: string | undefined): { debug?: string } => (debug !== undefined && debug !== "" ? { debug } : {});
  const final = (text: string, thought: string, debug?: string): OfflineDecision => ({ intent: "final", text: text.replace(/\?\s*$/, "."), thought, ...withDebug(debug), calls: [] });
  const giveUp = (reason: string, thought: string, debug?: string): OfflineDecision => ({ intent: "give-up", text: `${GIVE_UP_PREFIX} ${reason}`, thought, ...withDebug(debug), calls: [] });
  const ask = (text: string, thought: string, debug?: string, asks?: string[]): OfflineDecision => ({ intent: "question", text, thought, ...withDebug(debug), calls: [], ...(asks ? { asks } : {}) });
  const call = (tool: OfflineToolSpec, args: Json, thought: string, debug?: string): OfflineDecision => ({
    intent: "call",
    text: "",
    thought,
    ...withDebug(debug),
    calls: [{ id: nextId(), name: tool.name, args: structuredClone(args) }],
  });

  if (!req || req.text.trim() === "") return giveUp("there is no request to act on.", "There is no request from the user yet.");
  const tools = [...box.tools, ...discoveredTools(history, box.tools)];
  if (tools.length === 0) return giveUp("I have no tools for this request.", "I have no tools, so I cannot do anything.");
  const userText = [req.text, ...req.replies.map((r) => r.text)].join("\n");
  const records = observations(history);

  // React to a failed call first: repair once, else explain.
  const lastCall = req.calls[req.calls.length - 1];
  if (history.last === "tool" && lastCall && failed(lastCall)) {
    const tool = tools.find((t) => t.name === lastCall.name);
    const failures = req.calls.filter((c) => c.name === lastCall.name && failed(c));
    if (tool && failures.length < 2 && typeof lastCall.args !== "string") {
      const repaired = repairArguments(box, tool, lastCall.args, lastCall.result?.body);
      if (repaired && !failures.some((f) => stableStringify(f.args) === stableStringify(repaired.args))) {
        return call(
          tool,
          repaired.args,
          `${lastCall.name} rejected the arguments, so I'll correct them and try again.`,
          `status ${lastCall.result?.status ?? "?"}; repairs: ${repaired.notes.join(", ")}`,
        );
      }
    }
    return final(explainError(lastCall), `${lastCall.name} failed and I cannot fix the arguments, so I'll explain the error.`, `status ${lastCall.result?.status ?? "?"}`);
  }

  if (req.calls.length >= maxCallsPerRequest) {
    return final(finalAnswer(req), `I have made ${maxCallsPerRequest} calls for this request, so I'll answer with what I have.`);
  }

  // Plan: one tool per clause, in order.
  const { steps, notes: rankNotes } = planSteps(box, req, tools, records);
  const matches = rankNotes.length > 0 ? `matches: ${rankNotes.map(rankNoteText).join("; ")}` : "no tool matches";
  if (steps.length === 0) {
    if (req.calls.some(succeeded)) return final(finalAnswer(req), "There is nothing more to do, so I'll answer from the results.", matches);
    if (contentStems(box, req.text).length === 0) return final("You are welcome. Let me know if you need anything else.", "The message asks for nothing new.");
    if (req.questions.length === 0) {
      return ask("I am not sure which of my tools fits. Could you tell me a bit more about what you would like me to do?", "None of my tools seems to fit, so I'll ask what the user means.", matches);
    }
    return giveUp("none of my tools can do what was asked.", "None of my tools fits the request, even after asking.", matches);
  }

  // Implicit chains: a step that needs an id nobody gave is preceded by a search that can find it.
  const expanded = withImplicitSearches(box, steps, req, tools, userText, records);

  // The first step not yet done.
  const doneNames = new Set(req.calls.filter(succeeded).map((c) => c.name));
  const isDone = (step: (typeof expanded)[number]): boolean =>
    step.search === true ? req.calls.some((c) => c.name === step.tool.name && stableStringify(c.args) === stableStringify(step.args)) : doneNames.has(step.tool.name);
  const next = expanded.find((x) => !isDone(x));
  const plan = `plan: ${expanded.map((s) => `${s.tool.name}${s.implicit ? " (to find the id)" : ""}`).join(" -> ")}`;
  if (!next) {
    return final(finalAnswer(req), "I have the results the request needs, so I'll answer.", `${plan}; done`);
  }

  if (next.search === true) {
    const words = Object.values(next.args ?? {}).map((v) => (Array.isArray(v) ? v.join(" ") : String(v))).join(" ");
    return call(next.tool, next.args ?? {}, `I'll search the tool catalogue for "${words}".`, `${plan}; clause: "${next.clause.slice(0, 80)}"`);
  }
  const fill = next.args
    ? { args: next.args, missing: [] as Param[], notes: [`search arguments from the request`], fromText: 1, used: new Set<string>() }
    : fillArguments(box, { tool: next.tool, request: req, userText, records, optional: true, clause: next.clause, others: [...new Set(expanded.filter((s) => s.implicit !== true && s.clause !== next.clause).map((s) => s.clause))] });
  let args = fill.args;
  const notes = [...fill.notes];
  const goal = goalOf(box, next.tool);
  if (fill.missing.length > 0) {
    const lastOk = [...req.calls].reverse().find(succeeded);
    if (lastOk && isEmptyResult(lastOk.result?.body) && fill.missing.some((p) => isIdParam(box, p))) {
      return final(emptyResultAnswer(answerCall(lastOk)), "The search found nothing, so there is nothing to look at in more detail.", `${plan}; ${next.tool.name} cannot get an id`);
    }
    const asked = (p: Param): boolean => req.questions.some((q) => q.toLowerCase().includes(p.phrase.toLowerCase()));
    const notAsked = fill.missing.filter((p) => !asked(p));
    if (notAsked.length > 0) {
      const question = `${purposeOf(box, next.tool)}, I need ${listPhrases(notAsked)}. Could you tell me ${notAsked.length === 1 ? "what it is" : "what they are"}?`;
      return ask(
        question,
        `To ${goal}, I need ${listPhrases(notAsked)}, so I'll ask the user.`,
        `${plan}; ${matches}; missing: ${notAsked.map((p) => p.path.join(".")).join(", ")}`,
        notAsked.map((p) => p.path.join(".")),
      );
    }
    // Asked already: the API's documented default where it has one; an example is no value the user gave, so
    // without a default the assistant gives up rather than invent one.
    const defaults: string[] = [];
    for (const p of fill.missing) {
      const d = p.path.length === 1 ? p.schema["default"] : undefined;
      if (d === undefined) {
        return giveUp(`I still do not know ${listPhrases([p])}, so I cannot ${goal}.`, `I still do not know ${listPhrases([p])} after asking, and I won't guess it.`, `${plan}; missing after asking: ${p.path.join(".")}`);
      }
      args = { ...args, [p.name]: d };
      defaults.push(`${p.name} = its documented default`);
    }
    notes.push(...defaults);
  }
  const previousFailure = req.calls.find((c) => c.name === next.tool.name && failed(c) && stableStringify(c.args) === stableStringify(args));
  if (previousFailure) {
    return final(explainError(previousFailure), `${next.tool.name} already failed with these arguments, so I'll explain the error.`, plan);
  }
  const first = req.calls.length === 0;
  const thought = next.implicit
    ? `I need an id the request does not give, so first I'll call ${next.tool.name} to find it.`
    : `${first ? "I'll" : "Next, I'll"} call ${next.tool.name} to ${goal}.`;
  const debug = [plan, rankNotes.length > 0 ? matches : "", notes.length > 0 ? `arguments: ${notes.join("; ")}` : "no arguments"].filter((x) => x !== "").join("; ");
  return call(next.tool, args, thought, debug);
}
