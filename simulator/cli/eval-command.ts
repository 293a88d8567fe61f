import { Command } from "commander";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createGateway } from "../../agents/llm-gateway.js";
import { parseModelSpec } from "../../agents/model-spec.js";
import { OfflineAssistant } from "../../agents/offline-assistant.js";
import type { AssistantAgent } from "../../agents/roles.js";
import { ToolAlpacaJudge } from "../../agents/toolalpaca-judge.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { APIBANK_ERRORS, evaluateAssistantOnTasks, scoreSamples, type ApiBankScores, type EvalSample } from "../apibank-eval.js";
import { goldReplayReport, type GoldReplayReport } from "../gold-replay.js";
import { importApiBank, importToolAlpaca } from "../import-tasks.js";
import { createLlmAgents, type LlmAgents } from "../llm-agents.js";
import { passStats, type PassStats } from "../pass-k.js";
import { scoreRun, type RunScores } from "../run-eval.js";
import type { SpecCoverage } from "../spec-coverage.js";
import { readTasks, writeTasks, type Task } from "../task-set.js";
import { TaskWorlds } from "../task-toolsets.js";
import { evaluateToolAlpaca, scoreToolAlpaca, type ToolAlpacaSample, type ToolAlpacaScores } from "../toolalpaca-eval.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { addLlmOptions, llmRunOptions, mergeLlmSettings, type LlmFlags } from "./llm-options.js";
import { parseInteger } from "./parse-options.js";

const USER_CODES = new Set(["run.not-a-run", "run.corrupt", "tasks.corrupt", "tasks.no-toolset", "import.not-found", "import.bad-file", "apibank.not-found", "apibank.bad-descriptions", "toolalpaca.bad-documentation"]);

