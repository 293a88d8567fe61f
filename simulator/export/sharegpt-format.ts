import { giveUpText, type ConversationTurn } from "./conversation.js";
import { lineMeta, type EpisodeFormat, type ExportEpisode, type ResolvedExportOptions } from "./export-format.js";

/** Who speaks a ShareGPT turn: the user's side (`human`, `observation`) and the model's (`gpt`, `function_call`). */
export type ShareGptRole = "human" | "gpt" | "function_call" | "observation";

/** One ShareGPT turn. */
export interface ShareGptTurn {
  from: ShareGptRole;
  value: string;
}

const USER_SIDE = new Set<ShareGptRole>(["human", "observation"]);

function argumentsValue(args: Record<string, unknown> | string): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * The turns in ShareGPT's tool layout (LLaMA-Factory's `sharegpt` format with tools): `function_call` holds
 * `{"name", "arguments"}` as JSON (a JSON list for parallel calls), `observation` holds the result (the results
 * of parallel calls one per line). The sides alternate, user side first and model side last: trailing user-side
 * turns (an episode that broke off) are dropped, and the result is undefined when the turns cannot alternate.
 * Thoughts are not kept (a `function_call` turn holds the call alone).
 */
export function shareGptTurns(turns: readonly ConversationTurn[]): ShareGptTurn[] | undefined {
  const out: ShareGptTurn[] = [];
  for (const t of turns) {
    switch (t.kind) {
      case "instruction":
      case "reply":
        out.push({ from: "human", value: t.text });
        break;
      case "calls": {
        const answered = t.calls.filter((c) => c.result !== undefined);
        if (answered.length === 0) break;
        const calls = answered.map((c) => ({ name: c.name, arguments: argumentsValue(c.arguments) }));
        out.push({ from: "function_call", value: JSON.stringify(calls.length === 1 ? calls[0] : calls) });
        out.push({ from: "observation", value: answered.map((c) => c.result?.content ?? "").join("\n") });
        break;
      }
      case "give-up":
        out.push({ from: "gpt", value: giveUpText(t.text) });
        break;
      default:
        out.push({ from: "gpt", value: t.text });
    }
  }
  while (out.length > 0 && USER_SIDE.has(out[out.length - 1]!.from)) out.pop();
  if (out.length === 0) return undefined;
  for (let i = 0; i < out.length; i++) if (USER_SIDE.has(out[i]!.from) !== (i % 2 === 0)) return undefined;
  return out;
}

/**
 * ShareGPT JSONL as LLaMA-Factory reads it (`formatting: sharegpt`, columns `conversations`, `system`, `tools`):
 * `tools` is a JSON string of `[{name, description, parameters}]`. Episodes whose turns cannot alternate are
 * skipped.
 */
export const shareGptFormat: EpisodeFormat = {
  name: "sharegpt",
  lines(episode: ExportEpisode, options: ResolvedExportOptions) {
    const conversations = shareGptTurns(episode.turns);
    if (!conversations) return [];
    return [
      {
        conversations,
        ...(options.system !== "" ? { system: options.system } : {}),
        tools: JSON.stringify(episode.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
        ...(options.meta ? { meta: lineMeta(episode.record) } : {}),
      },
    ];
  },
};
