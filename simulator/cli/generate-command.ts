import { Command, Option } from "commander";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { bundledToolsetsDir, loadToolsets } from "../../toolsets/load-toolset.js";
import { formatProblem } from "../../specs/load/spec-problem.js";
import { formatSummary } from "../runs/format-summary.js";
import { Progress } from "../core/progress.js";
import { DEFAULT_RUN_CONFIG, readConfigFile, synthesisSettingsOf, type RunConfig } from "../core/run-config.js";
import { RUN_FILES, type RunInfo } from "../runs/run-info.js";
import { createSimulation } from "../core/simulation.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { acquireRunLock } from "../runs/run-lock.js";
import { secretPolicyOf } from "../runs/secret-policy.js";
import { EXIT_CODES, isSystemIoError, OperationalError, operationalFailure, setExitNote } from "./operational-error.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";
import { CapWarnings } from "./options/cap-warnings.js";
import { synthesisSettingsFromFlags, withWorkBudgetOptions, type WorkBudgetFlags } from "./options/work-budget-options.js";
import type { Level } from "../../agents/roles/agent-context.js";
import { isRedactedUrl, MODEL_DEFAULTS, redactModelText, redactUrl } from "../../agents/llm/model-spec.js";
import type { LlmAgents } from "../core/llm-agents.js";
import type { LlmSettings } from "../core/run-config.js";
import { addLlmOptions, llmRunOptions, mergeLlmSettings, recordedReplaySettings, replayCassettePath, roleModels, usesModels, type LlmFlags } from "./options/llm-options.js";
import { addToolResponseOptions, attachToolResponses, reportUpstream, toolResponseSettings, type ToolResponseFlags } from "./options/tool-response-options.js";
import { connectQueueCoordinator } from "../queue/entry-points.js";
import type { QueueCoordinator } from "../queue/coordinator.js";
import { readQueueFile } from "../queue/queue-file.js";
import { onlyEmptyReads } from "../../specs/respond/empty-answer.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";

interface GenerateOptions extends LlmFlags, ToolResponseFlags, WorkBudgetFlags {
  toolsets?: string[];
  episodes?: string;
  concurrency?: string;
  seed?: string;
  level?: Level;
  out?: string;
  resume?: boolean;
  config?: string;
  maxSteps?: string;
  queue?: string;
}

/** Episodes a coordinator keeps queued or running when `--concurrency` is not given (enough to keep workers busy). */
const QUEUE_IN_FLIGHT = 64;

/** Run-store errors about the run folder itself, reported as user errors. */
const RUN_FOLDER_ERRORS = new Set(["run.exists", "run.mismatch", "run.not-a-run", "run.corrupt"]);

