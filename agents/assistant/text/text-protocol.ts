import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { Result } from "../../../specs/result.js";
import { toAssistantTurn } from "../chat-model-assistant.js";
import type { AssistantToolCall, DialogueMessage } from "../../roles/dialogue.js";
import { toolResultText, type ToolResultTextOptions } from "../dialogue-messages.js";
import type { AgentTool } from "../../roles/roles.js";

/** A tool call read from model text: the tool, its arguments and the text it was read from. */
export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The text the call was read from (for logs and error messages). */
  raw: string;
}

/**
 * What a model's text answer says, in any text protocol (ReAct, API-Bank): call tools, ask the user,
 * answer, or give up. `notes` lists what the parser forgave (fences stripped, quotes repaired, a
 * hallucinated observation dropped...).
 */
export type TextDecision =
  | { kind: "calls"; thought?: string; calls: ParsedCall[]; notes: string[] }
  | { kind: "question"; thought?: string; text: string; notes: string[] }
  | { kind: "final"; thought?: string; text: string; notes: string[] }
  | { kind: "give-up"; thought?: string; reason: string; notes: string[] };

/** Stable codes of {@link FormatError}. */
export type FormatErrorCode =
  | "empty"
  | "no-format"
  | "missing-action"
  | "missing-action-input"
  | "bad-action-input"
  | "unknown-action"
  | "empty-final-answer"
  | "bad-request"
  | "positional-argument"
  | "empty-request";

/** Why a model's text could not be used, precisely enough to tell the model what to fix. */
export interface FormatError {
  code: FormatErrorCode;
  message: string;
  /** 1-based line of the output where the problem is. */
  line?: number;
  /** The piece of output at fault. */
  excerpt?: string;
}

/** Options of {@link TextProtocol.render}. */
export interface RenderOptions {
  toolResult?: ToolResultTextOptions;
}

/**
 * A text format for tool use (the model writes calls as text; no native function calling): how tools are
 * described, how the dialogue so far is written, how an answer is read, and what to say when it cannot be.
 */
export interface TextProtocol {
  /** Short name (`react`, `apibank`). */
  readonly name: string;
  /** The system prompt: the task, the tools and the format. */
  systemPrompt(tools: readonly AgentTool[]): string;
  /** The dialogue as chat messages after the system prompt (tool results written as observations). */
  render(dialogue: readonly DialogueMessage[], options?: RenderOptions): BaseMessage[];
  /** Reads one model answer. */
  parse(text: string, tools: readonly AgentTool[]): Result<TextDecision, FormatError>;
  /** The message that asks the model to answer again after `errors`. */
  feedback(errors: readonly FormatError[], tools: readonly AgentTool[]): string;
  /** Stop sequences that keep the model from writing the observation itself. */
  readonly stop?: readonly string[];
}

/** A one-line summary of format errors, for give-up reasons and logs. */
export function summarizeErrors(errors: readonly FormatError[]): string {
  return errors.map((e) => (e.line !== undefined ? `line ${e.line}: ${e.message}` : e.message)).join("; ");
}

/**
 * What free text from the assistant is: a give-up (`GIVE UP: ...`), a question to the user (ends with a
 * question mark, courtesy closings aside) or a final answer — the rules of the native assistant.
 */
export function classifyText(text: string, thought: string | undefined, notes: string[]): TextDecision {
  const turn = toAssistantTurn(new AIMessage(text));
  const withThought = thought !== undefined && thought !== "" ? { thought } : {};
  if (turn.kind === "give-up") return { kind: "give-up", ...withThought, reason: turn.reason, notes };
  if (turn.kind === "question") return { kind: "question", ...withThought, text: turn.text, notes };
  if (turn.kind === "final") return { kind: "final", ...withThought, text: turn.text, notes };
  return { kind: "final", ...withThought, text, notes };
}

