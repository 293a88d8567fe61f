import { ASK_USER_ACTION, reactSystemPrompt, renderReactCalls } from "../../agents/assistant/text/react-format.js";
import { giveUpText, type ConversationTurn } from "./conversation.js";
import { lineMeta, type EpisodeFormat, type ExportEpisode, type ResolvedExportOptions } from "./export-format.js";

/** One user message and the assistant's side until the next one. */
export interface AlpacaRound {
  user: string;
  assistant: string;
}

function thoughtLine(thought: string | undefined, thoughts: boolean): string[] {
  return thoughts && thought !== undefined && thought.trim() !== "" ? [`Thought: ${thought.trim()}`] : [];
}

/**
 * The episode as rounds in toolsim's ReAct text (the format of its ReAct assistant): each user message, then
 * the assistant's side as `Thought:` / `Action:` / `Action Input:` lines with an `Observation:` per result, a
 * question as the `ASK_USER` action, and `Final Answer:` for the answer (or the give-up).
 */
export function alpacaRounds(turns: readonly ConversationTurn[], thoughts: boolean): AlpacaRound[] {
  const rounds: AlpacaRound[] = [];
  let lines: string[] | undefined;
  let user = "";
  const close = (): void => {
    if (lines !== undefined) rounds.push({ user, assistant: lines.join("\n") });
    lines = undefined;
  };
  for (const t of turns) {
    if (t.kind === "instruction" || t.kind === "reply") {
      close();
      user = t.text;
      lines = [];
      continue;
    }
    lines ??= [];
    switch (t.kind) {
      case "calls": {
        lines.push(renderReactCalls(t.calls, thoughts ? t.thought : undefined));
        const answered = t.calls.filter((c) => c.result !== undefined);
        if (answered.length === 1) lines.push(`Observation: ${answered[0]!.result!.content}`);
        else answered.forEach((c, i) => lines?.push(`Observation ${i + 1} (${c.name}): ${c.result!.content}`));
        break;
      }
      case "question":
        lines.push(...thoughtLine(t.thought, thoughts), `Action: ${ASK_USER_ACTION}`, `Action Input: ${JSON.stringify({ question: t.text })}`);
        break;
      case "final":
        lines.push(...thoughtLine(t.thought, thoughts), `Final Answer: ${t.text}`);
        break;
      case "give-up":
        lines.push(...thoughtLine(t.thought, thoughts), `Final Answer: ${giveUpText(t.text)}`);
        break;
    }
  }
  close();
  return rounds.filter((r) => r.assistant !== "");
}

/**
 * Alpaca JSONL (`instruction`, `input`, `output`, plus `system` and `history` as LLaMA-Factory's alpaca format
 * reads them): the last round's user message is the instruction and the assistant's ReAct text the output,
 * earlier rounds go to `history` as `[user, assistant]` pairs, and `system` is toolsim's ReAct prompt listing
 * the tools. `input` stays empty. Alpaca cannot mask tokens, so observations are trained on: prefer openai or
 * sharegpt for masked training.
 */
export const alpacaFormat: EpisodeFormat = {
  name: "alpaca",
  lines(episode: ExportEpisode, options: ResolvedExportOptions) {
    const rounds = alpacaRounds(episode.turns, options.thoughts);
    const last = rounds[rounds.length - 1];
    if (!last) return [];
    return [
      {
        instruction: last.user,
        input: "",
        output: last.assistant,
        system: reactSystemPrompt(episode.tools),
        history: rounds.slice(0, -1).map((r) => [r.user, r.assistant]),
        ...(options.meta ? { meta: lineMeta(episode.record) } : {}),
      },
    ];
  },
};
