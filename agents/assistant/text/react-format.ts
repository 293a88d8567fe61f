import type { BaseMessage } from "@langchain/core/messages";
import { fail, ok, type Result } from "../../../specs/result.js";
import { parseCallArguments } from "./apibank-format.js";
import type { AssistantToolCall, DialogueMessage } from "../../roles/dialogue.js";
import { GIVE_UP_PREFIX } from "../dialogue-messages.js";
import { parseLenientJson, parseLenientObject, stripCodeFence } from "../../parse/lenient-json.js";
import type { AgentTool } from "../../roles/roles.js";
import {
  classifyText,
  excerpt,
  lineOf,
  normalizeName,
  requiredParameters,
  resolveToolName,
  singleParameter,
  type FormatError,
  type ParsedCall,
  type RenderOptions,
  type TextDecision,
  type TextProtocol,
  renderTextDialogue,
} from "./text-protocol.js";
import { ACTION_NAME_VERBS } from "../../language/lexicon/verbs.js";
import { wordsPattern } from "../../language/word-patterns.js";

/*
 * The ReAct text format (Yao et al. 2022) as ToolAlpaca's assistant uses it (Tang et al. 2023, appendix
 * figure 10): Thought / Action / Action Input / Observation ... Thought / Final Answer.
 *
 * The prompt is ours, not the figure's: it shows the tools with their JSON Schemas, names one way to ask the
 * user (`Action: ASK_USER`, where ToolAlpaca used a `getDetails` tool) and one way to give up (ToolLLM's
 * "give up" finish), allows several actions in one answer, and tells the model to stop after its Action Input.
 *
 * The reader is forgiving, because models are: labels in any case, with markdown (`**Action:**`, `### Thought`),
 * numbered (`Action 1:`), spelled `Action_Input`/`ActionInput`, on one line or several; a missing leading
 * `Thought:` (the prompt ends with it); arguments as JSON or almost-JSON (single quotes, trailing commas, code
 * fences, missing braces, `key=value` pairs, a lone value for a one-parameter tool); actions written as calls
 * (`getWeather(city='Paris')`, `getWeather {"city": "Paris"}`); tool names in another case or with decoration
 * (`` `getWeather` ``, `[getWeather]`, `functions.getWeather`); LangChain's JSON blob (`{"action": ..,
 * "action_input": ..}`); ToolLLM's `Finish` with `give_answer`/`give_up_and_restart`; and observations the model
 * made up after its action (dropped). What it cannot read it reports precisely, so the model can fix it.
 */

/** The action that asks the user a question. */
export const ASK_USER_ACTION = "ASK_USER";

const ASK_NAMES = new Set(["askuser", "asktheuser", "chatwithuser", "getdetails", "askhuman", "human", "askforclarification", "clarify", "askquestion", "askclarification", "requestuserinput", "userinput"]);
const GIVE_UP_NAMES = new Set(["giveup", "giveupandrestart", "finishbygivingup", "abort", "cannotproceed", "fail"]);
const FINAL_NAMES = new Set(["finalanswer", "finishwithfinalanswer", "answer", "respond", "response", "replytouser", "respondtouser", "finalresponse", "giveanswer"]);
const NO_ACTION = new Set(["none", "na", "noaction", "nothing", "null", ""]);

/** One tool as the ReAct prompt shows it: name, description and the JSON Schema of its arguments. */
export function renderReactTool(tool: AgentTool): string {
  const description = tool.description.trim().replace(/\s+/g, " ");
  return `- ${tool.name}: ${description !== "" ? description : "(no description)"}\n  Parameters (JSON Schema): ${JSON.stringify(tool.parameters)}`;
}

/**
 * The system prompt of the ReAct format. Written after ToolAlpaca's assistant prompt (figure 10) and
 * ToolLLM's solution-path prompt (appendix A.8), improved as described in the file comment.
 */