function timestampFolder(now: Date): string {
  const p = (n: number): string => String(n).padStart(2, "0");
  return `runs/${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}

/**
 * The settings recorded in a run folder's `run.json`, for `--resume`: the run goes on as it was started
 * (episodes, seed, level, steps, concurrency, toolset files) without repeating its options. Empty when the
 * folder holds no readable run (the run store reports that).
 */
async function recordedConfig(dir: string): Promise<Partial<RunConfig>> {
  const path = join(dir, RUN_FILES.run);
  if (!existsSync(path)) return {};
  let info: Partial<RunInfo>;
  try {
    info = JSON.parse(await readFile(path, "utf8")) as Partial<RunInfo>;
  } catch {
    return {};
  }
  const c = info.config ?? {};
  const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);
  const out: Partial<RunConfig> = {};
  const episodes = int(c["episodes"]);
  const concurrency = int(c["concurrency"]);
  const maxSteps = int(c["maxSteps"]);
  const seed = int(info.seed);
  if (episodes !== undefined) out.episodes = episodes;
  if (concurrency !== undefined) out.concurrency = concurrency;
  if (maxSteps !== undefined) out.maxSteps = maxSteps;
  if (seed !== undefined) out.seed = seed;
  if (c["level"] === "call" || c["level"] === "retrieve" || c["level"] === "plan") out.level = c["level"];
  if (Array.isArray(info.toolsetFiles) && info.toolsetFiles.length > 0 && info.toolsetFiles.every((f) => typeof f === "string")) out.toolsets = info.toolsetFiles;
  const llm = c["llm"];
  if (llm !== null && typeof llm === "object" && !Array.isArray(llm)) out.llm = llm as LlmSettings;
  const synthesis = synthesisSettingsOf(c);
  if (synthesis) out.synthesis = synthesis;
  return out;
}

/** Settings from defaults, then the config file, then (with `--resume`) the run being resumed, then the command line. */
async function resolveConfig(opts: GenerateOptions, io: CliIO): Promise<RunConfig> {
  let fromFile: Partial<RunConfig> = {};
  const configPath = opts.config ?? (existsSync("toolsim.config.yaml") ? "toolsim.config.yaml" : undefined);
  if (configPath !== undefined) {
    const read = await readConfigFile(configPath);
    if (!read.ok) throw new UserError(read.errors.join("\n"));
    fromFile = read.value;
    if (fromFile.toolsets) fromFile.toolsets = fromFile.toolsets.map((t) => resolve(dirname(configPath), t));
    if (opts.config === undefined) io.err(`toolsim: using ${configPath}\n`);
  }
  const out = opts.out ?? fromFile.out;
  const recorded = opts.resume && out !== undefined ? await recordedConfig(out) : {};
  const config: RunConfig = { ...DEFAULT_RUN_CONFIG, ...fromFile, ...recorded };
  // A replay takes the models and strategies of the run it replays (flags still win).
  const replayed = opts.replay !== undefined ? recordedReplaySettings(opts.replay) : undefined;
  if (replayed?.settings) config.llm = { ...config.llm, ...replayed.settings };
  if (opts.toolsets && opts.toolsets.length > 0) config.toolsets = opts.toolsets;
  config.episodes = parseInteger("--episodes", opts.episodes, 1) ?? config.episodes;
  config.concurrency = parseInteger("--concurrency", opts.concurrency, 1) ?? config.concurrency;
  config.seed = parseInteger("--seed", opts.seed) ?? config.seed;
  config.maxSteps = parseInteger("--max-steps", opts.maxSteps, 1) ?? config.maxSteps;
  if (opts.level) config.level = opts.level;
  if (opts.out) config.out = opts.out;
  if (opts.queue) config.queue = opts.queue;
  // Caps and the time budget: each one from the flag, else the run being resumed, else the config file, else the default.
  const synthesis = { ...fromFile.synthesis, ...recorded.synthesis, ...synthesisSettingsFromFlags(opts) };
  if (Object.keys(synthesis).length > 0) config.synthesis = synthesis;
  else delete config.synthesis;
  // With a queue, --concurrency is how many episodes the coordinator keeps queued or running over all workers.
  if (config.queue && opts.concurrency === undefined && fromFile.concurrency === undefined && recorded.concurrency === undefined) config.concurrency = QUEUE_IN_FLIGHT;
  const llm = mergeLlmSettings(config.llm, opts);
  if (usesModels(llm)) config.llm = llm;
  else delete config.llm;
  if (opts.replay !== undefined && !config.llm) {
    const why = replayed?.runJson === undefined ? `there is no run.json next to it to take the models from` : `${replayed.runJson} names no model (an offline run)`;
    throw new UsageError(`--replay ${opts.replay}: ${why}; give the models with --model (or --user-model, --assistant-model, --executor-model, --tester-model)`);
  }
  // run.json keeps base URLs without their query values (a key may be there): a resumed run needs the URL again.
  if (config.llm && opts.replay === undefined) {
    const redacted = [config.llm.baseUrl, config.llm.model, config.llm.userModel, config.llm.assistantModel, config.llm.executorModel, config.llm.testerModel].find(
      (v) => v !== undefined && isRedactedUrl(v),
    );
    if (redacted !== undefined) {
      throw new UsageError(`the run's base URL had query parameters, which run.json keeps redacted (${redacted}): give the URL again with --base-url (or the model with its @url)`);
    }
  }
  // DFSDT sends every tried branch through the loop: give the search room (its default budget is 16 steps).
  if (config.llm?.dfsdt && opts.maxSteps === undefined && config.maxSteps < 16) config.maxSteps = 16;
  return config;
}

/**
 * The model settings that determine a run's content (recorded in run.json, compared on resume). Budgets,
 * rate limits, timeouts and retries only change how the run goes, so a resumed run may change them.
 */
