import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "commander";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Cassette } from "../../../agents/llm/cassette.js";
import { createGateway, type LlmCallRecord } from "../../../agents/llm/llm-gateway.js";
import { parseModelSpec } from "../../../agents/llm/model-spec.js";
import { costOf, DEFAULT_PRICES, findPrice, priceOf, withPrices, type PriceTable } from "../../../agents/llm/price-table.js";
import { formatProblem } from "../../../specs/load/spec-problem.js";
import type { BuildMessage } from "../../../toolsets/build/build-prompts.js";
import { readBuildSummary, summarizeBuild, writeBuildSummary, type BuildSummary, type BuildUsage } from "../../../toolsets/build/build-summary.js";
import type { BuildModel } from "../../../toolsets/build/build-toolset.js";
import { BUILD_FILES, buildToolsets } from "../../../toolsets/build/build-toolsets.js";
import { readPublicApis, selectApis } from "../../../toolsets/import/public-apis.js";
import { readConfigFile } from "../../core/run-config.js";
import { acquireRunLock } from "../../runs/run-lock.js";
import { UsageError, UserError, type CliIO } from "../cli-io.js";
import { mergeLlmSettings, modelSpecOptionsOf, replayCassettePath } from "../options/llm-options.js";
import { parseInteger } from "../options/parse-options.js";

interface BuildFlags {
  from: string;
  category?: string;
  limit?: string;
  out: string;
  concurrency?: string;
  repairs?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: string;
  maxTokens?: string;
  timeout?: string;
  retries?: string;
  llmConcurrency?: string;
  rpm?: string;
  replay?: string;
  config?: string;
}

/**
 * The prices a build's cost uses, as `generate` prices: the config file's `llm.prices` over the defaults; a
 * configured price applies wherever the model is served, a default one only off this machine (a local
 * endpoint without a configured price is free). Also the price that applies to the model, and its source.
 */
function buildPricing(model: string, configured: PriceTable | undefined, local: boolean): { table: PriceTable; pricing: BuildSummary["pricing"] } {
  const table = configured ? withPrices(configured) : DEFAULT_PRICES;
  const own = configured !== undefined ? findPrice(model, configured) : undefined;
  const standard = findPrice(model, DEFAULT_PRICES);
  const price = own ?? (local ? { input: 0, output: 0 } : priceOf(model, table));
  const source = own !== undefined ? "config" : standard !== undefined ? "default" : "unpriced";
  return { table, pricing: { input: price.input, output: price.output, local, source } };
}

function toMessage(m: BuildMessage): BaseMessage {
  return m.role === "system" ? new SystemMessage(m.content) : m.role === "assistant" ? new AIMessage(m.content) : new HumanMessage(m.content);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : typeof p === "object" && p !== null && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : "")).join("");
  return "";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `toolsim toolset build --from LIST.json --model ... --out DIR`. */
