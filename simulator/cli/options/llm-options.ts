import { Command, Option } from "commander";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LlmRole } from "../../../agents/llm/llm-gateway.js";
import { parseModelSpec, type ModelSpec, type ModelSpecOptions } from "../../../agents/llm/model-spec.js";
import { DEFAULT_PRICES, type PriceTable } from "../../../agents/llm/price-table.js";
import type { LlmSettings } from "../../core/run-config.js";
import type { LlmRunOptions } from "../../core/llm-agents.js";
import { UsageError, UserError } from "../cli-io.js";
import { parseInteger } from "./parse-options.js";

/** The model flags of `generate` as commander gives them. */
export interface LlmFlags {
  model?: string;
  userModel?: string;
  assistantModel?: string;
  executorModel?: string;
  testerModel?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: string;
  maxTokens?: string;
  timeout?: string;
  retries?: string;
  llmConcurrency?: string;
  rpm?: string;
  assistantFormat?: "native" | "react" | "apibank";
  dfsdt?: boolean;
  judgeVotes?: string;
  runCache?: boolean;
  maxCost?: string;
  maxCalls?: string;
  replay?: string;
}

/** Adds the model flags to a command. */
export function addLlmOptions(cmd: Command): Command {
  return cmd
    .option("--model <spec>", "model of every role: offline (default) or openai:<model>[@<base-url>]")
    .option("--user-model <spec>", "model of the user (overrides --model)")
    .option("--assistant-model <spec>", "model of the assistant (overrides --model)")
    .option("--executor-model <spec>", "model of the tool executor (overrides --model)")
    .option("--tester-model <spec>", "model of the tester's judge (overrides --model)")
    .option("--base-url <url>", "OpenAI-compatible endpoint (else TOOLSIM_BASE_URL, OPENAI_BASE_URL, api.openai.com)")
    .option("--api-key-env <name>", "environment variable holding the API key (default OPENAI_API_KEY)")
    .option("--temperature <t>", "sampling temperature")
    .option("--max-tokens <n>", "most tokens per answer")
    .option("--timeout <ms>", "timeout of one model call, in ms (default 60000)")
    .option("--retries <n>", "retries of a model call on 429, 5xx and timeouts (default 4)")
    .option("--llm-concurrency <n>", "model calls in flight per endpoint (default 8)")
    .option("--rpm <n>", "model requests per minute per endpoint")
    .addOption(new Option("--assistant-format <format>", "how an LLM assistant calls tools").choices(["native", "react", "apibank"]))
    .option("--dfsdt", "wrap the LLM assistant in ToolLLM's depth-first search (DFSDT)")
    .option("--judge-votes <k>", "votes of the LLM judge (default 3)")
    .option("--run-cache", "give the same executor answer to the same call across the whole run")
    .option("--max-cost <usd>", "stop starting episodes once model calls cost this much (resumable)")
    .option("--max-calls <n>", "stop starting episodes after this many model calls (resumable)")
    .option("--replay <cassette>", "answer every model call from a cassette (a cassette.jsonl or a run folder): no endpoint needed");
}

function parseNumber(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`${name} must be a number >= ${min}, got "${value}"`);
  return n;
}