function contentSettings(settings: LlmSettings): LlmSettings {
  const { maxCost: _cost, maxCalls: _calls, llmConcurrency: _conc, rpm: _rpm, timeoutMs: _timeout, retries: _retries, ...content } = settings;
  // Query values of base URLs (`?api-key=...`) never reach run.json.
  if (content.baseUrl !== undefined) content.baseUrl = redactUrl(content.baseUrl);
  for (const k of ["model", "userModel", "assistantModel", "executorModel", "testerModel"] as const) {
    const v = content[k];
    if (v !== undefined) content[k] = redactModelText(v);
  }
  return content;
}

/** `toolsim generate`: runs a simulation and writes a run folder. */
export function generateCommand(io: CliIO, setExit: (code: number) => void): Command {
  const cmd = new Command("generate")
    .description("simulate episodes over toolsets and write a run folder (offline by default: no network, no model)")
    .option("--toolsets <paths...>", "toolset files or folders (default: the bundled toolsets)")
    .option("--episodes <n>", `number of episodes (default ${DEFAULT_RUN_CONFIG.episodes})`)
    .option("--concurrency <k>", `episodes in flight (default ${DEFAULT_RUN_CONFIG.concurrency})`)
    .option("--seed <s>", `run seed (default ${DEFAULT_RUN_CONFIG.seed})`)
    .addOption(new Option("--level <level>", "API-Bank level").choices(["call", "retrieve", "plan"]))
    .option("--max-steps <n>", `assistant steps per request (default ${DEFAULT_RUN_CONFIG.maxSteps})`)
    .option("--out <dir>", "run folder (default runs/<time>)")
    .option("--resume", "continue the run in --out after an interruption")
    .option("--config <file>", "settings file (default ./toolsim.config.yaml when present)")
    .option("--queue <url>", `run the episodes on workers (toolsim worker) through a Redis job queue, redis://HOST:PORT[/DB]; --concurrency is then the episodes queued or running (default ${QUEUE_IN_FLIGHT})`);
  return withWorkBudgetOptions(addToolResponseOptions(addLlmOptions(cmd), true), "as the resumed run recorded, or the config file").action(async (opts: GenerateOptions) => {
      const config = await resolveConfig(opts, io);
      if (opts.resume && !opts.out && !config.out) throw new UsageError("--resume needs --out DIR: the run folder to continue");
      const paths = config.toolsets.length > 0 ? config.toolsets : [bundledToolsetsDir()];
      for (const p of paths) if (!existsSync(p)) throw new UserError(`no such toolset file or folder: ${p}`);
      const { toolsets, problems } = await loadToolsets(paths);
      for (const p of problems) io.err(`toolsim: skipped: ${formatProblem(p)}\n`);
      if (toolsets.length === 0) throw new UserError(`no toolset could be loaded from ${paths.join(", ")}`);
      const out = config.out ?? timestampFolder(new Date());
      // Recorded responses and the real API answer tool calls only when asked (offline by default).
      const responseSettings = await toolResponseSettings(opts, opts.resume ? { out } : undefined);
      const responses = responseSettings ? await attachToolResponses(toolsets, responseSettings, io) : undefined;
      // One writer per run folder, for the life of the command (the cassette is opened before the run store).
      const lock = acquireRunLock(out, opts.resume ? "generate --resume" : "generate");
      // A closed output (`generate | head`) ends the process where it is: what was written is a resumable prefix.
      setExitNote(`the run in ${out} stays resumable: continue with: npx toolsim generate --resume --out ${out}`);
      try {
        let llm: LlmAgents | undefined;
        if (config.queue && responseSettings) throw new UsageError("--tool-cassette and --upstream answer calls in this process, and --queue runs the episodes on workers: give one or the other");
        // With a queue the workers make the model calls: the models are only checked here (no key needed).
        if (config.llm && config.queue) roleModels(config.llm, { env: process.env, requireApiKey: false });
        if (config.llm && !config.queue) {
          // The toolsets' API keys reach an LLM executor's prompt (the executor receives them in clear): never the cassette.
          // The LLM clients load only when a role has a model.
          const { createLlmAgents } = await import("../core/llm-agents.js");
          llm = await createLlmAgents({ ...llmRunOptions(config.llm, out, config.seed, opts.replay), runFolder: { dir: out, resume: opts.resume === true }, secrets: secretPolicyOf(toolsets) });
          io.err(`toolsim: models: ${Object.entries(llm.describe).map(([role, m]) => `${role} ${m}`).join(", ")}${opts.replay ? ` (replaying ${opts.replay})` : ""}\n`);
          // Episodes in flight beyond the endpoint's cap just wait for it: say so, since it silently caps throughput.
          const cap = config.llm.llmConcurrency ?? MODEL_DEFAULTS.concurrency;
          if (!opts.replay && config.concurrency > cap) {
            io.err(`toolsim: note: --concurrency ${config.concurrency} with --llm-concurrency ${cap}: at most ${cap} model calls in flight per endpoint; raise --llm-concurrency if the endpoint allows\n`);
          }
        }
        const budget = config.llm && (config.llm.maxCost !== undefined || config.llm.maxCalls !== undefined)
          ? { ...(config.llm.maxCost !== undefined ? { maxCost: config.llm.maxCost } : {}), ...(config.llm.maxCalls !== undefined ? { maxCalls: config.llm.maxCalls } : {}) }
          : undefined;
        // The caps and time budget are recorded in run.json and reach the executor here and on a queue's workers.
        const simConfig = config.llm || config.synthesis
          ? { ...(config.llm ? { llm: contentSettings(config.llm) } : {}), ...(config.synthesis ? { synthesis: config.synthesis } : {}) }
          : undefined;
        let stopForBudget = (): void => undefined;
        const coordinator = config.queue
          ? await connectQueueCoordinator({
              url: config.queue,
              toolsets,
              seed: config.seed,
              episodes: config.episodes,
              level: config.level,
              maxSteps: config.maxSteps,
              config: simConfig ?? {},
              ...(opts.replay !== undefined ? { replay: replayCassettePath(opts.replay) } : {}),
              ...(budget ? { budget, onBudget: () => stopForBudget() } : {}),
              say: (line) => io.err(`toolsim: ${line}\n`),
            }).catch((e: unknown) => {
              throw e instanceof ToolsimError ? new UserError(e.message) : e;
            })
          : undefined;
        if (opts.resume && !coordinator && readQueueFile(out)) {
          io.err(`toolsim: note: this run was distributed (${join(out, "queue.json")}); it goes on in this process (give --queue URL to go on with workers)\n`);
        }
        // Answers made from the specs (no model, recording or real API answers the calls): a toolset whose every
        // operation is a read that answers nothing could give no episode worth keeping. It is left out, and said so.
        const fromSpecs = !responseSettings && !coordinator && (llm?.describe["executor"] ?? "offline") === "offline";
        const playable = fromSpecs ? withoutEmptyToolsets(responses?.toolsets ?? toolsets, io) : (responses?.toolsets ?? toolsets);
        const sim = createSimulation({
          ...(simConfig || responses?.config ? { config: { ...(simConfig ?? {}), ...(responses?.config ? { responses: responses.config } : {}) } } : {}),
          ...(llm ? { agents: llm.factory } : {}),
          ...(coordinator ? { runner: coordinator } : {}),
          ...(budget ? { budget } : {}),
          toolsets: playable,
          episodes: config.episodes,
          seed: config.seed,
          level: config.level,
          concurrency: config.concurrency,
          maxSteps: config.maxSteps,
          out,
          resume: opts.resume === true,
        });
        // The secrets the run's events hold are kept out of the cassette too (a token quoted in a prompt).
        if (llm) sim.on("*", (e) => llm?.watch(e));
        const caps = new CapWarnings();
        sim.on("tool.result", (e) => caps.see(e.result));
        // --resume where no run was started yet starts one (so a script may always pass --resume), and says so.
        const resuming = opts.resume === true && existsSync(join(out, RUN_FILES.run));
        if (opts.resume && !resuming) io.err(`toolsim: no run in ${out} yet: starting a new one\n`);
        stopForBudget = () => sim.stop("budget");
        io.err(`toolsim: ${resuming ? "resuming " : ""}${config.episodes} episodes over ${toolsets.length} toolsets (level ${config.level}, seed ${config.seed}) -> ${out}\n`);
        // A distributed run reports its progress (with the workers) on stderr.
        const progress = coordinator ? undefined : new Progress(io);
        let interrupts = 0;
        const onSigint = (): void => {
          interrupts++;
          if (interrupts === 1) {
            io.err("\ntoolsim: stopping after the episodes in flight (Ctrl-C again to quit at once; the run stays resumable)\n");
            sim.stop();
          } else process.exit(130);
        };
        process.on("SIGINT", onSigint);
        try {
          const result = await sim.run({
            onEpisode: (_i, _events, s) => progress?.update({ done: s.episodes, total: config.episodes, accepted: s.accepted, errors: s.errors }),
          });
          const s = result.summary;
          progress?.finish({ done: s.episodes, total: config.episodes, accepted: s.accepted, errors: s.errors });
          io.err(caps.text());
          io.out(formatSummary(s, out));
          if (opts.replay !== undefined && (llm || coordinator)) {
            // The journal (and summary.json, its projection) equals the recorded run's: say here where the answers came from.
            const { calls, replayed } = (llm ?? (coordinator as QueueCoordinator)).stats();
            io.out(`replayed: ${replayed} of ${calls} model calls answered from the cassette (no endpoint called)\n`);
          }
          if (result.interrupted && result.stopReason === "budget") {
            io.out(`budget reached after ${s.episodes} of ${config.episodes} episodes (${s.llm.calls} model calls, $${s.llm.cost.toFixed(4)}); raise --max-cost/--max-calls and continue with:\n  npx toolsim generate --resume --out ${out}${coordinator ? ` --queue ${coordinator.url}` : ""}\n`);
            setExit(3);
          } else if (result.interrupted) {
            io.out(`interrupted after ${s.episodes} of ${config.episodes} episodes; continue with:\n  npx toolsim generate --resume --out ${out}${coordinator ? ` --queue ${coordinator.url}` : ""}\n`);
            setExit(130);
          } else {
            io.out(`corpus: ${join(out, "corpus.jsonl")} (${s.accepted} accepted), rejected: ${join(out, "rejected.jsonl")}\n`);
            // Every call to the real API failed (a dead endpoint): the run did not do what was asked.
            if (!reportUpstream(responses, io)) setExit(1);
            if (s.episodes > 0 && s.errors === s.episodes) {
              // Nothing could run (a dead model endpoint, a broken toolset): not a success, whatever was written.
              const top = s.errorReasons[0];
              io.err(`toolsim: no episode could run: all ${s.episodes} ended with an error${top ? ` (${top.count}x: ${String(top.reason).split("\n")[0]})` : ""}\n`);
              setExit(1);
            }
          }
        } catch (e) {
          // A run folder that cannot be used (exists, mismatched, not a run, corrupt) is the user's to fix: no stack trace.
          if (e instanceof ToolsimError && (RUN_FOLDER_ERRORS.has(e.code) || e.code.startsWith("queue."))) throw new UserError(e.message);
          // A full disk (or a file-size limit) stops the run where it was: what was written is a resumable prefix.
          if (isSystemIoError(e)) {
            const failure = operationalFailure(e);
            throw new OperationalError(`${failure?.message ?? e.message}; the run stays resumable: make room, then continue with: npx toolsim generate --resume --out ${out}`, EXIT_CODES.io);
          }
          throw e;
        } finally {
          process.off("SIGINT", onSigint);
          llm?.close();
          await coordinator?.close();
        }
      } finally {
        setExitNote(undefined);
        lock.release();
      }
    });
}

/**
 * The toolsets with an operation whose answer says something; the others are named on stderr (every episode on
 * them would rest on empty answers). None left: a user error saying why.
 */
function withoutEmptyToolsets<T extends EpisodeToolset>(toolsets: readonly T[], io: { err(text: string): void }): T[] {
  const kept = toolsets.filter((t) => !onlyEmptyReads(t.catalog));
  if (kept.length === 0) {
    throw new UserError(`no toolset left to play: every operation of ${toolsets.map((t) => t.name).join(", ")} is a read whose spec gives its answer no content (give the responses a schema or an example, or answer with --llm or --upstream)`);
  }
  for (const t of toolsets) {
    if (kept.includes(t)) continue;
    io.err(`toolsim: note: ${t.name} left out: every one of its operations is a read whose spec gives its answer no content (no body, no schema, or a schema that says nothing, and no example), so no episode on it could rest on an answer\n`);
  }
  return kept;
}
