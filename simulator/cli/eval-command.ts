import { Command } from "commander";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createGateway } from "../../agents/llm/llm-gateway.js";
import { parseModelSpec } from "../../agents/llm/model-spec.js";
import { OfflineAssistant } from "../../agents/assistant/offline/offline-assistant.js";
import type { AssistantAgent } from "../../agents/roles/roles.js";
import { ToolAlpacaJudge } from "../../agents/tester/toolalpaca-judge.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { APIBANK_ERRORS, evaluateAssistantOnTasks, scoreSamples, type ApiBankScores, type EvalSample } from "../eval/apibank/apibank-eval.js";
import { goldReplayReport, type GoldReplayReport } from "../eval/tasks/gold-replay.js";
import { importApiBank, importToolAlpaca } from "../eval/tasks/import-tasks.js";
import { createLlmAgents, type LlmAgents } from "../core/llm-agents.js";
import { passStats, type PassStats } from "../eval/pass-k.js";
import { NO_REFERENCE_RESPONSES, scoreRun, type RunScores } from "../eval/run-eval.js";
import type { SpecCoverage } from "../stats/spec-coverage.js";
import { readTasks, writeTasks, type Task } from "../eval/tasks/task-set.js";
import { deadAssistant, evalPredictionsWith, formatLevels, scoresByLevel } from "./eval-predictions.js";
import { TaskWorlds } from "../eval/tasks/task-toolsets.js";
import { executorBudgetFromFlags, withWorkBudgetOptions, type WorkBudgetFlags } from "./options/work-budget-options.js";
import { evaluateToolAlpaca, scoreToolAlpaca, type ToolAlpacaSample, type ToolAlpacaScores } from "../eval/toolalpaca/toolalpaca-eval.js";
import { isToolAlpacaPredictions, readToolAlpacaPredictions, scoreToolAlpacaPredictions } from "../eval/toolalpaca/predictions.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { addLlmOptions, llmRunOptions, mergeLlmSettings, modelSpecOptionsOf, type LlmFlags } from "./options/llm-options.js";
import { parseInteger } from "./options/parse-options.js";

const USER_CODES = new Set(["predictions.not-found", "predictions.corrupt", "predictions.empty", "predictions.unknown-format", "apibank.bad-spec", "run.not-a-run", "run.corrupt", "tasks.corrupt", "tasks.no-toolset", "import.not-found", "import.bad-file", "apibank.not-found", "apibank.bad-descriptions", "toolalpaca.bad-documentation"]);

