import type { Json } from "../../../specs/json-object.js";
import type { TextFacts } from "../../language/text-facts.js";
import { argumentsFromObject, GIVE_UP_PREFIX, messageText, parseToolResultText } from "../dialogue-text.js";
import type { OfflineToolbox } from "./offline-types.js";
import type { ChatMessageLike } from "./offline-types.js";

export type { ChatMessageLike };

/*
 * The dialogue as the offline model reads it: requests (a user message after an answer), the replies to its
 * questions, and the calls made for each request with their results.
 */


/** A call of the dialogue and, once answered, its result. */
export interface Call {
  id: string;
  name: string;
  args: Json | string;
  /** The answer as the tool message gave it; `lengths`: the whole lengths of lists it showed in part, by path. */
  result?: { status: number; body: unknown; lengths?: Readonly<Record<string, number>> };
}

/** A user's reply to a question of the assistant. */
export interface Reply {
  text: string;
  facts: TextFacts;
  /** The question it answers. */
  question: string;
}

/** One request of the dialogue: its text, the replies to the questions about it, and its calls. */
export interface RequestView {
  text: string;
  facts: TextFacts;
  replies: Reply[];
  questions: string[];
  calls: Call[];
}

/** The requests of a dialogue, the current one, how many calls were made, and who spoke last. */
export interface History {
  requests: RequestView[];
  current: RequestView | undefined;
  totalCalls: number;
  /** The kind of the last non-system message. */
  last: "user" | "ai" | "tool" | "none";
}

function isQuestion(text: string, kwargs: Json): boolean {
  if (kwargs["intent"] === "question") return true;
  if (kwargs["intent"] !== undefined) return false;
  const t = text.trim();
  return t.endsWith("?") && !t.startsWith(GIVE_UP_PREFIX);
}

/**
 * The status and body of a tool message, parsed once per message object: a dialogue's messages are read again
 * on every turn (the offline assistant passes the same message objects each time). Bodies are only read.
 */
function toolResultOf(box: OfflineToolbox, m: ChatMessageLike, text: string): { status: number; body: unknown; lengths?: Readonly<Record<string, number>> } {
  const hit = box.toolResults.get(m);
  if (hit && hit.text === text) return hit;
  const parsed = parseToolResultText(text);
  const out = { text, status: parsed.status, body: parsed.body, ...(parsed.lengths !== undefined ? { lengths: parsed.lengths } : {}) };
  box.toolResults.set(m, out);
  return out;
}

/** Reads the requests, replies and calls of a dialogue. */
export function readHistory(box: OfflineToolbox, messages: readonly ChatMessageLike[]): History {
  const requests: RequestView[] = [];
  let current: RequestView | undefined;
  let pendingQuestion: string | undefined;
  let lastAiWasAnswer = true;
  let totalCalls = 0;
  let last: History["last"] = "none";
  const byId = new Map<string, Call>();
  for (const m of messages) {
    const type = m.type;
    if (type === "system") continue;
    const text = messageText(m);
    if (type === "human") {
      last = "user";
      if (current !== undefined && pendingQuestion !== undefined) {
        current.replies.push({ text, facts: box.factsOf(text), question: pendingQuestion });
      } else if (current !== undefined && !lastAiWasAnswer) {
        current.text = `${current.text}\n${text}`;
        current.facts = box.factsOf(current.text);
      } else {
        current = { text, facts: box.factsOf(text), replies: [], questions: [], calls: [] };
        requests.push(current);
      }
      pendingQuestion = undefined;
      lastAiWasAnswer = false;
    } else if (type === "ai") {
      last = "ai";
      const calls = m.tool_calls ?? [];
      if (!current) {
        current = { text: "", facts: box.factsOf(""), replies: [], questions: [], calls: [] };
        requests.push(current);
      }
      if (calls.length > 0) {
        for (const c of calls) {
          totalCalls++;
          const call: Call = { id: c.id ?? `call_${totalCalls}`, name: c.name, args: argumentsFromObject(c.args) };
          current.calls.push(call);
          byId.set(call.id, call);
        }
        pendingQuestion = undefined;
      } else if (isQuestion(text, m.additional_kwargs ?? {})) {
        current.questions.push(text);
        pendingQuestion = text;
      } else {
        pendingQuestion = undefined;
        lastAiWasAnswer = true;
      }
    } else if (type === "tool") {
      last = "tool";
      const id = m.tool_call_id ?? "";
      const parsed = toolResultOf(box, m, text);
      const call = byId.get(id);
      const result = { status: parsed.status, body: parsed.body, ...(parsed.lengths !== undefined ? { lengths: parsed.lengths } : {}) };
      if (call) call.result = result;
      else if (current) current.calls.push({ id, name: m.name ?? "", args: {}, result });
    }
  }
  return { requests, current, totalCalls, last };
}

/** Whether a call succeeded (2xx). */
export function succeeded(c: Call): boolean {
  return c.result !== undefined && c.result.status >= 200 && c.result.status < 300;
}

/** Whether a call failed (4xx or 5xx). */
export function failed(c: Call): boolean {
  return c.result !== undefined && c.result.status >= 400;
}
