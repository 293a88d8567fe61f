import type { AssistantToolCall, AssistantTurn, DialogueMessage } from "../roles/dialogue.js";
import { argumentsFromObject, GIVE_UP_PREFIX, messageText } from "./dialogue-text.js";
import { isObject, type Json } from "../../specs/json-object.js";

/*
 * From a model's answer to an assistant turn, without LangChain: shared by the assistant over LangChain chat
 * models (`chat-model-assistant.ts`) and the offline assistant (`offline-assistant.ts`).
 */

/** The default system prompt of the assistant: tools first, ask for what is missing, answer only from results. */
export const DEFAULT_ASSISTANT_PROMPT = [
  "You are a helpful assistant that completes the user's requests by calling the tools (functions) you are given.",
  "- Call a tool whenever it can answer the request; use only the tools listed, with arguments that follow their schemas.",
  "- Take argument values from the user's messages or from earlier tool results (for example an id returned by a search). Never invent values.",
  "- If a required value is missing, ask the user one short question that names what you need, and end it with a question mark.",
  "- A request may need several calls in a row (search, then get details; create, then read): make them one after another.",
  "- If a tool returns an error, fix the arguments and retry once when you can; otherwise explain the error to the user.",
  "- When you have what you need, give a final answer built only from the tool results and the dialogue: name the key values (names, ids, numbers).",
  `- If the request cannot be done with these tools, reply with a line starting with "${GIVE_UP_PREFIX}" followed by the reason.`,
].join("\n");

/** A model's answer as the assistant reads it: an `AIMessage` or any object of the same shape. */
export interface ModelAnswer {
  readonly content: unknown;
  readonly additional_kwargs?: Record<string, unknown>;
  readonly tool_calls?: ReadonlyArray<{ id?: string | undefined; name: string; args: unknown }>;
  readonly invalid_tool_calls?: ReadonlyArray<{ id?: string | undefined; name?: string | undefined; args?: string | undefined }>;
}

/** Closing courtesy questions that do not make an answer a question ("Anything else I can help with?"). */
const COURTESY = /\b(anything else|something else|any other (?:questions?|requests?)|(?:can|may) i help|help you with|need more help|further assistance)\b[^?]*\?\s*$/i;
const QUESTION_MARKER = /^\s*(?:\[question\]|QUESTION:)\s*/i;
const GIVE_UP_MARKER = /^\s*(?:GIVE[ _-]?UP:|\[give[ -]?up\])\s*/i;

/** Where a model put its reasoning: `additional_kwargs.thought`, `reasoning_content`, or reasoning blocks. */
export function thoughtOf(message: ModelAnswer): string | undefined {
  const kw = message.additional_kwargs ?? {};
  for (const key of ["thought", "reasoning_content", "reasoning"]) {
    const v = kw[key];
    if (typeof v === "string" && v.trim() !== "") return v.trim();
    if (isObject(v) && typeof v["summary"] === "string") return v["summary"];
  }
  const content: unknown = message.content;
  if (Array.isArray(content)) {
    const parts = content
      .filter((b): b is Json => isObject(b) && (b["type"] === "reasoning" || b["type"] === "thinking"))
      .map((b) => (typeof b["reasoning"] === "string" ? b["reasoning"] : typeof b["thinking"] === "string" ? b["thinking"] : ""))
      .filter((s) => s !== "");
    if (parts.length > 0) return parts.join("\n");
  }
  return undefined;
}

/**
 * Maps a model's answer to an assistant turn: tool calls (valid or with malformed arguments, unknown tools
 * included: the executor reports them) -> `calls`; a give-up marker -> `give-up`; a question -> `question`;
 * other text -> `final`. `firstCallNumber` numbers calls that come without an id (`call_<n>`).
 */
export function toAssistantTurn(message: ModelAnswer, firstCallNumber = 1): AssistantTurn {
  const text = messageText(message).trim();
  const thought = thoughtOf(message);
  const debugNote = message.additional_kwargs?.["debug"];
  const debug = typeof debugNote === "string" && debugNote !== "" ? { debug: debugNote } : {};
  const calls: AssistantToolCall[] = [];
  let n = firstCallNumber;
  const takenIds = new Set<string>();
  const idFor = (id: string | undefined): string => {
    let out = id !== undefined && id !== "" && !takenIds.has(id) ? id : `call_${n}`;
    while (takenIds.has(out)) out = `call_${++n}`;
    takenIds.add(out);
    n++;
    return out;
  };
  for (const c of message.tool_calls ?? []) {
    calls.push({ id: idFor(c.id), name: c.name, arguments: isObject(c.args) ? argumentsFromObject(c.args) : String(c.args ?? "") });
  }
  for (const c of message.invalid_tool_calls ?? []) {
    calls.push({ id: idFor(c.id), name: c.name ?? "", arguments: typeof c.args === "string" ? c.args : "" });
  }
  if (calls.length > 0) {
    const names = calls.map((c) => c.name).join(", ");
    return { kind: "calls", thought: thought ?? (text !== "" ? text : `Calling ${names}.`), ...debug, calls };
  }
  const intent = message.additional_kwargs?.["intent"];
  const withThought = { ...(thought !== undefined ? { thought } : {}), ...debug };
  if (intent === "give-up" || GIVE_UP_MARKER.test(text)) {
    const reason = text.replace(GIVE_UP_MARKER, "").trim();
    return { kind: "give-up", ...withThought, reason: reason !== "" ? reason : "The assistant gave up." };
  }
  if (intent === "question") {
    const asks = message.additional_kwargs?.["asks"];
    const named = Array.isArray(asks) && asks.every((a): a is string => typeof a === "string") && asks.length > 0 ? { asks: [...asks] } : {};
    return { kind: "question", ...withThought, text, ...named };
  }
  if (intent === "final") return { kind: "final", ...withThought, text };
  if (QUESTION_MARKER.test(text)) return { kind: "question", ...withThought, text: text.replace(QUESTION_MARKER, "").trim() };
  if (text.endsWith("?") && !COURTESY.test(text)) return { kind: "question", ...withThought, text };
  if (text === "") return { kind: "give-up", ...withThought, reason: "The model returned an empty answer." };
  return { kind: "final", ...withThought, text };
}

/** How many tool calls the assistant made in a dialogue so far (numbers the next calls). */
export function previousCallCount(dialogue: readonly DialogueMessage[]): number {
  return dialogue.reduce((n, m) => n + (m.role === "assistant" ? (m.toolCalls?.length ?? 0) : 0), 0);
}
