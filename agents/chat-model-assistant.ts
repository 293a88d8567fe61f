import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import type { AIMessage, AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { ToolsimError } from "../specs/toolsim-error.js";
import type { AgentContext } from "./agent-context.js";
import type { AssistantToolCall, AssistantTurn, DialogueMessage } from "./dialogue.js";
import { argumentsFromObject, GIVE_UP_PREFIX, messageText, toLangChainMessages, type ToolResultTextOptions } from "./dialogue-messages.js";
import { OfflineChatModel } from "./offline-chat-model.js";
import type { AgentTool, AssistantAgent } from "./roles.js";

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

/** Options of {@link ChatModelAssistant}. */
export interface ChatModelAssistantOptions {
  /** The system prompt (default {@link DEFAULT_ASSISTANT_PROMPT}); a function sees the tools of the step. */
  systemPrompt?: string | ((tools: readonly AgentTool[]) => string);
  /** How tool results are written into tool messages. */
  toolResult?: ToolResultTextOptions;
  /** Call options for every invocation (tool_choice, timeouts, callbacks...). */
  callOptions?: Partial<BaseChatModelCallOptions>;
  /** Sees every model answer with its input (accounting, cassettes, debugging). */
  onMessage?: (message: AIMessage | AIMessageChunk, input: readonly BaseMessage[], ctx: AgentContext) => void;
  /**
   * Call the offline model directly instead of through `invoke` (same answer, no callback machinery; about
   * twice as fast). Default: true when the model is an {@link OfflineChatModel} and no callbacks are set.
   */
  direct?: boolean;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Closing courtesy questions that do not make an answer a question ("Anything else I can help with?"). */
const COURTESY = /\b(anything else|something else|any other (?:questions?|requests?)|(?:can|may) i help|help you with|need more help|further assistance)\b[^?]*\?\s*$/i;
const QUESTION_MARKER = /^\s*(?:\[question\]|QUESTION:)\s*/i;
const GIVE_UP_MARKER = /^\s*(?:GIVE[ _-]?UP:|\[give[ -]?up\])\s*/i;

/** Where a model put its reasoning: `additional_kwargs.thought`, `reasoning_content`, or reasoning blocks. */
export function thoughtOf(message: AIMessage | AIMessageChunk): string | undefined {
  const kw = message.additional_kwargs;
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
export function toAssistantTurn(message: AIMessage | AIMessageChunk, firstCallNumber = 1): AssistantTurn {
  const text = messageText(message).trim();
  const thought = thoughtOf(message);
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
    return { kind: "calls", thought: thought ?? (text !== "" ? text : `Calling ${names}.`), calls };
  }
  const intent = message.additional_kwargs["intent"];
  const withThought = thought !== undefined ? { thought } : {};
  if (intent === "give-up" || GIVE_UP_MARKER.test(text)) {
    const reason = text.replace(GIVE_UP_MARKER, "").trim();
    return { kind: "give-up", ...withThought, reason: reason !== "" ? reason : "The assistant gave up." };
  }
  if (intent === "question") return { kind: "question", ...withThought, text };
  if (intent === "final") return { kind: "final", ...withThought, text };
  if (QUESTION_MARKER.test(text)) return { kind: "question", ...withThought, text: text.replace(QUESTION_MARKER, "").trim() };
  if (text.endsWith("?") && !COURTESY.test(text)) return { kind: "question", ...withThought, text };
  if (text === "") return { kind: "give-up", ...withThought, reason: "The model returned an empty answer." };
  return { kind: "final", ...withThought, text };
}

/**
 * The assistant over any LangChain chat model that supports `bindTools` (the offline model, ChatOpenAI,
 * fakes): the dialogue becomes LangChain messages, the tools are bound in OpenAI function form, and the
 * model's answer becomes an assistant turn.
 */
export class ChatModelAssistant implements AssistantAgent {
  constructor(
    readonly model: BaseChatModel,
    private readonly options: ChatModelAssistantOptions = {},
  ) {}

  /** The LangChain messages a step sends for a dialogue (system prompt first). */
  messagesFor(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[]): BaseMessage[] {
    const prompt = this.options.systemPrompt ?? DEFAULT_ASSISTANT_PROMPT;
    const system = typeof prompt === "function" ? prompt(tools) : prompt;
    return toLangChainMessages(dialogue, { system, ...(this.options.toolResult ? { toolResult: this.options.toolResult } : {}) });
  }

  async step(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], ctx: AgentContext): Promise<AssistantTurn> {
    const input = this.messagesFor(dialogue, tools);
    const openAiTools = tools.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
    const direct = this.options.direct ?? (this.model instanceof OfflineChatModel && this.options.callOptions?.callbacks === undefined);
    if (direct && this.model instanceof OfflineChatModel) {
      const message = this.model.respond(input, openAiTools);
      this.options.onMessage?.(message, input, ctx);
      return toAssistantTurn(message, previousCallCount(dialogue) + 1);
    }
    let runnable: { invoke(input: BaseMessage[], options?: Partial<BaseChatModelCallOptions>): Promise<AIMessageChunk> };
    if (openAiTools.length === 0) runnable = this.model;
    else if (typeof this.model.bindTools === "function") runnable = this.model.bindTools(openAiTools);
    else throw new ToolsimError("model.no-tools", `The chat model ${this.model._llmType()} does not support bindTools.`);
    const message = await runnable.invoke(input, this.options.callOptions);
    this.options.onMessage?.(message, input, ctx);
    return toAssistantTurn(message, previousCallCount(dialogue) + 1);
  }
}

function previousCallCount(dialogue: readonly DialogueMessage[]): number {
  return dialogue.reduce((n, m) => n + (m.role === "assistant" ? (m.toolCalls?.length ?? 0) : 0), 0);
}
