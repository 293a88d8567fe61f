import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scoreSamples, type ApiBankScores, type EvalSample } from "../eval/apibank/apibank-eval.js";
import { readPredictionFile } from "../eval/predictions/prediction-readers.js";
import { scorePredictions } from "../eval/predictions/score-predictions.js";
import type { Task } from "../eval/tasks/task-set.js";
import { TaskWorlds } from "../eval/tasks/task-toolsets.js";
import { UserError, type CliIO } from "./cli-io.js";

/*
 * The API-Bank side of `eval`'s output: scores per level beside the paper's Table 3, scoring of prediction
 * files (`--predictions`), and the cause when no task could be run (every turn of the assistant failed).
 */

const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;

/** API-Bank's levels, as the paper names them. */
const LEVEL_NAMES: Record<number, string> = { 1: "Call", 2: "Retrieve+Call", 3: "Plan+Retrieve+Call" };

/** The paper's Table 3 (zero-shot GPT-3.5-turbo and GPT-4, and Lynx-7B): correctness and ROUGE-L per level. */
export const PAPER_TABLE_3: Record<number, Array<{ model: string; correctness: number; rouge: number }>> = {
  1: [
    { model: "GPT-3.5-turbo", correctness: 0.594, rouge: 0.4598 },
    { model: "GPT-4", correctness: 0.6366, rouge: 0.3691 },
    { model: "Lynx-7B", correctness: 0.4987, rouge: 0.4332 },
  ],
  2: [
    { model: "GPT-3.5-turbo", correctness: 0.3852, rouge: 0.3758 },
    { model: "GPT-4", correctness: 0.3704, rouge: 0.351 },
    { model: "Lynx-7B", correctness: 0.3037, rouge: 0.2503 },
  ],
  3: [
    { model: "GPT-3.5-turbo", correctness: 0.22, rouge: 0.3809 },
    { model: "GPT-4", correctness: 0.7, rouge: 0.4808 },
    { model: "Lynx-7B", correctness: 0.2, rouge: 0.3425 },
  ],
};

/** The paper's evaluation set per level: dialogues (Table 2). */
const PAPER_DIALOGUES: Record<number, number> = { 1: 214, 2: 50, 3: 50 };

/** Scores per API-Bank level of the tasks. */
export function scoresByLevel(samples: readonly EvalSample[], tasks: readonly Task[]): Array<{ level: number; tasks: number; scores: ApiBankScores }> {
  const levelOf = new Map(tasks.map((t) => [t.id, t.level ?? 1]));
  const levels = [...new Set(tasks.map((t) => t.level ?? 1))].sort();
  return levels.map((level) => {
    const own = samples.filter((s) => levelOf.get(s.task) === level);
    return { level, tasks: tasks.filter((t) => (t.level ?? 1) === level).length, scores: scoreSamples(own) };
  });
}

/** Per-level lines, each with the paper's figures for that level (comparable when the task set is the paper's). */
export function formatLevels(levels: ReadonlyArray<{ level: number; tasks: number; scores: ApiBankScores }>): string {
  return levels
    .map(({ level, tasks, scores }) => {
      const paper = (PAPER_TABLE_3[level] ?? []).map((p) => `${p.model} ${pct(p.correctness)} / ${p.rouge.toFixed(4)}`).join(", ");
      const same = PAPER_DIALOGUES[level] === tasks ? "" : ` (the paper's set has ${PAPER_DIALOGUES[level] ?? "?"} dialogues; this one ${tasks}: not the same set)`;
      return `level ${level} (${LEVEL_NAMES[level] ?? "?"}): ${tasks} tasks, API call accuracy ${pct(scores.accuracy)} (${scores.correct}/${scores.apiCalls}), ROUGE-L ${scores.responses > 0 ? scores.rougeL.toFixed(4) : "n/a"}\n  paper, Table 3: ${paper}${same}\n`;
    })
    .join("");
}

/** The reason every API turn failed because the assistant itself failed (a dead endpoint), if that is what happened. */
export function deadAssistant(samples: readonly EvalSample[]): string | undefined {
  const api = samples.filter((s): s is Extract<EvalSample, { kind: "api" }> => s.kind === "api");
  if (api.length === 0 || !api.every((s) => s.detail?.startsWith("assistant error:"))) return undefined;
  return (api[0]?.detail ?? "").replace(/^assistant error:\s*/, "").split("\n")[0];
}

/** Options of {@link evalPredictionsWith}. */
export interface EvalPredictionsOptions {
  tasks: Task[];
  file: string;
  format?: string;
  seed: number;
  out?: string;
  json: boolean;
  tasksSpec: string;
  format_: (s: ApiBankScores) => string;
  /** The worlds that answer the gold calls (their executors' caps and time budget); default ones otherwise. */
  worlds?: TaskWorlds;
}

/** Reads, scores and reports a prediction file against tasks; writes eval.json and samples.jsonl with `out`. */
export async function evalPredictionsWith(io: CliIO, o: EvalPredictionsOptions): Promise<void> {
  const read = readPredictionFile(o.file, o.tasks, o.format);
  for (const u of read.unmatched.slice(0, 10)) io.err(`toolsim: warning: ${o.file}: ${u}\n`);
  if (read.unmatched.length > 10) io.err(`toolsim: warning: ${o.file}: ${read.unmatched.length - 10} more records match no gold turn\n`);
  const { samples, unpredicted } = await scorePredictions(o.tasks, o.worlds ?? new TaskWorlds(), read.predictions, o.seed);
  if (samples.length === 0) throw new UserError(`no prediction of ${o.file} matches a gold turn of the tasks (${read.unmatched[0] ?? "none read"})`);
  const byLevel = scoresByLevel(samples, o.tasks.filter((t) => read.predictions.has(t.id)));
  const result = { tasks: o.tasksSpec, predictions: resolve(o.file), format: read.format, apibank: scoreSamples(samples), byLevel, unpredicted, unmatched: read.unmatched.length };
  if (o.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    io.out(`predictions ${o.file} (${read.format} format): ${samples.length} scored turns${unpredicted > 0 ? `, ${unpredicted} gold turns without a prediction (not scored)` : ""}\n`);
    io.out(o.format_(result.apibank) + formatLevels(byLevel));
  }
  if (o.out !== undefined) {
    mkdirSync(o.out, { recursive: true });
    writeFileSync(join(o.out, "eval.json"), `${JSON.stringify({ ...result, seed: o.seed }, null, 2)}\n`);
    writeFileSync(join(o.out, "samples.jsonl"), samples.map((s) => `${JSON.stringify(s)}\n`).join(""));
    if (!o.json) io.out(`-> ${join(o.out, "eval.json")}, ${join(o.out, "samples.jsonl")}\n`);
  }
}
