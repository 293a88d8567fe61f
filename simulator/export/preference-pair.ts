import type { AgentTool } from "../../agents/roles/roles.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import { openaiTools, type OpenAIMessage, type OpenAITool } from "./openai-format.js";

/** A preference pair in the conversational form TRL's DPO trainer reads: the shared prompt, then two continuations. */
export interface PreferencePair {
  prompt: OpenAIMessage[];
  chosen: OpenAIMessage[];
  rejected: OpenAIMessage[];
  tools?: OpenAITool[];
}

/**
 * Splits two conversations into a preference pair: the prompt is what they share — their longest common
 * prefix, cut back so that it ends before an assistant message, and at least the system prompt and the chosen
 * conversation's first user message — and each continuation is the rest of its conversation. When they share
 * less than the first user message (a pair matched by plan, whose instructions are worded differently), the
 * rejected continuation starts after its own first user message. Undefined when a continuation is empty or
 * both are the same.
 */
export function splitPreferencePair(chosen: readonly OpenAIMessage[], rejected: readonly OpenAIMessage[], tools: readonly AgentTool[] = []): PreferencePair | undefined {
  const firstUser = (msgs: readonly OpenAIMessage[]): number => msgs.findIndex((m) => m.role === "user");
  const cu = firstUser(chosen);
  const ru = firstUser(rejected);
  if (cu < 0 || ru < 0) return undefined;
  let p = 0;
  while (p < chosen.length && p < rejected.length && stableStringify(chosen[p]) === stableStringify(rejected[p])) p++;
  while (p > 0 && chosen[p - 1]?.role === "assistant") p--;
  let promptEnd: number;
  let rejectedFrom: number;
  if (p > cu) {
    promptEnd = p;
    rejectedFrom = p;
  } else {
    promptEnd = cu + 1;
    rejectedFrom = ru + 1;
  }
  const chosenRest = chosen.slice(promptEnd);
  const rejectedRest = rejected.slice(rejectedFrom);
  if (chosenRest.length === 0 || rejectedRest.length === 0) return undefined;
  if (stableStringify(chosenRest) === stableStringify(rejectedRest)) return undefined;
  return { prompt: chosen.slice(0, promptEnd), chosen: chosenRest, rejected: rejectedRest, ...(tools.length > 0 ? { tools: openaiTools(tools) } : {}) };
}
