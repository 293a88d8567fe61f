import { GIVE_UP_PREFIX } from "../../agents/assistant/dialogue-text.js";
import type { ResponseSource } from "../../specs/call/tool-result.js";
import type { CorpusRecord } from "../runs/corpus-projection.js";
import { MAX_OBSERVATION_CHARS } from "../core/observation-text.js";

/** What came back for a call. */
export interface ConversationResult {
  /** The text the assistant read (status and JSON body, truncated when long). */
  content: string;
  status?: number;
  /** The whole body, from the corpus step. */
  body?: unknown;
  source?: ResponseSource;
}

/** One tool call with its result (missing when the episode ended before it came back). */
export interface ConversationCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
  result?: ConversationResult;
}

/**
 * One turn of an episode with its kind made explicit: the exporters' common view of a corpus dialogue (the
 * corpus marks give-ups but leaves questions and answers to be told apart; here every turn says what it is).
 */
export type ConversationTurn =
  | { kind: "instruction"; request: number; text: string }
  | { kind: "reply"; request: number; text: string }
  | { kind: "calls"; request: number; thought?: string; calls: ConversationCall[] }
  | { kind: "question" | "final" | "give-up"; request: number; thought?: string; text: string };

/** The text of a give-up as the assistant writes it (`GIVE UP: reason`). */
export function giveUpText(reason: string): string {
  return reason.trimStart().startsWith(GIVE_UP_PREFIX) ? reason : `${GIVE_UP_PREFIX} ${reason}`;
}

/** A body as text for formats that show the body alone, truncated as the assistant's observations are. */
export function bodyText(body: unknown, max = MAX_OBSERVATION_CHARS): string {
  const text = body === undefined ? "null" : typeof body === "string" ? body : JSON.stringify(body);
  return text.length <= max ? text : `${text.slice(0, max)}... [truncated: ${text.length - max} more characters]`;
}

/**
 * The turns of a corpus record in dialogue order. The first user message of a request is its instruction, later
 * ones are replies; an assistant text is a final answer when the record's answers list it, a give-up when the
 * corpus marks it, and otherwise a question. Tool results are attached to their calls.
 */
export function conversationOf(record: Pick<CorpusRecord, "dialogue" | "steps" | "answers">): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  const stepById = new Map(record.steps.map((s) => [s.call.id, s]));
  const finals = record.answers.filter((a) => a.kind === "final");
  let finalAt = 0;
  let request = -1;
  const seenRequests = new Set<number>();
  let open: ConversationCall[] = [];
  for (const t of record.dialogue) {
    if (t.role === "user") {
      request = t.request;
      if (!seenRequests.has(t.request)) {
        seenRequests.add(t.request);
        turns.push({ kind: "instruction", request: t.request, text: t.content });
      } else turns.push({ kind: "reply", request: t.request, text: t.content });
      open = [];
      continue;
    }
    if (t.role === "tool") {
      const call = open.find((c) => c.id === t.toolCallId && c.result === undefined);
      if (!call) continue;
      const obs = stepById.get(t.toolCallId)?.observation;
      call.result = {
        content: t.content,
        ...(obs ? { status: obs.status, body: obs.body, source: obs.source } : {}),
      };
      continue;
    }
    const thought = t.thought !== undefined && t.thought !== "" ? { thought: t.thought } : {};
    const r = Math.max(request, 0);
    if (t.toolCalls && t.toolCalls.length > 0) {
      open = t.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
      turns.push({ kind: "calls", request: r, ...thought, calls: open });
      continue;
    }
    open = [];
    if (t.giveUp) {
      turns.push({ kind: "give-up", request: r, ...thought, text: t.content });
      continue;
    }
    const next = finals[finalAt];
    if (next !== undefined && next.text === t.content) {
      finalAt++;
      turns.push({ kind: "final", request: next.request, ...thought, text: t.content });
    } else turns.push({ kind: "question", request: r, ...thought, text: t.content });
  }
  return turns;
}

/** A chat message of an export format: system, user, or assistant (text, or tool calls in the format's shape). */
export type ChatMessage<Call> =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content?: string; tool_calls?: Call[] };

/** How a chat format writes calls: a call in the assistant's `tool_calls`, and the message of its result. */
export interface ChatCallShape<Call, Result> {
  toolCall(call: ConversationCall): Call;
  result(call: ConversationCall): Result;
}

/**
 * The turns as chat messages in a format's shape: user messages, assistant messages with `tool_calls` (their
 * thought as the content when thoughts are kept) each followed by one result message per call, and the
 * assistant's questions and answers (a give-up as `GIVE UP: reason`). Calls whose result never came (an episode
 * that broke off) are left out, so every tool call has its result.
 */
export function chatMessages<Call, Result>(
  turns: readonly ConversationTurn[],
  options: { system: string; thoughts: boolean },
  shape: ChatCallShape<Call, Result>,
): Array<ChatMessage<Call> | Result> {
  const out: Array<ChatMessage<Call> | Result> = [];
  if (options.system !== "") out.push({ role: "system", content: options.system });
  for (const t of turns) {
    switch (t.kind) {
      case "instruction":
      case "reply":
        out.push({ role: "user", content: t.text });
        break;
      case "calls": {
        const answered = t.calls.filter((c) => c.result !== undefined);
        if (answered.length === 0) break;
        out.push({ role: "assistant", ...(options.thoughts && t.thought !== undefined ? { content: t.thought } : {}), tool_calls: answered.map((c) => shape.toolCall(c)) });
        for (const c of answered) out.push(shape.result(c));
        break;
      }
      case "give-up":
        out.push({ role: "assistant", content: giveUpText(t.text) });
        break;
      default:
        out.push({ role: "assistant", content: t.text });
    }
  }
  return out;
}
