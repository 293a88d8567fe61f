import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { AgentContext } from "../../roles/agent-context.js";
import { apiBankProtocol } from "./apibank-format.js";
import { thoughtOf, toAssistantTurn } from "../chat-model-assistant.js";
import type { AssistantTurn, DialogueMessage } from "../../roles/dialogue.js";
import { messageText, type ToolResultTextOptions } from "../dialogue-messages.js";
import { reactProtocol } from "./react-format.js";
import type { AgentTool, AssistantAgent } from "../../roles/roles.js";
import { excerpt, summarizeErrors, uniqueCallIds, type FormatError, type TextDecision, type TextProtocol } from "./text-protocol.js";

/** The prefix of the give-up reason when no attempt could be read. */
export const UNPARSEABLE_PREFIX = "unparseable model output:";

/** One model answer of a step, as it was read: kept so unparseable output is recorded, not lost. */
export interface TextAttempt {
  episodeId: string;
  /** 1 for the first answer of a step, 2 for the answer after the first feedback, ... */
  attempt: number;
  /** The model's raw text. */
  text: string;
  ok: boolean;
  /** Why it could not be read (empty when ok). */
  errors: FormatError[];
  /** What the parser forgave (empty when nothing). */
  notes: string[];
  /** The turn's kind when ok (`calls`, `question`, `final`, `give-up`). */
  kind?: AssistantTurn["kind"];
}

/** Options of {@link TextProtocolAssistant}. */
export interface TextProtocolAssistantOptions {
  /** The text format: `react` (default), `apibank`, or any {@link TextProtocol}. */
  protocol?: TextProtocol | "react" | "apibank";
  /** Replaces the protocol's system prompt; a function sees the tools and the protocol's own prompt. */
  systemPrompt?: string | ((tools: readonly AgentTool[], protocolPrompt: string) => string);
  /** Re-prompts with the parse errors after an unreadable answer (default 2: at most 3 answers per step). */
  maxRetries?: number;
  /** Stop sequences (default the protocol's, e.g. `\nObservation:`); `false` sends none (models that reject `stop`). */
  stop?: readonly string[] | false;
  /** Call options for every invocation (timeouts, callbacks, temperature via bind...). */
  callOptions?: Partial<BaseChatModelCallOptions>;
  /** How tool results are written into observations. */
  toolResult?: ToolResultTextOptions;
  /** Sees every model answer with its input (accounting, cassettes, debugging). */
  onMessage?: (message: AIMessage | AIMessageChunk, input: readonly BaseMessage[], ctx: AgentContext) => void;
  /** Sees every attempt as it is read (the journal's record of unparseable output). */
  onAttempt?: (attempt: TextAttempt, ctx: AgentContext) => void;
  /** Episodes whose attempts {@link TextProtocolAssistant.attemptsOf} keeps (default 64; the oldest go first). */
  keepEpisodes?: number;
}

function protocolOf(p: TextProtocolAssistantOptions["protocol"]): TextProtocol {
  if (p === undefined || p === "react") return reactProtocol;
  if (p === "apibank") return apiBankProtocol;
  return p;
}

/**
 * The assistant over any LangChain chat model that writes tool calls as text (no `bindTools` needed): the
 * dialogue is written in a text protocol (ReAct or API-Bank), the model's answer is read forgivingly, and an
 * answer that cannot be read is sent back with precise errors, up to `maxRetries` times. When no answer can
 * be read the step gives up with a reason starting {@link UNPARSEABLE_PREFIX}; garbage never throws (model
 * and network errors do, as for every assistant).
 */
export class TextProtocolAssistant implements AssistantAgent {
  readonly protocol: TextProtocol;
  private readonly attempts = new Map<string, TextAttempt[]>();

  constructor(
    readonly model: BaseChatModel,
    private readonly options: TextProtocolAssistantOptions = {},
  ) {
    this.protocol = protocolOf(options.protocol);
  }

  /** The system prompt of a step. */
  systemPromptFor(tools: readonly AgentTool[]): string {
    const own = this.protocol.systemPrompt(tools);
    const custom = this.options.systemPrompt;
    if (custom === undefined) return own;
    return typeof custom === "function" ? custom(tools, own) : custom;
  }