export function toolsetBuildCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command("build")
    .description("build toolsets from a public-apis list with a model (ToolAlpaca's construction: description, function documentation, OpenAPI; checked and repaired)")
    .requiredOption("--from <list>", "the public-apis list ({entries: [{API, Description, Auth, Link, Category}]}), e.g. ../shared/corpora/toolalpaca/public_apis.json")
    .option("--category <c>", "only the APIs of this category")
    .option("--limit <n>", "only the first n APIs (after --category)")
    .requiredOption("--out <dir>", "folder of the toolsets (<slug>.yaml), failures.jsonl (the APIs not built, with why), build-summary.json and cassette.jsonl; APIs already built there are skipped")
    .option("--concurrency <k>", "APIs built at once (default 4)")
    .option("--repairs <n>", "repair turns per stage when an answer fails its check (default 2)")
    .option("--model <spec>", "openai:<model>[@<base-url>] (with --replay: default the cassette's model)")
    .option("--base-url <url>", "OpenAI-compatible endpoint (else TOOLSIM_BASE_URL, OPENAI_BASE_URL, api.openai.com)")
    .option("--api-key-env <name>", "environment variable holding the API key (default OPENAI_API_KEY)")
    .option("--temperature <t>", "sampling temperature")
    .option("--max-tokens <n>", "most tokens per answer")
    .option("--timeout <ms>", "timeout of one model call, in ms (default 60000)")
    .option("--retries <n>", "retries of a model call on 429, 5xx and timeouts (default 4)")
    .option("--llm-concurrency <n>", "model calls in flight (default 8)")
    .option("--rpm <n>", "model requests per minute")
    .option("--replay <cassette>", "answer every model call from a cassette (a cassette.jsonl or a build folder): no endpoint needed")
    .option("--config <file>", "settings file: its llm section gives the model settings the flags leave out and the prices (default ./toolsim.config.yaml when present)")
    .action(async (opts: BuildFlags) => {
      const startedAt = new Date();
      const limit = parseInteger("--limit", opts.limit, 1);
      const concurrency = parseInteger("--concurrency", opts.concurrency, 1);
      const repairs = parseInteger("--repairs", opts.repairs, 0);
      let data: unknown;
      try {
        data = JSON.parse(await readFile(opts.from, "utf8")) as unknown;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== undefined) throw e;
        throw new UserError(`${opts.from} is not JSON: ${(e as Error).message}`);
      }
      const list = readPublicApis(data, opts.from);
      if (!list.ok) throw new UserError(list.errors.map(formatProblem).join("\n"));
      const apis = selectApis(list.value.apis, { ...(opts.category !== undefined ? { category: opts.category } : {}), ...(limit !== undefined ? { limit } : {}) });
      if (apis.length === 0) throw new UserError(`no APIs in ${opts.from}${opts.category !== undefined ? ` with category "${opts.category}"` : ""}`);

      const configPath = opts.config ?? (existsSync("toolsim.config.yaml") ? "toolsim.config.yaml" : undefined);
      let fromConfig: Awaited<ReturnType<typeof readConfigFile>> | undefined;
      if (configPath !== undefined) {
        fromConfig = await readConfigFile(configPath);
        if (!fromConfig.ok) throw new UserError(fromConfig.errors.join("\n"));
        if (opts.config === undefined) io.err(`toolsim: using ${configPath}\n`);
      }
      const settings = mergeLlmSettings(fromConfig?.ok ? fromConfig.value.llm : undefined, opts);

      const replay = opts.replay !== undefined ? replayCassettePath(opts.replay) : undefined;
      // One writer per build folder, for the life of the command.
      const lock = acquireRunLock(opts.out, "toolset build");
      let cassette: Cassette;
      try {
        cassette = replay !== undefined ? await Cassette.load(replay) : await Cassette.open(join(opts.out, BUILD_FILES.cassette));
      } catch (e) {
        lock.release();
        throw e;
      }
      try {
        const modelText = settings.model ?? (replay !== undefined ? cassette.entries[0]?.model && `openai:${cassette.entries[0].model}` : undefined);
        if (modelText === undefined || modelText === "") throw new UsageError("toolset build needs a model: --model openai:<model>[@<base-url>] (or --replay a cassette)");
        if (modelText.trim() === "offline") throw new UsageError("toolset build needs a language model: the offline model cannot write documentation (use --model openai:<model>[@<base-url>])");
        const parsed = parseModelSpec(modelText, {
          requireApiKey: replay === undefined,
          ...modelSpecOptionsOf(settings),
        });
        if (!parsed.ok) throw new UsageError(`--model: ${parsed.errors.map((e) => e.message).join("; ")}`);
        const spec = parsed.value;
        if (spec.provider === "offline") throw new UsageError("toolset build needs a language model, not the offline one");

        const { table: prices, pricing } = buildPricing(spec.model, settings.prices, spec.local);
        const usage: Omit<BuildUsage, "durationMs"> = { calls: 0, cached: 0, failedCalls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, replayedCostUsd: 0 };
        const onCall = (r: LlmCallRecord): void => {
          usage.calls++;
          if (r.cached) usage.cached++;
          if (r.error !== undefined) usage.failedCalls++;
          usage.promptTokens += r.usage.promptTokens;
          usage.completionTokens += r.usage.completionTokens;
          const cost = costOf(r.usage, r.model, prices, spec.local, settings.prices);
          if (r.cached) usage.replayedCostUsd += cost;
          else usage.costUsd += cost;
        };
        const gateway = createGateway(spec, { role: "assistant", mode: replay !== undefined ? "replay" : "record", cassette, seed: 1, onCall });
        const model: BuildModel = {
          async complete(messages, ctx) {
            // One cassette scope per API: replay finds each API's answers whatever order the APIs ran in.
            const answer = await gateway.scoped({ episodeId: `build:${ctx.slug}` }).invoke(messages.map(toMessage));
            return textOf(answer.content);
          },
        };
        const fixes: Record<string, string[]> = {};
        const warnings: Record<string, number> = {};
        io.err(`toolsim: building ${plural(apis.length, "API")} with ${spec.provider}:${spec.model}${replay !== undefined ? ` (replaying ${replay})` : spec.baseURL ? ` @ ${spec.baseURL}` : ""} -> ${opts.out}\n`);
        const result = await buildToolsets(apis, model, {
          out: opts.out,
          ...(concurrency !== undefined ? { concurrency } : {}),
          ...(repairs !== undefined ? { repairs } : {}),
          onEvent: (e) => {
            if (e.type === "skipped") io.err(`  skip   ${e.api} (already in ${e.file})\n`);
            else if (e.type === "built") {
              if (e.built.fixes.length > 0) fixes[e.api] = e.built.fixes;
              warnings[e.api] = e.built.warnings.length;
              const a = e.built.answers;
              const w = e.built.warnings.length > 0 ? `, ${plural(e.built.warnings.length, "warning")}` : "";
              io.err(`  built  ${e.api} -> ${e.file} (answers: description ${a.description}, functions ${a.functions}, openapi ${a.openapi}${w})\n`);
              for (const fix of e.built.fixes) io.err(`         fixed: ${fix}\n`);
            } else io.err(`  failed ${e.api} at ${e.failure.stage}: ${e.failure.reason}\n`);
          },
        });
        const tokens = usage.promptTokens + usage.completionTokens;
        const replayed = usage.cached > 0 ? ` (+ $${usage.replayedCostUsd.toFixed(4)} when recorded)` : "";
        io.out(
          `built ${result.built.length}, failed ${result.failed.length}, skipped ${result.skipped.length} of ${plural(apis.length, "API")} -> ${opts.out}; ` +
            `${plural(usage.calls, "model call")} (${usage.cached} from cassette, ${usage.failedCalls} failed), ${tokens} tokens (${usage.promptTokens} prompt + ${usage.completionTokens} completion), cost $${usage.costUsd.toFixed(4)}${replayed}\n`,
        );
        const summary = summarizeBuild(
          {
            startedAt,
            finishedAt: new Date(),
            from: opts.from,
            ...(opts.category !== undefined ? { category: opts.category } : {}),
            ...(limit !== undefined ? { limit } : {}),
            model: `${spec.provider}:${spec.model}`,
            ...(replay !== undefined ? { replay } : {}),
            pricing,
            usage,
            apis: apis.length,
            result,
            // In the order of the list, whatever order the APIs finished in.
            fixes: Object.fromEntries(apis.filter((a) => fixes[a.name] !== undefined).map((a) => [a.name, fixes[a.name] as string[]])),
            warnings: Object.fromEntries(apis.filter((a) => warnings[a.name] !== undefined).map((a) => [a.name, warnings[a.name] as number])),
          },
          await readBuildSummary(opts.out),
        );
        const summaryPath = await writeBuildSummary(opts.out, summary);
        io.out(`summary: ${summaryPath}\n`);
        if (result.failures.length > 0) io.out(`failures: ${join(opts.out, BUILD_FILES.failures)} (${plural(result.failures.length, "API")} not built; run again to retry them)\n`);
        setExit(result.failed.length > 0 ? 1 : 0);
        if (result.built.length === 0 && result.failed.length > 0 && result.skipped.length === 0) {
          const first = result.failed[0];
          io.err(`toolsim: no toolset could be built: ${first ? `${first.api} failed at ${first.stage}: ${first.reason.split("\n")[0]}` : "every API failed"}\n`);
        }
      } finally {
        cassette.close();
        lock.release();
      }
    });
}
