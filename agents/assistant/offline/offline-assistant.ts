import { isObject } from "../../../specs/json-object.js";
import type { AgentContext } from "../../roles/agent-context.js";
import { previousCallCount, toAssistantTurn } from "../assistant-turn.js";
import type { AssistantTurn, DialogueMessage } from "../../roles/dialogue.js";
import { argumentsObject, toolResultText, type ToolResultTextOptions } from "../dialogue-text.js";
import { decideOffline, OfflineToolboxes, type ChatMessageLike, type OfflineToolSpec } from "./offline-decision.js";
import type { AgentTool, AssistantAgent } from "../../roles/roles.js";

/** Options of {@link OfflineAssistant}. */
export interface OfflineAssistantOptions {
  /** How tool results are written into the tool messages the model reads (as in `ChatModelAssistant`). */
  toolResult?: ToolResultTextOptions;
  /** Tool calls allowed per user request before answering with what it has (default 6). */
  maxCallsPerRequest?: number;
}

/** A converted message and the fields of the dialogue message it was made from (reused while they are the same). */
interface Converted {
  from: readonly unknown[];
  message: ChatMessageLike;
}

/** A tool as the offline model reads it, and the fields of the tool it was made from. */
interface ConvertedTool {
  name: unknown;
  description: unknown;
  parameters: unknown;
  spec: OfflineToolSpec | undefined;
}

const NO_KWARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The offline assistant, without LangChain: the same decisions as `new ChatModelAssistant(new OfflineChatModel())`
 * (the deterministic tool-calling model of `offline-decision.ts`), called directly with plain messages. Each
 * dialogue message is converted once (its tool-result text included) and each tool once, so a step costs the
 * decision alone; an offline run never loads @langchain/core. The simulation's default assistant.
 */
export class OfflineAssistant implements AssistantAgent {
  private readonly messages = new WeakMap<DialogueMessage, Converted>();
  private readonly tools = new WeakMap<AgentTool, ConvertedTool>();
  /** The model's caches, per list of tools: this assistant's own. */
  private readonly toolboxes = new OfflineToolboxes();

  constructor(private readonly options: OfflineAssistantOptions = {}) {}

  async step(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], _ctx?: AgentContext): Promise<AssistantTurn> {
    return this.turn(dialogue, tools);
  }

  /** The next turn, synchronously (what `step` resolves to). */
  turn(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[]): AssistantTurn {
    const input: ChatMessageLike[] = [];
    for (const m of dialogue) input.push(this.message(m));
    const specs: OfflineToolSpec[] = [];
    const seen = new Set<string>();
    for (const t of tools) {
      const spec = this.spec(t);
      if (spec && !seen.has(spec.name)) {
        seen.add(spec.name);
        specs.push(spec);
      }
    }
    const decision = decideOffline(input, specs, { maxCallsPerRequest: this.options.maxCallsPerRequest ?? 6, toolboxes: this.toolboxes });
    const answer = {
      content: decision.text,
      additional_kwargs: { thought: decision.thought, ...(decision.debug !== undefined ? { debug: decision.debug } : {}), intent: decision.intent, ...(decision.asks ? { asks: decision.asks } : {}) },
      tool_calls: decision.calls.map((c) => ({ id: c.id, name: c.name, args: c.args, type: "tool_call" as const })),
    };
    return toAssistantTurn(answer, previousCallCount(dialogue) + 1);
  }

  /** A dialogue message as a chat message (what `toLangChainMessages` makes, as a plain object). */
  private message(m: DialogueMessage): ChatMessageLike {
    const from: unknown[] =
      m.role === "user" ? [m.role, m.content] : m.role === "assistant" ? [m.role, m.content, m.thought, m.toolCalls] : [m.role, m.result, m.toolCallId, m.name];
    const hit = this.messages.get(m);
    if (hit && hit.from.length === from.length && hit.from.every((v, i) => v === from[i])) return hit.message;
    let message: ChatMessageLike;
    if (m.role === "user") message = { type: "human", content: m.content, additional_kwargs: NO_KWARGS };
    else if (m.role === "assistant") {
      const calls = m.toolCalls ?? [];
      message = {
        type: "ai",
        content: m.content,
        additional_kwargs: m.thought !== undefined ? { thought: m.thought } : NO_KWARGS,
        tool_calls: calls.map((c) => ({ id: c.id, name: c.name, args: argumentsObject(c.arguments) })),
      };
    } else {
      message = { type: "tool", content: toolResultText(m.result, this.options.toolResult), tool_call_id: m.toolCallId, name: m.name, additional_kwargs: NO_KWARGS };
    }
    this.messages.set(m, { from, message });
    return message;
  }

  /** A tool as the offline model reads it (what `toOfflineToolSpec` makes of its OpenAI function form). */
  private spec(t: AgentTool): OfflineToolSpec | undefined {
    const hit = this.tools.get(t);
    if (hit && hit.name === t.name && hit.description === t.description && hit.parameters === t.parameters) return hit.spec;
    const name: unknown = t.name;
    const spec: OfflineToolSpec | undefined =
      typeof name !== "string" || name === ""
        ? undefined
        : {
            name,
            description: typeof t.description === "string" ? t.description : "",
            parameters: isObject(t.parameters) ? t.parameters : { type: "object", properties: {} },
          };
    this.tools.set(t, { name: t.name, description: t.description, parameters: t.parameters, spec });
    return spec;
  }
}
