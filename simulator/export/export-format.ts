import { DEFAULT_ASSISTANT_PROMPT } from "../../agents/assistant/assistant-turn.js";
import type { AgentTool } from "../../agents/roles/roles.js";
import type { LoadedToolset } from "../../toolsets/toolset.js";
import type { CorpusRecord, RejectedRecord } from "../runs/corpus-projection.js";
import type { ConversationTurn } from "./conversation.js";

/** The training formats of `toolsim export`. */
export const EXPORT_FORMATS = ["openai", "sharegpt", "toolalpaca", "apibank", "alpaca", "mcp", "dpo"] as const;

/** One of {@link EXPORT_FORMATS}. */
export type ExportFormatName = (typeof EXPORT_FORMATS)[number];

/** How exported lines are written. */
export interface ExportOptions {
  /** The system prompt of the chat formats (openai, sharegpt, dpo); `""` for none. Default: the native assistant's prompt. */
  system?: string;
  /** Keep the assistant's thoughts (with its tool calls, and ToolAlpaca's Thought lines). Default true. */
  thoughts?: boolean;
  /** Add a `meta` object (run, episode, outcome, toolsets) to every line. Default false (trainers read the lines as they are). */
  meta?: boolean;
}

/** {@link ExportOptions} with the defaults filled in. */
export interface ResolvedExportOptions {
  system: string;
  thoughts: boolean;
  meta: boolean;
}

/** Fills in the defaults of export options. */
export function resolveExportOptions(options: ExportOptions = {}): ResolvedExportOptions {
  return { system: options.system ?? DEFAULT_ASSISTANT_PROMPT, thoughts: options.thoughts ?? true, meta: options.meta ?? false };
}

/** One episode ready to export: its corpus record and tools (secrets already removed), its turns and toolsets. */
export interface ExportEpisode {
  record: CorpusRecord | RejectedRecord;
  turns: ConversationTurn[];
  /** The tools offered to the assistant, in OpenAI function form. */
  tools: AgentTool[];
  /** The episode's toolsets that could be loaded (their documentation). */
  toolsets: LoadedToolset[];
  /** Their OpenAPI documents, without the example values of secret fields. */
  documents: unknown[];
  /** Removes secrets from text taken from the toolsets (documentation). */
  scrub: (text: string) => string;
}

/** Where a line comes from, added to lines with `--meta`. */
export interface LineMeta {
  runId: string;
  episodeId: string;
  index: number;
  outcome: string;
  toolsets: string[];
  failedStage?: string;
}

/** The meta of an episode. */
export function lineMeta(record: CorpusRecord | RejectedRecord): LineMeta {
  return {
    runId: record.meta.runId,
    episodeId: record.meta.episodeId,
    index: record.meta.index,
    outcome: record.meta.outcome,
    toolsets: record.toolsets,
    ...("failedStage" in record ? { failedStage: record.failedStage } : {}),
  };
}

/** A format that writes each episode as its own line(s). */
export interface EpisodeFormat {
  name: Exclude<ExportFormatName, "dpo">;
  /** The lines of one episode (none when the episode cannot be written in the format). */
  lines(episode: ExportEpisode, options: ResolvedExportOptions): Record<string, unknown>[];
}
