import type { DfsdtTrajectory } from "../../agents/assistant/text/dfsdt-assistant.js";
import type { DialogueMessage } from "../../agents/roles/dialogue.js";
import type { AgentTool } from "../../agents/roles/roles.js";
import { argumentsString, type OpenAIMessage } from "./openai-format.js";
import { splitPreferencePair, type PreferencePair } from "./preference-pair.js";

/** Dialogue messages (as the DFSDT search keeps them) as OpenAI chat messages. */
export function dialogueToOpenAI(messages: readonly DialogueMessage[], options: { system?: string; thoughts?: boolean } = {}): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  if (options.system !== undefined && options.system !== "") out.push({ role: "system", content: options.system });
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "tool") out.push({ role: "tool", tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls && m.toolCalls.length > 0) {
      const thought = options.thoughts !== false ? (m.thought ?? (m.content !== "" ? m.content : undefined)) : undefined;
      out.push({
        role: "assistant",
        ...(thought !== undefined ? { content: thought } : {}),
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: argumentsString(c.arguments) } })),
      });
    } else out.push({ role: "assistant", content: m.content });
  }
  return out;
}

/**
 * Preference pairs from a DFSDT search (`DfsdtAssistant.trajectories(episodeId)`): for each request, the
 * trajectory that reached the final answer is chosen over each trajectory that failed, and the prompt is what
 * the two share (the request's base dialogue and their common path; see {@link splitPreferencePair}). Only
 * runs that keep their `DfsdtAssistant` in hand have trees: the journal keeps the turns, not the tree.
 */
export function dfsdtPreferencePairs(trajectories: readonly DfsdtTrajectory[], tools: readonly AgentTool[] = [], options: { system?: string; thoughts?: boolean } = {}): PreferencePair[] {
  const pairs: PreferencePair[] = [];
  const requests = [...new Set(trajectories.map((t) => t.request))];
  for (const request of requests) {
    const ofRequest = trajectories.filter((t) => t.request === request);
    const won = ofRequest.find((t) => t.outcome === "succeeded");
    if (!won) continue;
    const chosen = dialogueToOpenAI(won.messages, options);
    for (const lost of ofRequest.filter((t) => t.outcome === "failed")) {
      const pair = splitPreferencePair(chosen, dialogueToOpenAI(lost.messages, options), tools);
      if (pair) pairs.push(pair);
    }
  }
  return pairs;
}