  /** The messages the first attempt of a step sends (system prompt first). */
  messagesFor(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[]): BaseMessage[] {
    return [new SystemMessage(this.systemPromptFor(tools)), ...this.protocol.render(dialogue, this.options.toolResult ? { toolResult: this.options.toolResult } : {})];
  }

  /** The attempts recorded for an episode (every answer of every step, readable or not). */
  attemptsOf(episodeId: string): readonly TextAttempt[] {
    return this.attempts.get(episodeId) ?? [];
  }

  async step(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], ctx: AgentContext): Promise<AssistantTurn> {
    const maxRetries = Math.max(0, this.options.maxRetries ?? 2);
    const stop = this.options.stop === false ? undefined : (this.options.stop ?? this.protocol.stop);
    const callOptions: Partial<BaseChatModelCallOptions> = { ...this.options.callOptions, ...(stop !== undefined && stop.length > 0 ? { stop: [...stop] } : {}) };
    const messages = this.messagesFor(dialogue, tools);
    let lastErrors: FormatError[] = [];
    let lastText = "";
    for (let attempt = 1; attempt <= maxRetries + 1; attempt++) {
      const message = await this.model.invoke(messages, callOptions);
      this.options.onMessage?.(message, [...messages], ctx);
      const text = messageText(message);
      // A server may turn the text into native tool calls anyway: take them as they are.
      if ((message.tool_calls?.length ?? 0) > 0 || (message.invalid_tool_calls?.length ?? 0) > 0) {
        const turn = toAssistantTurn(message, 1);
        const renamed = turn.kind === "calls" ? { ...turn, calls: uniqueCallIds(turn.calls, dialogue) } : turn;
        this.record({ episodeId: ctx.episodeId, attempt, text, ok: true, errors: [], notes: ["took native tool calls"], kind: renamed.kind }, ctx);
        return renamed;
      }
      const parsed = this.protocol.parse(text, tools);
      if (parsed.ok) {
        const turn = toTurn(parsed.value, message, dialogue);
        this.record({ episodeId: ctx.episodeId, attempt, text, ok: true, errors: [], notes: parsed.value.notes, kind: turn.kind }, ctx);
        return turn;
      }
      this.record({ episodeId: ctx.episodeId, attempt, text, ok: false, errors: parsed.errors, notes: [] }, ctx);
      lastErrors = parsed.errors;
      lastText = text;
      messages.push(new AIMessage(text), new HumanMessage(this.protocol.feedback(parsed.errors, tools)));
    }
    const n = maxRetries + 1;
    return {
      kind: "give-up",
      thought: `The last answer was ${JSON.stringify(excerpt(lastText, 120))}.`,
      reason: `${UNPARSEABLE_PREFIX} ${summarizeErrors(lastErrors)} (${n} attempt${n === 1 ? "" : "s"} with feedback)`,
    };
  }

  private record(attempt: TextAttempt, ctx: AgentContext): void {
    let list = this.attempts.get(attempt.episodeId);
    if (!list) {
      list = [];
      this.attempts.set(attempt.episodeId, list);
      const keep = Math.max(1, this.options.keepEpisodes ?? 64);
      while (this.attempts.size > keep) {
        const oldest = this.attempts.keys().next().value;
        if (oldest === undefined) break;
        this.attempts.delete(oldest);
      }
    }
    list.push(attempt);
    this.options.onAttempt?.(attempt, ctx);
  }
}

/** The assistant turn of a decision (the model's reasoning, if it sent some separately, as the thought). */
function toTurn(decision: TextDecision, message: AIMessage | AIMessageChunk, dialogue: readonly DialogueMessage[]): AssistantTurn {
  const thought = decision.thought ?? thoughtOf(message);
  const withThought = thought !== undefined ? { thought } : {};
  switch (decision.kind) {
    case "calls": {
      const calls = uniqueCallIds(
        decision.calls.map((c) => ({ id: "", name: c.name, arguments: c.arguments })),
        dialogue,
      );
      return { kind: "calls", thought: thought ?? `Calling ${calls.map((c) => c.name).join(", ")}.`, calls };
    }
    case "question":
      return { kind: "question", ...withThought, text: decision.text };
    case "final":
      return { kind: "final", ...withThought, text: decision.text };
    case "give-up":
      return { kind: "give-up", ...withThought, reason: decision.reason };
  }
}