export function reactSystemPrompt(tools: readonly AgentTool[]): string {
  const names = tools.map((t) => t.name).join(", ");
  return [
    "You are an assistant that completes the user's requests by calling tools. The user cannot see the tools or their results, so everything the user needs must be in your Final Answer. Never make up tool results or argument values.",
    "",
    "Tools:",
    ...(tools.length > 0 ? tools.map(renderReactTool) : ["(none)"]),
    "",
    "Write every answer in this format, each label at the start of a line:",
    "Thought: what you know and what to do next (at most three sentences)",
    `Action: the tool to call, exactly one of: ${names || "(none)"}`,
    'Action Input: the arguments as one JSON object with double quotes, for example {"name": "value", "count": 2}',
    'Then stop writing: the tool\'s result comes back to you as "Observation: ...". Repeat Thought / Action / Action Input as often as needed. Independent calls may be written as several Action / Action Input pairs in one answer.',
    "",
    "Take argument values from the user's messages or from earlier observations (for example an id returned by a search). If a required value is missing, ask the user:",
    `Action: ${ASK_USER_ACTION}`,
    'Action Input: {"question": "one short question naming what you need"}',
    "",
    "When you have what you need:",
    "Thought: what the observations show",
    "Final Answer: a complete answer for the user built only from the observations, with the key values (names, ids, numbers, dates).",
    "",
    "If the request cannot be done with these tools:",
    `Final Answer: ${GIVE_UP_PREFIX} the reason`,
  ].join("\n");
}

/** Arguments as they are written after `Action Input:` (compact JSON; raw text as it was). */
function inputText(args: Record<string, unknown> | string): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** The ReAct text of tool calls: `Thought:` (when given) then `Action:` / `Action Input:` per call. */
export function renderReactCalls(calls: readonly Pick<AssistantToolCall, "name" | "arguments">[], thought?: string): string {
  const lines: string[] = [];
  if (thought !== undefined && thought.trim() !== "") lines.push(`Thought: ${thought.trim()}`);
  for (const c of calls) lines.push(`Action: ${c.name}`, `Action Input: ${inputText(c.arguments)}`);
  return lines.join("\n");
}

/** An assistant message of the dialogue written in the ReAct format (calls, a question, a give-up or an answer). */
export function renderReactTurn(message: Extract<DialogueMessage, { role: "assistant" }>): string {
  const calls = message.toolCalls ?? [];
  if (calls.length > 0) return renderReactCalls(calls, message.thought ?? (message.content !== "" ? message.content : undefined));
  const thought = message.thought !== undefined && message.thought.trim() !== "" ? `Thought: ${message.thought.trim()}\n` : "";
  const decision = classifyText(message.content, undefined, []);
  if (decision.kind === "question") return `${thought}Action: ${ASK_USER_ACTION}\nAction Input: ${JSON.stringify({ question: decision.text })}`;
  if (decision.kind === "give-up") return `${thought}Final Answer: ${GIVE_UP_PREFIX} ${decision.reason}`;
  return `${thought}Final Answer: ${message.content}`;
}

/**
 * The dialogue as chat messages for the ReAct format: user messages as they are, assistant turns in the
 * format, and tool results as one `Observation:` user message per turn (named when there are several).
 */
export function renderReactDialogue(dialogue: readonly DialogueMessage[], options: RenderOptions = {}): BaseMessage[] {
  return renderTextDialogue(dialogue, renderReactTurn, { ...(options.toolResult ? { toolResult: options.toolResult } : {}), numbered: true });
}

// ---------------------------------------------------------------------------------------------- parsing

type LabelKind = "thought" | "action" | "input" | "final" | "observation" | "question";

interface Segment {
  kind: LabelKind;
  /** Where the label starts. */
  start: number;
  contentStart: number;
  contentEnd: number;
  text: string;
  line: number;
}