/** Merges the flags over the settings from the config file or the resumed run (flags win). */
export function mergeLlmSettings(base: LlmSettings | undefined, flags: LlmFlags): LlmSettings {
  const out: LlmSettings = { ...base };
  const set = <K extends keyof LlmSettings>(key: K, value: LlmSettings[K] | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  set("model", flags.model);
  set("userModel", flags.userModel);
  set("assistantModel", flags.assistantModel);
  set("executorModel", flags.executorModel);
  set("testerModel", flags.testerModel);
  set("baseUrl", flags.baseUrl);
  set("apiKeyEnv", flags.apiKeyEnv);
  set("temperature", parseNumber("--temperature", flags.temperature));
  set("maxTokens", parseInteger("--max-tokens", flags.maxTokens, 1));
  set("timeoutMs", parseInteger("--timeout", flags.timeout, 1));
  set("retries", parseInteger("--retries", flags.retries, 0));
  set("llmConcurrency", parseInteger("--llm-concurrency", flags.llmConcurrency, 1));
  set("rpm", parseNumber("--rpm", flags.rpm, 0.001));
  set("assistantFormat", flags.assistantFormat);
  if (flags.dfsdt) out.dfsdt = true;
  if (flags.runCache) out.runCache = true;
  set("judgeVotes", parseInteger("--judge-votes", flags.judgeVotes, 1));
  set("maxCost", parseNumber("--max-cost", flags.maxCost, 0));
  set("maxCalls", parseInteger("--max-calls", flags.maxCalls, 1));
  return out;
}

/** Whether any role uses a model. */
export function usesModels(settings: LlmSettings): boolean {
  return [settings.model, settings.userModel, settings.assistantModel, settings.executorModel, settings.testerModel].some(
    (m) => m !== undefined && m.trim() !== "" && m.trim() !== "offline",
  );
}

/** The cassette a `--replay` value names: a cassette file, or the cassette of a run folder. */
export function replayCassettePath(value: string): string {
  const path = existsSync(value) && statSync(value).isDirectory() ? join(value, "cassette.jsonl") : value;
  if (!existsSync(path)) throw new UserError(`no cassette at ${path}`);
  return path;
}

/**
 * The model settings of the run a `--replay` value names (a run folder, or the cassette inside one), from its
 * run.json: `settings` undefined when there is no run.json or it names no model.
 */
export function recordedReplaySettings(value: string): { runJson?: string; settings?: LlmSettings } {
  replayCassettePath(value);
  const dir = existsSync(value) && statSync(value).isDirectory() ? value : dirname(value);
  const path = join(dir, "run.json");
  if (!existsSync(path)) return {};
  try {
    const info = JSON.parse(readFileSync(path, "utf8")) as { config?: { llm?: unknown } };
    const llm = info.config?.llm;
    if (llm === null || typeof llm !== "object" || Array.isArray(llm)) return { runJson: path };
    return { runJson: path, settings: { ...(llm as LlmSettings) } };
  } catch {
    return { runJson: path };
  }
}

/**
 * Turns the settings into the run's LLM options: one model spec per role (parsed, keys from the environment),
 * the cassette (recorded into the run folder, or replayed), strategies and prices.
 */
export function llmRunOptions(settings: LlmSettings, runDir: string, seed: number, replay?: string, env: NodeJS.ProcessEnv = process.env): LlmRunOptions {
  const models = roleModels(settings, { env, requireApiKey: replay === undefined });
  const prices: PriceTable = settings.prices ? { ...DEFAULT_PRICES, ...settings.prices } : DEFAULT_PRICES;
  return {
    models,
    cassette: replay !== undefined ? { mode: "replay", path: replayCassettePath(replay) } : { mode: "record", path: join(runDir, "cassette.jsonl") },
    ...(settings.assistantFormat !== undefined ? { assistantFormat: settings.assistantFormat } : {}),
    ...(settings.dfsdt ? { dfsdt: true } : {}),
    ...(settings.judgeVotes !== undefined ? { judgeVotes: settings.judgeVotes } : {}),
    ...(settings.runCache ? { runCache: true } : {}),
    prices,
    ...(settings.prices ? { configuredPrices: settings.prices } : {}),
    seed,
  };
}

/** The model of each role that has one (parsed, keys from the environment); a usage error names the role and the problem. */
export function roleModels(settings: LlmSettings, options: { env: NodeJS.ProcessEnv; requireApiKey: boolean }): Partial<Record<LlmRole, ModelSpec>> {
  const models: Partial<Record<LlmRole, ModelSpec>> = {};
  const perRole: Record<LlmRole, string | undefined> = {
    user: settings.userModel,
    assistant: settings.assistantModel,
    executor: settings.executorModel,
    tester: settings.testerModel,
  };
  for (const role of ["user", "assistant", "executor", "tester"] as const) {
    const text = perRole[role] ?? settings.model;
    if (text === undefined || text.trim() === "offline") continue;
    const parsed = parseModelSpec(text, { env: options.env, requireApiKey: options.requireApiKey, ...modelSpecOptionsOf(settings) });
    if (!parsed.ok) throw new UsageError(`--${role}-model / --model: ${parsed.errors.map((e) => e.message).join("; ")}`);
    if (parsed.value.provider !== "offline") models[role] = parsed.value;
  }
  return models;
}

/** The model-spec settings (endpoint, key variable, sampling, timeouts, limits) of a run's or a command's LLM settings. */
export function modelSpecOptionsOf(settings: LlmSettings): ModelSpecOptions {
  return {
    ...(settings.baseUrl !== undefined ? { baseURL: settings.baseUrl } : {}),
    ...(settings.apiKeyEnv !== undefined ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    ...(settings.llmConcurrency !== undefined ? { concurrency: settings.llmConcurrency } : {}),
    ...(settings.rpm !== undefined ? { requestsPerMinute: settings.rpm } : {}),
  };
}