function asUserError(e: unknown): never {
  if (e instanceof ToolsimError && USER_CODES.has(e.code)) throw new UserError(e.message);
  throw e;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** Reads a `--tasks` value: `apibank:PATH` (dialogues), `toolalpaca:FILE` (eval set), or a `tasks.jsonl`. */
export async function loadTaskSpec(spec: string): Promise<{ tasks: Task[]; kind: "apibank" | "toolalpaca" | "file"; skipped: string[]; notes?: string[] }> {
  if (spec.startsWith("apibank:")) {
    const r = importApiBank(spec.slice("apibank:".length));
    return { tasks: r.tasks, kind: "apibank", skipped: r.skipped.map((s) => `${s.where}: ${s.reason}`), ...(r.notes ? { notes: r.notes } : {}) };
  }
  if (spec.startsWith("toolalpaca:")) {
    const r = importToolAlpaca(spec.slice("toolalpaca:".length));
    return { tasks: r.tasks, kind: "toolalpaca", skipped: r.skipped.map((s) => `${s.where}: ${s.reason}`) };
  }
  if (!existsSync(spec)) throw new UserError(`no such task set: ${spec} (give apibank:PATH, toolalpaca:FILE or a tasks.jsonl)`);
  return { tasks: await readTasks(spec), kind: "file", skipped: [] };
}

/** `toolsim tasks import apibank|toolalpaca PATH --out tasks.jsonl`. */
export function tasksCommand(io: CliIO, setExit: (code: number) => void): Command {
  const tasks = new Command("tasks").description("task sets: reference conversations to replay and evaluate against");
  const imp = new Command("import")
    .description("import API-Bank dialogues or a ToolAlpaca eval set as a task set (tasks.jsonl)")
    .argument("<format>", "apibank or toolalpaca")
    .argument("<path>", "API-Bank: a folder of *.jsonl dialogues, one dialogue, or a level-1/2/3 test JSON; ToolAlpaca: its eval JSON")
    .requiredOption("--out <file>", "the task set to write (tasks.jsonl)")
    .option("--apibank-root <dir>", "API-Bank's folder with api_descriptions.json and init_database/ (default: found above the path, else $TOOLSIM_CORPORA/apibank)")
    .action(async (format: string, path: string, flags: { out: string; apibankRoot?: string }) => {
      if (format !== "apibank" && format !== "toolalpaca") throw new UsageError(`unknown format "${format}": apibank or toolalpaca`);
      try {
        const r = format === "apibank" ? importApiBank(path, flags.apibankRoot ? { root: flags.apibankRoot } : {}) : importToolAlpaca(path);
        writeTasks(flags.out, r.tasks);
        for (const s of r.skipped) io.err(`toolsim: skipped ${s.where}: ${s.reason}\n`);
        for (const n of r.notes ?? []) io.err(`toolsim: note: ${n}\n`);
        const calls = r.tasks.reduce((n, t) => n + t.goldCalls.length, 0);
        const responses = r.tasks.reduce((n, t) => n + t.goldResponses.length, 0);
        io.out(`${r.tasks.length} tasks (${calls} gold calls, ${responses} gold responses) -> ${flags.out}${r.skipped.length > 0 ? ` (${r.skipped.length} skipped)` : ""}\n`);
        if (r.tasks.length === 0) setExit(1);
      } catch (e) {
        asUserError(e);
      }
    });
  tasks.addCommand(imp);
  return tasks;
}

interface EvalFlags extends LlmFlags, WorkBudgetFlags {
  tasks?: string;
  predictions?: string;
  predictionsFormat?: string;
  assistant?: string;
  judgeModel?: string;
  out?: string;
  json?: boolean;
  seed?: string;
  limit?: string;
}

function formatApiBank(s: ApiBankScores): string {
  const errors = APIBANK_ERRORS.filter((e) => s.errors[e] > 0).map((e) => `${e} ${s.errors[e]}`).join(", ");
  return (
    `API calls: ${s.correct}/${s.apiCalls} correct (accuracy ${pct(s.accuracy)})\n` +
    `responses: ${s.responses}, ROUGE-L ${s.responses > 0 ? s.rougeL.toFixed(4) : NO_REFERENCE_RESPONSES}\n` +
    `tasks: ${s.tasks}, pass rate ${pct(s.passRate)} (every API call correct)\n` +
    `errors: ${errors || "none"}\n`
  );
}

/**
 * ToolAlpaca's figures, each with the judge that produced it: the LLM judge (the paper's evaluation prompt), or rules
 * (procedure: the golden steps made with their values; response: what the calls returned, stated in the answer, over
 * the tasks where there is something to check).
 */
export function formatToolAlpaca(s: ToolAlpacaScores): string {
  const notRun = s.notRun > 0 ? `; ${s.notRun} task${s.notRun === 1 ? "" : "s"} with nothing to judge (not run, or no prediction with steps): counted wrong` : "";
  if (s.judgedBy === "llm") {
    const by = `LLM judge ${s.judge ?? ""}`.trim();
    const uncertain = s.uncertain > 0 ? `; ${s.uncertain} Uncertain` : "";
    return `ToolAlpaca, ${s.tasks} tasks: procedure ${pct(s.process)} (${by}), response ${pct(s.response)} (${by}), overall ${pct(s.overall)} (${by})${uncertain}${notRun}\n`;
  }
  const na = s.tasks - s.responseJudged;
  const over = na > 0 ? ` of ${s.responseJudged}` : "";
  return (
    `ToolAlpaca, ${s.tasks} tasks: procedure ${pct(s.process)} (rules: golden steps with their values), ` +
    `response ${pct(s.response)}${over} (rules: facts the calls returned, stated in the answer${na > 0 ? `; n/a for ${na}: nothing to check` : ""}), ` +
    `overall ${pct(s.overall)}${over} (rules)${notRun}; --judge-model for the paper's LLM judge\n`
  );
}

/** Warns, once per API, of tasks that could not run, and of the tasks the LLM judge failed on. */
function reportToolAlpacaProblems(samples: readonly ToolAlpacaSample[], warn: (m: string) => void): void {
  const byReason = new Map<string, string[]>();
  for (const s of samples) if (s.notRun && s.error !== undefined) byReason.set(s.error, [...(byReason.get(s.error) ?? []), s.task]);
  for (const [reason, tasks] of byReason) warn(`${tasks.length} task${tasks.length === 1 ? "" : "s"} not run (${tasks[0]}${tasks.length > 1 ? ", ..." : ""}): ${reason}`);
  const failed = samples.filter((s) => s.analysis?.startsWith("judge failed:"));
  if (failed.length > 0) warn(`the judge failed on ${failed.length} task${failed.length === 1 ? "" : "s"} (counted Uncertain); first: ${failed[0]?.task}: ${failed[0]?.analysis?.slice("judge failed: ".length)}`);
}

/** Flags of `eval` that only act with `--tasks` (the assistant under evaluation and its run), by option name. */
const TASKS_ONLY_FLAGS: Array<[keyof EvalFlags, string]> = [
  ["assistant", "--assistant"],
  ["predictions", "--predictions"],
  ["predictionsFormat", "--predictions-format"],
  ["out", "--out"],
  ["seed", "--seed"],
  ["limit", "--limit"],
];

/** Model flags that choose or shape agents other than ToolAlpaca's judge: they act in neither form of `eval`. */
const AGENT_MODEL_FLAGS: Array<[keyof EvalFlags, string]> = [
  ["model", "--model"],
  ["userModel", "--user-model"],
  ["assistantModel", "--assistant-model"],
  ["executorModel", "--executor-model"],
  ["testerModel", "--tester-model"],
  ["judgeVotes", "--judge-votes"],
  ["runCache", "--run-cache"],
  ["maxCost", "--max-cost"],
  ["maxCalls", "--max-calls"],
];

/** Model flags that act only when a model is called (the assistant of --tasks or the judge). */
const CALL_FLAGS: Array<[keyof EvalFlags, string]> = [
  ["baseUrl", "--base-url"],
  ["apiKeyEnv", "--api-key-env"],
  ["temperature", "--temperature"],
  ["maxTokens", "--max-tokens"],
  ["timeout", "--timeout"],
  ["retries", "--retries"],
  ["llmConcurrency", "--llm-concurrency"],
  ["rpm", "--rpm"],
  ["replay", "--replay"],
];

/** Assistant-shaping flags: only with --tasks and a model assistant. */
const ASSISTANT_FLAGS: Array<[keyof EvalFlags, string]> = [
  ["assistantFormat", "--assistant-format"],
  ["dfsdt", "--dfsdt"],
];

const given = (flags: EvalFlags, list: Array<[keyof EvalFlags, string]>): string[] => list.filter(([k]) => flags[k] !== undefined && flags[k] !== false).map(([, name]) => name);

/** Refuses flags that would be ignored, saying what they are for (exit 2). */
function checkEvalFlags(flags: EvalFlags, kinds: ReadonlyArray<TargetScores["kind"]>, toolalpacaTasks: boolean | undefined): void {
  const agents = given(flags, AGENT_MODEL_FLAGS);
  if (agents.length > 0) {
    throw new UsageError(`${agents.join(", ")} ${agents.length === 1 ? "does" : "do"} not apply to eval: the assistant under evaluation is --assistant (with --tasks), ToolAlpaca's judge is --judge-model`);
  }
  const modelAssistant = flags.assistant !== undefined && flags.assistant.trim() !== "offline";
  if (flags.tasks === undefined) {
    const tasksOnly = given(flags, TASKS_ONLY_FLAGS);
    if (tasksOnly.length > 0) {
      throw new UsageError(
        `${tasksOnly.join(", ")} only ${tasksOnly.length === 1 ? "applies" : "apply"} with --tasks (evaluating an assistant on tasks); scoring ${kinds.length === 1 ? "a recorded target" : "recorded targets"} runs nothing` +
          (flags.assistant !== undefined ? `. To score another assistant on a run's tasks, fork the run with it (toolsim replay RUN --from-episode all --from-turn 1 --assistant ${flags.assistant} --out DIR) and eval DIR` : ""),
      );
    }
    if (flags.judgeModel !== undefined && !kinds.includes("run")) {
      throw new UsageError("--judge-model judges the episodes of runs (or an assistant with --tasks toolalpaca:...); none of these targets is a run");
    }
    const ass = given(flags, ASSISTANT_FLAGS);
    if (ass.length > 0) throw new UsageError(`${ass.join(", ")} ${ass.length === 1 ? "shapes" : "shape"} the assistant of --tasks; scoring recorded targets runs no assistant`);
  } else {
    if (kinds.length > 0) throw new UsageError("give either targets to score or --tasks to evaluate an assistant, not both");
    if (flags.judgeModel !== undefined && toolalpacaTasks === false) throw new UsageError("--judge-model is ToolAlpaca's judge: it applies to toolalpaca tasks (and to runs), not to API-Bank tasks, which are scored by call correctness and ROUGE-L");
    const ass = given(flags, ASSISTANT_FLAGS);
    if (ass.length > 0 && !modelAssistant) throw new UsageError(`${ass.join(", ")} ${ass.length === 1 ? "shapes" : "shape"} a model assistant: give --assistant openai:<model>`);
  }
  const calls = given(flags, CALL_FLAGS);
  if (calls.length > 0 && flags.judgeModel === undefined && !modelAssistant) {
    throw new UsageError(`${calls.join(", ")} ${calls.length === 1 ? "configures" : "configure"} model calls, and this eval calls no model (give --judge-model, or --assistant openai:<model> with --tasks)`);
  }
}

/** `eval --predictions FILE --tasks ...`: scores existing model outputs (see `eval-predictions.ts`). */
async function evalPredictions(io: CliIO, flags: EvalFlags, tasks: Task[], file: string, seed: number): Promise<void> {
  await evalPredictionsWith(io, { tasks, file, seed, ...(flags.predictionsFormat !== undefined ? { format: flags.predictionsFormat } : {}), ...(flags.out !== undefined ? { out: flags.out } : {}), json: flags.json === true, tasksSpec: flags.tasks ?? "", format_: formatApiBank, worlds: new TaskWorlds(executorBudgetFromFlags(flags)) });
}

/** ToolAlpaca's LLM judge from `--judge-model` and the call flags. */
function judgeOf(flags: EvalFlags): ToolAlpacaJudge | undefined {
  if (flags.judgeModel === undefined) return undefined;
  const settings = mergeLlmSettings({}, flags);
  const parsed = parseModelSpec(flags.judgeModel, {
    env: process.env,
    requireApiKey: true,
    ...modelSpecOptionsOf(settings),
  });
  if (!parsed.ok) throw new UsageError(`--judge-model: ${parsed.errors.map((e) => e.message).join("; ")}`);
  if (parsed.value.provider === "offline") throw new UsageError("--judge-model needs a model (openai:<model>[@<base-url>]); without it, rules judge");
  return new ToolAlpacaJudge(
    // The spec carries the sampling, timeout, retry and endpoint-limit settings; the gateway reads them there.
    createGateway(parsed.value, { role: "tester" }),
    // Named by provider and model only: a base URL may carry credentials.
    { label: `${parsed.value.provider}:${parsed.value.model}` },
  );
}

function formatCoverage(c: SpecCoverage): string {
  const f = (name: string, x: SpecCoverage["operations"]): string => `${name} ${x.covered}/${x.total} (${pct(x.ratio)})`;
  return `spec coverage: ${f("operations", c.operations)}, ${f("parameters", c.parameters)}, ${f("enum values", c.enumValues)}, ${f("error responses", c.errorResponses)}\n`;
}

function formatGold(r: GoldReplayReport): string {
  const defects = Object.entries(r.defects).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ");
  const dis = Object.entries(r.disagreements).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ");
  return (
    `gold calls replayed with state: ${r.agreed}/${r.calls} agree (${pct(r.agreementRate)}; ${pct(r.reproducibleRate)} of the reproducible ones), ${r.tasks} tasks, ${r.tasksAllAgreed} fully agreeing\n` +
    `source defects: ${defects || "none"} (${r.defectiveCalls} calls, repaired)\n` +
    `disagreements: ${dis || "none"}\n` +
    (r.failed.length > 0 ? `failed tasks: ${r.failed.length} (first: ${r.failed[0]?.task}: ${r.failed[0]?.reason})\n` : "")
  );
}

function formatPass(p: PassReport): string {
  const ks = Object.keys(p.passHat).map(Number);
  const skipped = p.skipped > 0 ? ` (${p.skipped} episode(s) whose task is not in every run left out)` : "";
  return `pass rate ${pct(p.passRate)} over ${p.tasks} tasks x ${p.trials} runs${skipped}; ${ks.map((k) => `pass^${k} ${pct(p.passHat[k] as number)}`).join(", ")}\n`;
}

/** Pass statistics over several targets, with how many trials were left out because their task is not in every target. */
type PassReport = PassStats & { skipped: number; keyedBy: "task" | "plan-or-instruction" };

/**
 * pass^k over runs or evaluation folders: trials are matched by their task (a run's episodes by the hash of their
 * plan, else of their instructions; an evaluation's by task id), never by position. A task missing from some
 * target is left out with a warning; targets with no task in common are refused.
 */
export function passOverTargets(scored: readonly TargetScores[], warn: (m: string) => void): PassReport | undefined {
  const trials = scored.filter((s): s is Extract<TargetScores, { kind: "run" | "eval" }> => s.kind === "run" || s.kind === "eval");
  if (trials.length < 2) return undefined;
  const kinds = new Set(trials.map((t) => t.kind));
  if (kinds.size > 1) throw new UserError("pass^k compares runs with runs, or evaluation folders with evaluation folders: these targets mix both");
  // Per target: task -> outcomes in order (a task may recur within a run: its n-th occurrence matches the n-th elsewhere).
  const perTarget = trials.map((t) => {
    const m = new Map<string, boolean[]>();
    const list: Array<[string, boolean]> = t.kind === "run" ? t.scores.outcomes.map((o) => [o.task, o.passed]) : [...t.outcomes];
    for (const [task, passed] of list) {
      const l = m.get(task) ?? [];
      l.push(passed);
      m.set(task, l);
    }
    const keyed = new Map<string, boolean>();
    for (const [task, l] of m) l.forEach((passed, i) => keyed.set(`${task}#${i}`, passed));
    return keyed;
  });
  const first = perTarget[0] as Map<string, boolean>;
  const common = [...first.keys()].filter((k) => perTarget.every((m) => m.has(k)));
  let skipped = 0;
  trials.forEach((t, i) => {
    const extra = [...(perTarget[i] as Map<string, boolean>).keys()].filter((k) => !common.includes(k)).length;
    skipped += extra;
    if (extra > 0 && common.length > 0) warn(`pass^k: ${extra} episode(s) of ${t.target} hold a task that is not in every target; left out`);
  });
  if (common.length === 0) {
    throw new UserError(
      `pass^k needs the same tasks in every target, and ${trials.map((t) => t.target).join(", ")} have none in common ` +
        `(${trials[0]?.kind === "run" ? "runs are matched by each episode's plan: run them with the same seed and toolsets, or replay or fork one run" : "evaluations are matched by task id: evaluate the same task set"})`,
    );
  }
  const stats = passStats(common.map((k) => perTarget.map((m) => m.get(k) as boolean)));
  return { ...stats, skipped, keyedBy: trials[0]?.kind === "run" ? "plan-or-instruction" : "task" };
}

/** What `eval` read from one target. */
type TargetScores =
  | { kind: "run"; target: string; scores: RunScores }
  | { kind: "eval"; target: string; apibank?: ApiBankScores; toolalpaca?: ToolAlpacaScores; outcomes: Map<string, boolean> }
  | { kind: "tasks"; target: string; gold: GoldReplayReport };

function outcomesOf(samples: readonly (EvalSample | Pick<ToolAlpacaSample, "kind" | "task" | "overall">)[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const s of samples) {
    if (!out.has(s.task)) out.set(s.task, true);
    if ((s.kind === "api" && !s.correct) || (s.kind === "toolalpaca" && s.overall !== true)) out.set(s.task, false);
  }
  return out;
}

function readSamples(dir: string): Array<EvalSample | ToolAlpacaSample> {
  return readFileSync(join(dir, "samples.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as EvalSample | ToolAlpacaSample);
}

/** What kind of target a path is (without reading it): a task set file, an evaluation folder, or a run folder. */
function targetKind(target: string): TargetScores["kind"] {
  if (!existsSync(target)) throw new UserError(`no such run, eval folder or task set: ${target}`);
  if (statSync(target).isFile()) return "tasks";
  return existsSync(join(target, "samples.jsonl")) ? "eval" : "run";
}

async function scoreTarget(target: string, warn: (m: string) => void, worlds: TaskWorlds, judge?: ToolAlpacaJudge): Promise<TargetScores> {
  const kind = targetKind(target);
  if (kind === "tasks") return { kind: "tasks", target, gold: await goldReplayReport(await readTasks(target), worlds) };
  if (kind === "eval") {
    const samples = readSamples(target);
    const api = samples.filter((s): s is EvalSample => s.kind === "api" || s.kind === "response");
    const ta = samples.filter((s): s is ToolAlpacaSample => s.kind === "toolalpaca");
    return { kind: "eval", target, ...(api.length > 0 ? { apibank: scoreSamples(api) } : {}), ...(ta.length > 0 ? { toolalpaca: scoreToolAlpaca(ta) } : {}), outcomes: outcomesOf(samples) };
  }
  return { kind: "run", target, scores: await scoreRun(target, { warn, ...(judge ? { judge } : {}) }) };
}

function formatTarget(t: TargetScores): string {
  if (t.kind === "tasks") return `${t.target} (task set)\n${formatGold(t.gold)}`;
  if (t.kind === "eval") return `${t.target} (evaluation)\n${t.apibank ? formatApiBank(t.apibank) : ""}${t.toolalpaca ? formatToolAlpaca(t.toolalpaca) : ""}`;
  const s = t.scores;
  const errors = APIBANK_ERRORS.filter((e) => s.errors[e] > 0).map((e) => `${e} ${s.errors[e]}`).join(", ");
  return (
    `${t.target} (run)\n` +
    `episodes ${s.episodes}, accepted ${s.accepted} (pass rate ${pct(s.passRate)})\n` +
    `planned calls: ${s.correctCalls}/${s.plannedCalls} made correctly (${pct(s.callAccuracy)}); errors: ${errors || "none"}\n` +
    formatToolAlpaca(s.toolalpaca) +
    `ROUGE-L: ${s.rougeLNote}\n` +
    (s.coverage ? formatCoverage(s.coverage) : `${s.coverageNote ?? ""}\n`)
  );
}

/** Whether a predictions file is ToolAlpaca's (its eval set as JSON with an `Instances` list per API). */
function isToolAlpacaPredictionsFile(file: string, format: string | undefined): boolean {
  if (format !== undefined) return format === "toolalpaca";
  if (!existsSync(file)) return false;
  try {
    return isToolAlpacaPredictions(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return false;
  }
}

/** `eval --predictions FILE [--tasks SPEC]`: scores a model's outputs in ToolAlpaca's own format. */
async function evalToolAlpacaPredictions(file: string, targets: readonly string[], flags: EvalFlags, io: CliIO, setExit: (code: number) => void): Promise<void> {
  if (targets.length > 0) throw new UsageError("--predictions scores the outputs in its file against --tasks; give no run or task-set targets with it");
  const running = given(flags, [["assistant", "--assistant"], ["seed", "--seed"], ...ASSISTANT_FLAGS, ...AGENT_MODEL_FLAGS]);
  if (running.length > 0) throw new UsageError(`${running.join(", ")} ${running.length === 1 ? "shapes" : "shape"} an assistant run, and --predictions scores outputs already made`);
  const calls = given(flags, CALL_FLAGS);
  if (calls.length > 0 && flags.judgeModel === undefined) throw new UsageError(`${calls.join(", ")} ${calls.length === 1 ? "configures" : "configure"} model calls, and scoring predictions by rules calls no model (give --judge-model)`);
  if (!existsSync(file)) throw new UserError(`no such predictions file: ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UserError(`${file}: not JSON: ${(e as Error).message}`);
  }
  if (!isToolAlpacaPredictions(data)) throw new UserError(`${file}: not a predictions file toolsim reads (ToolAlpaca: its eval set with an "Instances" list per API, as instance_generation/generation.py writes it)`);
  const predictions = readToolAlpacaPredictions(data);
  for (const p of predictions.problems) io.err(`toolsim: warning: ${file}: ${p}\n`);
  if (predictions.keysReplaced > 0) io.err(`toolsim: note: ${predictions.keysReplaced} occurrence(s) of API keys in ${file} replaced by the toolsets' placeholder credentials (the keys are written nowhere)\n`);
  // The tasks: --tasks, else the golden answers the predictions file carries (as ToolAlpaca's evaluation.py reads them).
  const loaded = await loadTaskSpec(flags.tasks ?? `toolalpaca:${file}`);
  for (const s of loaded.skipped) io.err(`toolsim: skipped ${s}\n`);
  for (const n of loaded.notes ?? []) io.err(`toolsim: note: ${n}\n`);
  const limit = parseInteger("--limit", flags.limit, 1);
  const all = loaded.tasks.filter((t) => t.source === "toolalpaca");
  const tasks = limit !== undefined ? all.slice(0, limit) : all;
  if (tasks.length === 0) throw new UserError(`no ToolAlpaca tasks in ${flags.tasks ?? file}${flags.tasks === undefined ? " (give the eval set with --tasks toolalpaca:FILE)" : ""}`);
  if (flags.tasks === undefined && tasks.every((t) => t.goldCalls.length === 0)) throw new UserError(`${file} has no golden answers to score against: give the eval set with --tasks toolalpaca:FILE`);
  const matched = tasks.filter((t) => predictions.byTask.has(t.id)).length;
  if (matched === 0) throw new UserError(`no prediction in ${file} matches a task of ${flags.tasks ?? file} (predictions are matched by API Name and instruction position)`);
  if (matched < tasks.length) io.err(`toolsim: warning: ${tasks.length - matched} of ${tasks.length} tasks have no prediction in ${file}: judged wrong\n`);
  const judge = judgeOf(flags);
  const samples = await scoreToolAlpacaPredictions(tasks, predictions, new TaskWorlds(executorBudgetFromFlags(flags)), judge ? { judge } : {});
  reportToolAlpacaProblems(samples.filter((s) => !s.notRun), (m) => io.err(`toolsim: warning: ${m}\n`));
  const noSteps = samples.filter((s) => s.notRun && predictions.byTask.has(s.task));
  if (noSteps.length > 0) io.err(`toolsim: warning: ${noSteps.length} instance(s) without intermediate steps judged wrong, as ToolAlpaca's evaluation counts them (first: ${noSteps[0]?.task})\n`);
  const result = { predictions: file, tasks: flags.tasks ?? file, toolalpaca: scoreToolAlpaca(samples) };
  io.out(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatToolAlpaca(result.toolalpaca));
  if (flags.out !== undefined) {
    mkdirSync(flags.out, { recursive: true });
    writeFileSync(join(flags.out, "eval.json"), `${JSON.stringify({ ...result, predictionsFile: resolve(file) }, null, 2)}\n`);
    writeFileSync(join(flags.out, "samples.jsonl"), samples.map((x) => `${JSON.stringify(x)}\n`).join(""));
    if (!flags.json) io.out(`-> ${join(flags.out, "eval.json")}, ${join(flags.out, "samples.jsonl")}\n`);
  }
  if (samples.every((x) => x.notRun)) setExit(1);
}

/** `toolsim eval`: scores runs, evaluation folders or task sets, or evaluates an assistant on tasks (--tasks). */
export function evalCommand(io: CliIO, setExit: (code: number) => void): Command {
  const cmd = new Command("eval")
    .description("score runs or task sets (API-Bank and ToolAlpaca metrics, pass^k, spec coverage), or evaluate an assistant on tasks")
    .argument("[targets...]", "run folders, evaluation folders (--out of eval --tasks) or task sets (tasks.jsonl: gold calls replayed); several runs (or evaluations) of the same tasks: pass^k")
    .option("--tasks <spec>", "evaluate an assistant on tasks: apibank:PATH (dialogues), toolalpaca:FILE (eval set) or a tasks.jsonl")
    .option("--assistant <spec>", "with --tasks: the assistant under evaluation, offline (default) or openai:<model>[@<base-url>]")
    .option("--predictions <file>", "score a model's existing outputs instead of running an assistant: ToolAlpaca's (its eval set with the Instances its generation script adds; --tasks defaults to the golden answers in the file), API-Bank's prediction files or toolsim's eval samples.jsonl (with --tasks)")
    .option("--predictions-format <format>", "the format of --predictions when it is not detected: toolalpaca, apibank or toolsim")
    .option("--judge-model <spec>", "ToolAlpaca's LLM judge (figure 12 prompt) of the episodes of runs and of toolalpaca tasks; without it, rules judge")
    .option("--out <dir>", "with --tasks: write eval.json and samples.jsonl here")
    .option("--seed <s>", "with --tasks: seed (default 1)")
    .option("--limit <n>", "with --tasks: evaluate the first n tasks only")
    .option("--json", "print the scores as JSON");
  return withWorkBudgetOptions(addLlmOptions(cmd)).action(async (targets: string[], flags: EvalFlags) => {
    try {
      // The caps and time budget of the executors that answer tasks' tool calls (gold replays, assistants on tasks).
      const budget = executorBudgetFromFlags(flags);
      if (flags.predictions !== undefined && isToolAlpacaPredictionsFile(flags.predictions, flags.predictionsFormat)) return await evalToolAlpacaPredictions(flags.predictions, targets, flags, io, setExit);
      if (flags.predictions !== undefined && flags.tasks === undefined) {
        if (!existsSync(flags.predictions)) throw new UserError(`no such predictions file: ${flags.predictions}`);
        throw new UserError(`${flags.predictions}: not a predictions file toolsim reads without --tasks (ToolAlpaca: its eval set with an "Instances" list per API, as instance_generation/generation.py writes it; API-Bank's prediction files and toolsim's samples.jsonl need --tasks)`);
      }
      if (flags.tasks === undefined) {
        if (targets.length === 0) throw new UsageError("give run folders, evaluation folders or task sets to score, or --tasks to evaluate an assistant");
        checkEvalFlags(flags, targets.map(targetKind), undefined);
        const warn = (m: string): void => io.err(`toolsim: warning: ${m}\n`);
        const judge = judgeOf(flags);
        const worlds = new TaskWorlds(budget);
        const scored: TargetScores[] = [];
        for (const t of targets) scored.push(await scoreTarget(t, warn, worlds, judge));
        const pass = passOverTargets(scored, warn);
        const dead = scored.find((t) => t.kind === "tasks" && t.gold.tasks > 0 && t.gold.failed.length === t.gold.tasks);
        if (dead && dead.kind === "tasks") setExit(1);
        if (flags.json) io.out(`${JSON.stringify({ targets: scored.map((s) => ({ ...s, ...(s.kind === "eval" ? { outcomes: Object.fromEntries(s.outcomes) } : {}) })), ...(pass ? { pass } : {}) }, null, 2)}\n`);
        else io.out(`${scored.map(formatTarget).join("\n")}${pass ? `\n${formatPass(pass)}` : ""}`);
        if (dead && dead.kind === "tasks") io.err(`toolsim: no task of ${dead.target} could be replayed: ${dead.gold.failed[0]?.reason ?? "unknown"}\n`);
        return;
      }
      if (targets.length > 0) checkEvalFlags(flags, targets.map(targetKind), undefined);
      const seed = parseInteger("--seed", flags.seed) ?? 1;
      const loaded = await loadTaskSpec(flags.tasks);
      for (const s of loaded.skipped) io.err(`toolsim: skipped ${s}\n`);
      for (const n of loaded.notes ?? []) io.err(`toolsim: note: ${n}\n`);
      const limit = parseInteger("--limit", flags.limit, 1);
      const tasks = limit !== undefined ? loaded.tasks.slice(0, limit) : loaded.tasks;
      if (tasks.length === 0) throw new UserError(`no tasks in ${flags.tasks}`);
      const toolalpaca = tasks.every((t) => t.source === "toolalpaca");
      checkEvalFlags(flags, [], toolalpaca);
      if (flags.predictions !== undefined) {
        if (flags.assistant !== undefined) throw new UsageError("give either --predictions (scores existing outputs) or --assistant (runs one), not both");
        await evalPredictions(io, flags, tasks, flags.predictions, parseInteger("--seed", flags.seed) ?? 1);
        return;
      }
      if (flags.predictionsFormat !== undefined) throw new UsageError("--predictions-format names the format of --predictions");
      const out = flags.out;
      if (out !== undefined) mkdirSync(out, { recursive: true });
      const assistantSpec = flags.assistant ?? "offline";
      let llm: LlmAgents | undefined;
      const settings = mergeLlmSettings({}, flags);
      if (assistantSpec.trim() !== "offline") {
        settings.assistantModel = assistantSpec;
        const options = llmRunOptions(settings, out ?? ".", seed, flags.replay);
        llm = await createLlmAgents(out === undefined && flags.replay === undefined ? { ...options, cassette: { mode: "off" } } : options);
      }
      const assistantFor = (task: Task, index: number): AssistantAgent =>
        llm?.factory({ runId: "eval", episodeId: task.id, index, reportLlmCall: () => undefined }).assistant ?? new OfflineAssistant();
      const worlds = new TaskWorlds(budget);
      let result: Record<string, unknown>;
      let samples: Array<EvalSample | ToolAlpacaSample>;
      try {
        if (toolalpaca) {
          const judge = judgeOf(flags);
          const ta = await evaluateToolAlpaca(tasks, worlds, { assistantFor: (t, i) => assistantFor(t, i), ...(judge ? { judge } : {}), seed });
          samples = ta;
          result = { tasks: flags.tasks, assistant: assistantSpec, toolalpaca: scoreToolAlpaca(ta) };
          reportToolAlpacaProblems(ta, (m) => io.err(`toolsim: warning: ${m}\n`));
          if (!flags.json) io.out(formatToolAlpaca(result["toolalpaca"] as ToolAlpacaScores));
          if (ta.every((x) => x.notRun === true)) setExit(1);
        } else {
          const s = await evaluateAssistantOnTasks(tasks, worlds, { assistantFor, seed });
          samples = s;
          const byLevel = scoresByLevel(s, tasks);
          result = { tasks: flags.tasks, assistant: assistantSpec, apibank: scoreSamples(s), ...(byLevel.length > 1 ? { byLevel } : {}) };
          if (!flags.json) io.out(formatApiBank(result["apibank"] as ApiBankScores) + formatLevels(byLevel));
          const failed = deadAssistant(s);
          if (failed !== undefined) {
            setExit(1);
            io.err(`toolsim: no task could be run: the assistant failed on every turn (${failed})\n`);
          }
        }
      } finally {
        llm?.close();
      }
      if (flags.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
      if (out !== undefined) {
        writeFileSync(join(out, "eval.json"), `${JSON.stringify({ ...result, seed, tasksFile: resolve(flags.tasks.replace(/^(apibank|toolalpaca):/, "")) }, null, 2)}\n`);
        writeFileSync(join(out, "samples.jsonl"), samples.map((s) => `${JSON.stringify(s)}\n`).join(""));
        if (!flags.json) io.out(`-> ${join(out, "eval.json")}, ${join(out, "samples.jsonl")}\n`);
      }
    } catch (e) {
      asUserError(e);
    }
  });
}