function asUserError(e: unknown): never {
  if (e instanceof ToolsimError && USER_CODES.has(e.code)) throw new UserError(e.message);
  throw e;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** Reads a `--tasks` value: `apibank:PATH` (dialogues), `toolalpaca:FILE` (eval set), or a `tasks.jsonl`. */
export async function loadTaskSpec(spec: string): Promise<{ tasks: Task[]; kind: "apibank" | "toolalpaca" | "file"; skipped: string[] }> {
  if (spec.startsWith("apibank:")) {
    const r = importApiBank(spec.slice("apibank:".length));
    return { tasks: r.tasks, kind: "apibank", skipped: r.skipped.map((s) => `${s.where}: ${s.reason}`) };
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

interface EvalFlags extends LlmFlags {
  tasks?: string;
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
    `responses: ${s.responses}, ROUGE-L ${s.rougeL.toFixed(4)}\n` +
    `tasks: ${s.tasks}, pass rate ${pct(s.passRate)} (every API call correct)\n` +
    `errors: ${errors || "none"}\n`
  );
}

function formatToolAlpaca(s: ToolAlpacaScores): string {
  return `ToolAlpaca (${s.judgedBy === "llm" ? "LLM judge" : "rules; give --judge-model for the LLM judge"}): ${s.tasks} tasks, procedure ${pct(s.process)}, response ${pct(s.response)}, overall ${pct(s.overall)}\n`;
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

function formatPass(p: PassStats): string {
  const ks = Object.keys(p.passHat).map(Number);
  return `pass rate ${pct(p.passRate)} over ${p.tasks} tasks x ${p.trials} runs; ${ks.map((k) => `pass^${k} ${pct(p.passHat[k] as number)}`).join(", ")}\n`;
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
    if ((s.kind === "api" && !s.correct) || (s.kind === "toolalpaca" && !s.overall)) out.set(s.task, false);
  }
  return out;
}

function readSamples(dir: string): Array<EvalSample | ToolAlpacaSample> {
  return readFileSync(join(dir, "samples.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as EvalSample | ToolAlpacaSample);
}

async function scoreTarget(target: string, warn: (m: string) => void): Promise<TargetScores> {
  if (!existsSync(target)) throw new UserError(`no such run, eval folder or task set: ${target}`);
  if (statSync(target).isFile()) return { kind: "tasks", target, gold: await goldReplayReport(await readTasks(target), new TaskWorlds()) };
  if (existsSync(join(target, "samples.jsonl"))) {
    const samples = readSamples(target);
    const api = samples.filter((s): s is EvalSample => s.kind === "api" || s.kind === "response");
    const ta = samples.filter((s): s is ToolAlpacaSample => s.kind === "toolalpaca");
    return { kind: "eval", target, ...(api.length > 0 ? { apibank: scoreSamples(api) } : {}), ...(ta.length > 0 ? { toolalpaca: scoreToolAlpaca(ta) } : {}), outcomes: outcomesOf(samples) };
  }
  return { kind: "run", target, scores: await scoreRun(target, { warn }) };
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
    (s.coverage ? formatCoverage(s.coverage) : `${s.coverageNote ?? ""}\n`)
  );
}

/** `toolsim eval`: scores runs, evaluation folders or task sets, or evaluates an assistant on tasks (--tasks). */
export function evalCommand(io: CliIO, setExit: (code: number) => void): Command {
  const cmd = new Command("eval")
    .description("score runs or task sets (API-Bank and ToolAlpaca metrics, pass^k, spec coverage), or evaluate an assistant on tasks")
    .argument("[targets...]", "run folders, evaluation folders (--out of eval --tasks) or task sets (tasks.jsonl: gold calls replayed); several: pass^k")
    .option("--tasks <spec>", "evaluate an assistant on tasks: apibank:PATH (dialogues), toolalpaca:FILE (eval set) or a tasks.jsonl")
    .option("--assistant <spec>", "the assistant under evaluation: offline (default) or openai:<model>[@<base-url>]")
    .option("--judge-model <spec>", "ToolAlpaca: the LLM judge (figure 12 prompt); without it, rules judge")
    .option("--out <dir>", "write eval.json and samples.jsonl here")
    .option("--seed <s>", "seed (default 1)")
    .option("--limit <n>", "evaluate the first n tasks only")
    .option("--json", "print the scores as JSON");
  return addLlmOptions(cmd).action(async (targets: string[], flags: EvalFlags) => {
    try {
      if (flags.tasks === undefined) {
        if (targets.length === 0) throw new UsageError("give run folders, evaluation folders or task sets to score, or --tasks to evaluate an assistant");
        const scored: TargetScores[] = [];
        for (const t of targets) scored.push(await scoreTarget(t, (m) => io.err(`toolsim: warning: ${m}\n`)));
        let pass: PassStats | undefined;
        if (scored.length > 1) {
          const keys = new Map<string, boolean[]>();
          scored.forEach((s, i) => {
            const outcomes: Array<[string, boolean]> =
              s.kind === "run" ? s.scores.outcomes.map((o) => [String(o.index), o.passed]) : s.kind === "eval" ? [...s.outcomes] : [];
            for (const [k, v] of outcomes) {
              const list = keys.get(k) ?? new Array<boolean>(scored.length).fill(false);
              list[i] = v;
              keys.set(k, list);
            }
          });
          pass = passStats([...keys.values()]);
        }
        if (flags.json) io.out(`${JSON.stringify({ targets: scored.map((s) => ({ ...s, ...(s.kind === "eval" ? { outcomes: Object.fromEntries(s.outcomes) } : {}) })), ...(pass ? { pass } : {}) }, null, 2)}\n`);
        else io.out(`${scored.map(formatTarget).join("\n")}${pass ? `\n${formatPass(pass)}` : ""}`);
        return;
      }
      const seed = parseInteger("--seed", flags.seed) ?? 1;
      const loaded = await loadTaskSpec(flags.tasks);
      for (const s of loaded.skipped) io.err(`toolsim: skipped ${s}\n`);
      const limit = parseInteger("--limit", flags.limit, 1);
      const tasks = limit !== undefined ? loaded.tasks.slice(0, limit) : loaded.tasks;
      if (tasks.length === 0) throw new UserError(`no tasks in ${flags.tasks}`);
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
      const worlds = new TaskWorlds();
      const toolalpaca = tasks.every((t) => t.source === "toolalpaca");
      let result: Record<string, unknown>;
      let samples: Array<EvalSample | ToolAlpacaSample>;
      try {
        if (toolalpaca) {
          let judge: ToolAlpacaJudge | undefined;
          if (flags.judgeModel !== undefined) {
            const parsed = parseModelSpec(flags.judgeModel, { env: process.env, requireApiKey: true, ...(settings.baseUrl !== undefined ? { baseURL: settings.baseUrl } : {}) });
            if (!parsed.ok) throw new UsageError(`--judge-model: ${parsed.errors.map((e) => e.message).join("; ")}`);
            judge = new ToolAlpacaJudge(createGateway(parsed.value, { role: "tester" }));
          }
          const ta = await evaluateToolAlpaca(tasks, worlds, { assistantFor: (t, i) => assistantFor(t, i), ...(judge ? { judge } : {}), seed });
          samples = ta;
          result = { tasks: flags.tasks, assistant: assistantSpec, toolalpaca: scoreToolAlpaca(ta) };
          if (!flags.json) io.out(formatToolAlpaca(result["toolalpaca"] as ToolAlpacaScores));
        } else {
          const s = await evaluateAssistantOnTasks(tasks, worlds, { assistantFor, seed });
          samples = s;
          result = { tasks: flags.tasks, assistant: assistantSpec, apibank: scoreSamples(s) };
          if (!flags.json) io.out(formatApiBank(result["apibank"] as ApiBankScores));
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
      void setExit;
    } catch (e) {
      asUserError(e);
    }
  });
}