/** Lower-case letters and digits only: `Get_Weather` and `getweather` compare equal. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * The tool a model meant by `name`: exact, else case- and punctuation-insensitive (`get_weather` for
 * `getWeather`), else the one tool whose name appears in the text. Undefined when none or several match.
 */
export function resolveToolName(name: string, tools: readonly AgentTool[]): string | undefined {
  if (tools.some((t) => t.name === name)) return name;
  const n = normalizeName(name);
  if (n !== "") {
    const same = tools.filter((t) => normalizeName(t.name) === n);
    if (same.length === 1) return same[0]?.name;
  }
  const mentioned = tools.filter((t) => new RegExp(`(?:^|[^\\w])${escapeRegExp(t.name)}(?:[^\\w]|$)`).test(name));
  if (mentioned.length === 1) return mentioned[0]?.name;
  return undefined;
}

/** The only parameter of a tool (so a lone value can be assigned to it), if it has exactly one. */
export function singleParameter(tool: AgentTool | undefined): string | undefined {
  if (!tool) return undefined;
  const props = tool.parameters["properties"];
  if (typeof props !== "object" || props === null) return undefined;
  const keys = Object.keys(props);
  if (keys.length === 1) return keys[0];
  const required = tool.parameters["required"];
  if (Array.isArray(required) && required.length === 1 && typeof required[0] === "string") return required[0];
  return undefined;
}

/** The names of a tool's required parameters. */
export function requiredParameters(tool: AgentTool | undefined): string[] {
  const required = tool?.parameters["required"];
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
}

/** Escapes a string for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The 1-based line of an offset in a text. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

/** A short quoted excerpt of a text. */
export function excerpt(text: string, max = 60): string {
  const t = text.trim().replace(/\s+/g, " ");
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/**
 * Calls with ids that are unique in the dialogue: an id already used there (or empty) becomes `call_<n>`,
 * n continuing the dialogue's count of calls.
 */
export function uniqueCallIds(calls: readonly AssistantToolCall[], dialogue: readonly DialogueMessage[]): AssistantToolCall[] {
  const taken = new Set<string>();
  let count = 0;
  for (const m of dialogue) {
    if (m.role === "assistant") {
      for (const c of m.toolCalls ?? []) {
        taken.add(c.id);
        count++;
      }
    }
    if (m.role === "tool") taken.add(m.toolCallId);
  }
  let n = count + 1;
  return calls.map((c) => {
    let id = c.id !== "" && !taken.has(c.id) ? c.id : `call_${n}`;
    while (taken.has(id)) id = `call_${++n}`;
    taken.add(id);
    n++;
    return { ...c, id };
  });
}

/**
 * A dialogue as chat messages for a text protocol: user messages as they are, assistant turns rendered by
 * the protocol, and the tool results of one turn as one `Observation` user message (named when several;
 * numbered too when `numbered`).
 */
export function renderTextDialogue(
  dialogue: readonly DialogueMessage[],
  renderTurn: (message: Extract<DialogueMessage, { role: "assistant" }>) => string,
  options: { toolResult?: ToolResultTextOptions; numbered?: boolean } = {},
): BaseMessage[] {
  const out: BaseMessage[] = [];
  let group: Array<Extract<DialogueMessage, { role: "tool" }>> = [];
  const flush = (): void => {
    if (group.length === 1) out.push(new HumanMessage(`Observation: ${toolResultText(group[0]!.result, options.toolResult)}`));
    else if (group.length > 1) {
      out.push(new HumanMessage(group.map((m, i) => `Observation${options.numbered ? ` ${i + 1}` : ""} (${m.name}): ${toolResultText(m.result, options.toolResult)}`).join("\n")));
    }
    group = [];
  };
  for (const m of dialogue) {
    if (m.role === "tool") {
      group.push(m);
      continue;
    }
    flush();
    if (m.role === "user") out.push(new HumanMessage(m.content));
    else out.push(new AIMessage(renderTurn(m)));
  }
  flush();
  return out;
}
