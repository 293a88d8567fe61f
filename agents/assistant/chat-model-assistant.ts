import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import type { AIMessage, AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { ToolsimError } from "../../specs/toolsim-error.js";
import type { AgentContext } from "../roles/agent-context.js";
import { DEFAULT_ASSISTANT_PROMPT, previousCallCount, toAssistantTurn } from "./assistant-turn.js";
import type { AssistantTurn, DialogueMessage } from "../roles/dialogue.js";
import { toLangChainMessages, type ToolResultTextOptions } from "./dialogue-messages.js";
import { OfflineChatModel } from "./offline/offline-chat-model.js";
import type { AgentTool, AssistantAgent } from "../roles/roles.js";

export { DEFAULT_ASSISTANT_PROMPT, thoughtOf, toAssistantTurn, type ModelAnswer } from "./assistant-turn.js";

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

