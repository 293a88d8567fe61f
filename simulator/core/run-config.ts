import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { Level } from "../../agents/roles/agent-context.js";
import type { SynthesisLimits, WorkSettings } from "../../specs/synthesize/work-budget.js";

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
  /** Synthesis caps and the per-call time budget of the executor (absent: the defaults). */
  synthesis?: SynthesisSettings;
}

/**
 * The synthesis caps and per-call time budget of a run, as the flags and the config file give them (only what was
 * set; the rest keeps the defaults of `specs/synthesize/work-budget.ts`). Recorded in run.json as `synthesis`.
 */
export interface SynthesisSettings extends Partial<SynthesisLimits> {
  /** Milliseconds of synthesis work one tool call may take before a 500 problem; 0: no limit. */
  requestBudgetMs?: number;
}

const synthesisSchema = z
  .object({
    maxItems: z.number().int().min(1).optional(),
    maxStringLength: z.number().int().min(1).optional(),
    maxDepth: z.number().int().min(1).optional(),
    maxSize: z.number().int().min(1).optional(),
    requestBudgetMs: z.number().int().min(0).optional(),
  })
  .strict();

/** The synthesis settings recorded in a run's config (`run.json`, a queue's run description); undefined when none or unreadable. */
export function synthesisSettingsOf(config: Record<string, unknown> | undefined): SynthesisSettings | undefined {
  const parsed = synthesisSchema.safeParse(config?.["synthesis"]);
  if (!parsed.success) return undefined;
  const out: SynthesisSettings = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What the executor takes from a run's synthesis settings. */
export function workOf(settings: SynthesisSettings | undefined): WorkSettings | undefined {
  if (!settings) return undefined;
  const { requestBudgetMs, ...limits } = settings;
  return { ...(requestBudgetMs !== undefined ? { budgetMs: requestBudgetMs } : {}), ...(Object.keys(limits).length > 0 ? { limits } : {}) };
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
    synthesis: synthesisSchema.optional(),
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