const LABEL =
  /(?<![A-Za-z0-9])(?:\*\*|__)?[ \t]*(thoughts?|reasoning|action[ \t_-]*input|action|final[ \t_-]*answer|final[ \t_-]*response|observation|question)[ \t]*(?:#?\d+)?[ \t]*(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?/gi;

function kindOf(label: string): LabelKind {
  const l = label.toLowerCase().replace(/[^a-z]/g, "");
  if (l.startsWith("thought") || l === "reasoning") return "thought";
  if (l === "actioninput") return "input";
  if (l === "action") return "action";
  if (l.startsWith("final")) return "final";
  if (l === "observation") return "observation";
  return "question";
}

/**
 * Whether a label found at `index` counts: at a line start (after markdown) always; mid-line (one-line
 * outputs such as `Thought: ... Action: x Action Input: {...}`) only capitalized, after white space, and
 * not for Observation or Question.
 */
function acceptLabel(text: string, index: number, label: string, kind: LabelKind): boolean {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  const before = text.slice(lineStart, index);
  if (/^[\s>*#_`\-\d.)]*$/.test(before)) return true;
  if (kind === "observation" || kind === "question") return false;
  return /^[A-Z]/.test(label) && /\s$/.test(before);
}

/** The end of a JSON value (or code fence) starting at `from`, by bracket matching; undefined when unbalanced. */
function jsonEnd(text: string, from: number): number | undefined {
  let i = from;
  while (i < text.length && /[ \t\r\n]/.test(text[i] ?? "")) i++;
  if (text.startsWith("```", i)) {
    const close = text.indexOf("```", text.indexOf("\n", i) < 0 ? i + 3 : text.indexOf("\n", i));
    return close < 0 ? undefined : close + 3;
  }
  const open = text[i];
  if (open !== "{" && open !== "[") return undefined;
  const stack: string[] = [];
  let quote: string | undefined;
  for (; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (quote !== undefined) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"') quote = ch;
    else if (ch === "{" || ch === "[") stack.push(ch === "{" ? "}" : "]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return i + 1;
    }
  }
  return undefined;
}

function segmentsOf(text: string): { segments: Segment[]; lead: string } {
  const matches = [...text.matchAll(LABEL)]
    .map((m) => ({ index: m.index, length: m[0].length, label: m[1] ?? "", kind: kindOf(m[1] ?? ""), at: m.index + m[0].search(/[A-Za-z]/) }))
    .filter((m) => acceptLabel(text, m.at, m.label, m.kind));
  const segments: Segment[] = [];
  let skipUntil = 0;
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i]!;
    if (m.index < skipUntil) continue;
    const contentStart = m.index + m.length;
    const next = matches.slice(i + 1).find((n) => n.index >= contentStart);
    let contentEnd = next?.index ?? text.length;
    if (m.kind === "input") {
      // The JSON value may hold label-like text ("Action: ..." inside a string): it ends where its brackets
      // close; text between it and the next label is chatter ("I will wait for the result.").
      const end = jsonEnd(text, contentStart);
      if (end !== undefined) {
        contentEnd = end;
        skipUntil = end;
      }
    }
    segments.push({ kind: m.kind, start: m.index, contentStart, contentEnd, text: text.slice(contentStart, contentEnd).trim(), line: lineOf(text, m.index) });
  }
  const lead = text.slice(0, matches[0]?.index ?? text.length).trim();
  return { segments, lead };
}

/** A verb before an action's name ("use the getWeather"). */
const ACTION_VERB = new RegExp(`^(?:${wordsPattern(ACTION_NAME_VERBS)})\\s+(?:the\\s+)?`, "i");

/** Strips decoration from an action name: markdown, quotes, brackets, `functions.` and a trailing period. */
function cleanActionName(raw: string): string {
  let n = raw.trim().split("\n")[0]?.trim() ?? "";
  n = n.replace(/^[*_`"'[\s]+|[*_`"'\]\s.,;:]+$/g, "");
  n = n.replace(/^(?:functions?|tools?)\s*[.:/]\s*/i, "");
  n = n.replace(ACTION_VERB, "");
  n = n.replace(/\s+(?:tool|function|api)$/i, "");
  return n.trim();
}

/** Options of {@link parseReact}. */
export interface ReactParseOptions {
  /** The tools offered: names are resolved against them, lone values mapped to one-parameter tools. */
  tools?: readonly AgentTool[];
  /**
   * What plain text without any ReAct label is: an error (default: the model is asked to use the format)
   * or the final answer (a question when it asks one).
   */
  plainText?: "error" | "final";
}

/** The arguments of a call read from its Action Input text (with the tool, when known, for lone values). */
function readInput(text: string, tool: AgentTool | undefined, name: string, line: number, notes: string[]): Result<Record<string, unknown>, FormatError> {
  const single = singleParameter(tool);
  const parsed = parseLenientObject(text, single !== undefined ? { singleKey: single } : {});
  if (!parsed.ok) {
    const e = parsed.errors[0];
    const at = e ? ` (input line ${e.line}, column ${e.column})` : "";
    return fail([{ code: "bad-action-input", message: `the Action Input of ${name} is not a JSON object: ${e?.message ?? "unreadable"}${at}`, line, excerpt: excerpt(text) }]);
  }
  for (const r of parsed.value.repairs) if (!notes.includes(r)) notes.push(r);
  return ok(parsed.value.value);
}

/** Splits `name(args)` / `name {json}` into a name and an argument text. */
function splitInlineCall(action: string): { name: string; args: string; style: "call" | "json" } | undefined {
  const m = /^([A-Za-z_][\w.\-]*)\s*(\(([\s\S]*)\)|(\{[\s\S]*\}))\s*$/.exec(action.trim());
  if (!m) return undefined;
  if (m[4] !== undefined) return { name: m[1] ?? "", args: m[4], style: "json" };
  const inner = (m[3] ?? "").trim();
  if (inner.startsWith("{")) return { name: m[1] ?? "", args: inner, style: "json" };
  return { name: m[1] ?? "", args: inner, style: "call" };
}

/** Text for the user from an input object: `question`, `text`, `message`... or the one string value. */
function textFrom(input: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const hit = Object.entries(input).find(([key]) => key.toLowerCase() === k);
    if (hit && typeof hit[1] === "string" && hit[1].trim() !== "") return hit[1].trim();
  }
  const strings = Object.entries(input)
    .filter(([k]) => k !== "return_type")
    .map(([, v]) => v)
    .filter((v): v is string => typeof v === "string" && v.trim() !== "");
  return strings.length === 1 ? strings[0]!.trim() : undefined;
}

type ActionResult =
  | { kind: "call"; call: ParsedCall }
  | { kind: "decision"; decision: TextDecision }
  | { kind: "skip" };

/** Reads one Action (with its Action Input, if any) into a call, a question, a give-up, an answer or nothing. */
function readAction(
  actionSeg: Segment,
  inputSeg: Segment | undefined,
  tools: readonly AgentTool[] | undefined,
  thought: string | undefined,
  notes: string[],
): Result<ActionResult, FormatError> {
  const rawAction = actionSeg.text;
  const firstLine = rawAction.split("\n")[0] ?? "";
  let inputText = inputSeg?.text;
  let name = cleanActionName(firstLine);
  const inline = splitInlineCall(name) ?? splitInlineCall(firstLine.trim());
  let inlineArgs: Record<string, unknown> | undefined;
  if (inline) {
    name = inline.name;
    if (inline.style === "json") inputText ??= inline.args;
    else {
      const tool = tools?.find((t) => t.name === (resolveToolName(inline.name, tools) ?? inline.name));
      const read = parseCallArguments(inline.args, tool);
      if (!read.ok) return fail(read.errors.map((e) => ({ ...e, code: "bad-action-input" as const, message: `the arguments written in the Action ${inline.name}(...) cannot be read: ${e.message}`, line: actionSeg.line })));
      inlineArgs = read.value.arguments;
      notes.push(...read.value.notes, "read arguments written in the Action line");
    }
  }
  if (inputText === undefined && inlineArgs === undefined) {
    // `Action: x` followed by a JSON block without the `Action Input:` label.
    const rest = rawAction.split("\n").slice(1).join("\n").trim();
    if (rest !== "" && /^(?:```|\{)/.test(rest)) {
      inputText = rest;
      notes.push("read the JSON after the Action as its input");
    }
  }
  const resolved = tools ? resolveToolName(name, tools) : undefined;
  const norm = normalizeName(name);
  const readArgs = (tool: AgentTool | undefined, label: string): Result<Record<string, unknown>, FormatError> => {
    if (inlineArgs !== undefined) return ok(inlineArgs);
    if (inputText === undefined) return ok({});
    return readInput(inputText, tool, label, inputSeg?.line ?? actionSeg.line, notes);
  };
  const withThought = thought !== undefined && thought !== "" ? { thought } : {};
  if (resolved === undefined) {
    if (ASK_NAMES.has(norm)) {
      const args = readArgs(undefined, name);
      const question = args.ok ? textFrom(args.value, ["question", "text", "message", "query", "prompt", "ask"]) : inputText?.trim().replace(/^["']|["']$/g, "");
      if (question === undefined || question === "") return fail([{ code: "missing-action-input", message: `${name} needs the question to ask: Action Input: {"question": "..."}`, line: actionSeg.line }]);
      return ok({ kind: "decision", decision: { kind: "question", ...withThought, text: question, notes } });
    }
    if (GIVE_UP_NAMES.has(norm)) {
      const args = readArgs(undefined, name);
      const reason = (args.ok ? textFrom(args.value, ["reason", "message", "text", "explanation"]) : undefined) ?? inputText?.trim() ?? thought ?? "The assistant gave up.";
      return ok({ kind: "decision", decision: { kind: "give-up", ...withThought, reason: reason !== "" ? reason : "The assistant gave up.", notes } });
    }
    if (norm === "finish" || FINAL_NAMES.has(norm)) {
      const args = readArgs(undefined, name);
      const input = args.ok ? args.value : {};
      const returnType = typeof input["return_type"] === "string" ? input["return_type"] : undefined;
      if (returnType !== undefined && /give[_ ]?up/i.test(returnType)) {
        const reason = textFrom(input, ["reason", "final_answer", "message"]) ?? thought ?? "The assistant gave up.";
        return ok({ kind: "decision", decision: { kind: "give-up", ...withThought, reason, notes } });
      }
      const answer = textFrom(input, ["final_answer", "answer", "text", "response", "message"]) ?? (args.ok ? undefined : inputText?.trim());
      if (answer === undefined || answer === "") return fail([{ code: "empty-final-answer", message: `${name} needs the answer: write "Final Answer: ..." instead`, line: actionSeg.line }]);
      return ok({ kind: "decision", decision: classifyText(answer, thought, notes) });
    }
    if (NO_ACTION.has(norm)) return ok({ kind: "skip" });
  }
  const toolName = resolved ?? name;
  if (resolved !== undefined && resolved !== name) notes.push(`read the action ${JSON.stringify(name)} as ${resolved}`);
  if (resolved === undefined) {
    const identifier = /^[A-Za-z_][\w.\-]*$/.test(name);
    if (!identifier || (tools !== undefined && tools.length > 0 && /\s/.test(firstLine.trim()) && name.split(/\s+/).length > 2)) {
      const known = tools && tools.length > 0 ? ` Write only a tool name after "Action:", one of: ${tools.map((t) => t.name).join(", ")}.` : "";
      return fail([{ code: "unknown-action", message: `the Action ${JSON.stringify(excerpt(firstLine, 50))} is not a tool name.${known}`, line: actionSeg.line, excerpt: excerpt(firstLine) }]);
    }
    // An unknown but well-formed name goes to the executor, which answers with the nearest tools.
  }
  const tool = tools?.find((t) => t.name === toolName);
  if (inputText === undefined && inlineArgs === undefined && requiredParameters(tool).length > 0) {
    return fail([{ code: "missing-action-input", message: `the Action ${toolName} has no "Action Input:" line; it needs ${requiredParameters(tool).join(", ")}`, line: actionSeg.line }]);
  }
  if (inputText === undefined && inlineArgs === undefined && tool === undefined) {
    return fail([{ code: "missing-action-input", message: `the Action ${toolName} has no "Action Input:" line (write {} when it takes no arguments)`, line: actionSeg.line }]);
  }
  const args = readArgs(tool, toolName);
  if (!args.ok) return args;
  const raw = `${rawAction.split("\n")[0]?.trim() ?? ""}${inputText !== undefined ? ` ${inputText.trim()}` : ""}`;
  return ok({ kind: "call", call: { name: toolName, arguments: args.value, raw } });
}

/** LangChain's JSON-blob agent format and look-alikes: `{"action": "x", "action_input": {...}}`. */
function readJsonBlob(text: string, tools: readonly AgentTool[] | undefined, notes: string[]): TextDecision | undefined {
  const fenced = stripCodeFence(text);
  const start = fenced.text.indexOf("{");
  if (start < 0) return undefined;
  const parsed = parseLenientJson(fenced.text.slice(start));
  if (!parsed.ok) return undefined;
  const blob = parsed.value.value;
  if (typeof blob !== "object" || blob === null || Array.isArray(blob)) return undefined;
  const o = blob as Record<string, unknown>;
  const action = ["action", "tool", "name", "function", "tool_name"].map((k) => o[k]).find((v): v is string => typeof v === "string");
  if (action === undefined) return undefined;
  const input = ["action_input", "tool_input", "arguments", "args", "parameters", "input"].map((k) => o[k]).find((v) => v !== undefined);
  notes.push("read a JSON action blob");
  const norm = normalizeName(action);
  if (FINAL_NAMES.has(norm) || norm === "finish") {
    const text = typeof input === "string" ? input : typeof input === "object" && input !== null ? (textFrom(input as Record<string, unknown>, ["final_answer", "answer", "text"]) ?? JSON.stringify(input)) : "";
    return text !== "" ? classifyText(text, undefined, notes) : undefined;
  }
  let args: Record<string, unknown> = {};
  if (typeof input === "object" && input !== null && !Array.isArray(input)) args = input as Record<string, unknown>;
  else if (typeof input === "string") {
    const tool = tools?.find((t) => t.name === (resolveToolName(action, tools) ?? action));
    const single = singleParameter(tool);
    const read = parseLenientObject(input, single !== undefined ? { singleKey: single } : {});
    if (!read.ok) return undefined;
    args = read.value.value;
  }
  if (ASK_NAMES.has(norm)) {
    const q = textFrom(args, ["question", "text", "message"]);
    return q !== undefined ? { kind: "question", text: q, notes } : undefined;
  }
  const name = (tools ? resolveToolName(action, tools) : undefined) ?? action;
  return { kind: "calls", calls: [{ name, arguments: args, raw: excerpt(text, 200) }], notes };
}

/**
 * Reads one model answer in the ReAct format into a decision (calls, question, final answer, give-up), or
 * precise errors. When an answer holds both actions and a final answer, whichever comes first wins (a
 * final answer after an action was written before its observation; it is dropped with a note).
 */
export function parseReact(text: string, options: ReactParseOptions = {}): Result<TextDecision, FormatError> {
  const notes: string[] = [];
  const tools = options.tools;
  if (text.trim() === "") return fail([{ code: "empty", message: "the answer is empty" }]);
  let body = text;
  // A whole answer wrapped in one code fence.
  const fenced = /^\s*(`{3,})[\w-]*\n([\s\S]*?)\n?\1\s*$/.exec(text);
  if (fenced && /(?:^|\n)\s*(?:\*\*)?(?:Thought|Action|Final)/i.test(fenced[2] ?? "")) {
    body = fenced[2] ?? "";
    notes.push("removed a code fence around the answer");
  }
  const { segments: all, lead } = segmentsOf(body);
  // Made-up observations: everything from the first Observation after an action on is dropped.
  const segments: Segment[] = [];
  let seenAction = false;
  for (const s of all) {
    if (s.kind === "observation") {
      if (seenAction) {
        notes.push("ignored a made-up Observation and everything after it");
        break;
      }
      notes.push("ignored an Observation written before any action");
      continue;
    }
    if (s.kind === "question") {
      notes.push("ignored a repeated Question line");
      continue;
    }
    if (s.kind === "action" || s.kind === "final") seenAction = true;
    segments.push(s);
  }
  const firstDecisive = segments.findIndex((s) => s.kind === "action" || s.kind === "final" || s.kind === "input");
  const thoughtParts = segments.slice(0, firstDecisive < 0 ? segments.length : firstDecisive).filter((s) => s.kind === "thought").map((s) => s.text);
  const leadThought = lead.replace(/^(?:\*\*|__)?\s*(?:thoughts?)?\s*(?:\*\*|__)?\s*$/i, "").trim();
  const thought = [leadThought, ...thoughtParts].filter((t) => t !== "").join("\n").trim() || undefined;

  if (segments.length === 0) {
    const blob = readJsonBlob(body, tools, notes);
    if (blob) {
      const before = body.slice(0, body.search(/```|\{/)).trim();
      return ok(before !== "" && blob.thought === undefined ? { ...blob, thought: before } : blob);
    }
    if (options.plainText === "final") return ok(classifyText(body.trim(), undefined, [...notes, "read plain text as the final answer"]));
    return fail([
      {
        code: "no-format",
        message: `the answer has no "Action:" line and no "Final Answer:" line (it reads ${JSON.stringify(excerpt(body, 80))}); call a tool with "Action:" and "Action Input:", or answer with "Final Answer:"`,
        line: 1,
        excerpt: excerpt(body),
      },
    ]);
  }
  if (firstDecisive < 0) {
    const last = segments[segments.length - 1]!;
    const blob = readJsonBlob(last.text, tools, notes);
    if (blob) return ok(thought !== undefined && blob.thought === undefined ? { ...blob, thought } : blob);
    return fail([
      {
        code: "missing-action",
        message: `the answer stops after the Thought (line ${last.line}); add "Action:" and "Action Input:" lines to call a tool, or a "Final Answer:" line`,
        line: last.line,
        excerpt: excerpt(last.text),
      },
    ]);
  }
  const first = segments[firstDecisive]!;
  if (first.kind === "final") {
    if (segments.slice(firstDecisive + 1).some((s) => s.kind === "action")) notes.push("ignored actions written after the Final Answer");
    const answer = first.text;
    if (answer === "") return fail([{ code: "empty-final-answer", message: `the Final Answer on line ${first.line} is empty`, line: first.line }]);
    return ok(classifyText(answer, thought, notes));
  }
  // Actions: pairs of Action + Action Input, until a Final Answer.
  const calls: ParsedCall[] = [];
  const errors: FormatError[] = [];
  let decision: TextDecision | undefined;
  let finalAfter = false;
  for (let i = firstDecisive; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.kind === "final") {
      finalAfter = true;
      break;
    }
    if (s.kind === "thought") continue;
    if (s.kind === "input") {
      errors.push({ code: "missing-action", message: `the "Action Input:" on line ${s.line} has no "Action:" line before it naming the tool`, line: s.line, excerpt: excerpt(s.text) });
      continue;
    }
    const next = segments[i + 1];
    const input = next?.kind === "input" ? next : undefined;
    if (input) i++;
    const read = readAction(s, input, tools, thought, notes);
    if (!read.ok) {
      errors.push(...read.errors);
      continue;
    }
    if (read.value.kind === "skip") continue;
    if (read.value.kind === "decision") {
      if (calls.length === 0 && decision === undefined) decision = read.value.decision;
      else notes.push("ignored a question or finish written after a tool action");
      continue;
    }
    if (decision !== undefined) {
      notes.push("ignored an action written after a question or finish");
      continue;
    }
    calls.push(read.value.call);
  }
  if (errors.length > 0) return fail(errors);
  if (finalAfter && (calls.length > 0 || decision !== undefined)) notes.push("ignored a Final Answer written before the observation of the action");
  if (decision !== undefined) return ok(decision);
  if (calls.length > 0) return ok({ kind: "calls", ...(thought !== undefined ? { thought } : {}), calls, notes });
  // Only "Action: None" lines: a Final Answer may follow.
  const final = segments.find((s) => s.kind === "final");
  if (final && final.text !== "") return ok(classifyText(final.text, thought, notes));
  return fail([{ code: "missing-action", message: `the Action on line ${first.line} names no tool and no Final Answer follows`, line: first.line }]);
}

/** The re-prompt after an unreadable ReAct answer: what was wrong, line by line, and the expected shape. */
export function reactFeedback(errors: readonly FormatError[], tools: readonly AgentTool[]): string {
  return [
    "Your last answer could not be read:",
    ...errors.map((e) => `- ${e.line !== undefined ? `line ${e.line}: ` : ""}${e.message}`),
    "",
    "Answer again in the format. Either:",
    "Thought: ...",
    `Action: one of ${tools.map((t) => t.name).join(", ") || "(no tools)"}, or ${ASK_USER_ACTION}`,
    'Action Input: {"name": "value"}',
    "or:",
    "Thought: ...",
    "Final Answer: ...",
  ].join("\n");
}

/** The ReAct Thought/Action/Action Input/Observation/Final Answer format as a text protocol. */
export const reactProtocol: TextProtocol = {
  name: "react",
  systemPrompt: reactSystemPrompt,
  render: renderReactDialogue,
  parse: (text, tools) => parseReact(text, { tools }),
  feedback: reactFeedback,
  stop: ["\nObservation:"],
};
