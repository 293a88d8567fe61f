import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { Level } from "../../agents/roles/agent-context.js";

/** The settings of a generate run (CLI options, `toolsim.config.yaml`, or code). */
export interface RunConfig {
  /** Toolset files or folders; the bundled toolsets when empty. */
  toolsets: string[];
  episodes: number;
  concurrency: number;
  seed: number;
  level: Level;
  /** Assistant steps allowed per request. */
  maxSteps: number;
  /** Output folder; `runs/<time>` when absent. */
  out?: string;
  /** Model settings; absent: every role offline. */
  llm?: LlmSettings;
  /** `redis://HOST:PORT[/DB]`: run the episodes on workers through this Redis job queue (see `simulator/queue`). */
  queue?: string;
}

/** The model settings of a run, as the CLI flags and the config file give them (no secrets). */
export interface LlmSettings {
  /** The model of every role unless a role has its own: `offline` or `openai:<model>[@<base-url>]`. */
  model?: string;
  userModel?: string;
  assistantModel?: string;
  executorModel?: string;
  testerModel?: string;
  baseUrl?: string;
  /** The environment variable holding the API key (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs?: number;
  retries?: number;
  /** Requests in flight per endpoint. */
  llmConcurrency?: number;
  /** Requests per minute per endpoint. */
  rpm?: number;
  assistantFormat?: "native" | "react" | "apibank";
  dfsdt?: boolean;
  judgeVotes?: number;
  /** Share executor answers across the run. */
  runCache?: boolean;
  maxCost?: number;
  maxCalls?: number;
  /** Prices per model, USD per million tokens: `{ "gpt-4o-mini": { input: 0.15, output: 0.6 } }`. */
  prices?: Record<string, { input: number; output: number }>;
}

/** Defaults of a run: 100 episodes of the bundled toolsets at level `call`, seed 1, 4 at a time. */
export const DEFAULT_RUN_CONFIG: RunConfig = { toolsets: [], episodes: 100, concurrency: 4, seed: 1, level: "call", maxSteps: 8 };

const configSchema = z
  .object({
    toolsets: z.union([z.string(), z.array(z.string())]).optional(),
    episodes: z.number().int().min(1).optional(),
    concurrency: z.number().int().min(1).max(1024).optional(),
    seed: z.number().int().optional(),
    level: z.enum(["call", "retrieve", "plan"]).optional(),
    maxSteps: z.number().int().min(1).max(100).optional(),
    out: z.string().optional(),
    queue: z.string().optional(),
    llm: z
      .object({
        model: z.string().optional(),
        userModel: z.string().optional(),
        assistantModel: z.string().optional(),
        executorModel: z.string().optional(),
        testerModel: z.string().optional(),
        baseUrl: z.string().optional(),
        apiKeyEnv: z.string().optional(),
        temperature: z.number().min(0).max(2).optional(),
        maxTokens: z.number().int().min(1).optional(),
        timeoutMs: z.number().int().min(1).optional(),
        retries: z.number().int().min(0).max(20).optional(),
        llmConcurrency: z.number().int().min(1).optional(),
        rpm: z.number().positive().optional(),
        assistantFormat: z.enum(["native", "react", "apibank"]).optional(),
        dfsdt: z.boolean().optional(),
        judgeVotes: z.number().int().min(1).max(15).optional(),
        runCache: z.boolean().optional(),
        maxCost: z.number().positive().optional(),
        maxCalls: z.number().int().min(1).optional(),
        prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) }).strict()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Reads a `toolsim.config.yaml` (or JSON); problems come back as readable messages. */
export async function readConfigFile(path: string): Promise<{ ok: true; value: Partial<RunConfig> } | { ok: false; errors: string[] }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    return { ok: false, errors: [`cannot read config ${path}: ${(e as Error).message}`] };
  }
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (e) {
    return { ok: false, errors: [`${path}: invalid YAML: ${(e as Error).message.split("\n")[0]}`] };
  }
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => `${path}: ${i.path.join(".") || "(root)"}: ${i.message}`) };
  }
  const { toolsets, ...rest } = parsed.data;
  const value: Partial<RunConfig> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (toolsets !== undefined) value.toolsets = Array.isArray(toolsets) ? toolsets : [toolsets];
  return { ok: true, value };
}
