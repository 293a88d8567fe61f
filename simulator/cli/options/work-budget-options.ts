import type { Command } from "commander";
import { DEFAULT_REQUEST_BUDGET_MS, DEFAULT_SYNTHESIS_LIMITS, type SynthesisLimits } from "../../../specs/synthesize/work-budget.js";
import type { SynthesisSettings } from "../../core/run-config.js";
import type { ExecutorBudget } from "../../../agents/executor/simulated-executor.js";
import { parseInteger } from "./parse-options.js";

/** The flags of the per-request work budget (`call`, `serve`, `spec sample`, `generate`, `replay`, `eval`). */
export interface WorkBudgetFlags {
  requestBudgetMs?: string;
  maxItems?: string;
  maxStringLength?: string;
  maxDepth?: string;
  maxSize?: string;
}

/**
 * Adds the work-budget options to a command; `recorded` names where the values come from when not given (a run's
 * run.json), before the defaults.
 */
export function withWorkBudgetOptions(command: Command, recorded?: string): Command {
  const d = DEFAULT_SYNTHESIS_LIMITS;
  const dflt = (v: number | string): string => (recorded ? `default: ${recorded}, else ${v}` : `default ${v}`);
  return command
    .option("--request-budget-ms <ms>", `milliseconds of synthesis work one request may take before a 500 problem (${dflt(DEFAULT_REQUEST_BUDGET_MS)}; 0: no limit)`)
    .option("--max-items <n>", `most items of a synthesized array (${dflt(d.maxItems)})`)
    .option("--max-string-length <n>", `longest synthesized string (${dflt(d.maxStringLength)})`)
    .option("--max-depth <n>", `deepest nesting of a synthesized value (${dflt(d.maxDepth)})`)
    .option("--max-size <n>", `largest synthesized value, about JSON characters (${dflt(d.maxSize)})`);
}

/** The budget the flags ask for (usage errors name the flag). */
export function workBudgetFromFlags(flags: WorkBudgetFlags): { budgetMs: number; limits: Partial<SynthesisLimits> } {
  const { requestBudgetMs, ...limits } = synthesisSettingsFromFlags(flags);
  return { budgetMs: requestBudgetMs ?? DEFAULT_REQUEST_BUDGET_MS, limits };
}

/**
 * The synthesis settings the flags set, only those given (a run keeps the rest from its config file, its run.json
 * or the defaults); usage errors name the flag.
 */
export function synthesisSettingsFromFlags(flags: WorkBudgetFlags): SynthesisSettings {
  const out: SynthesisSettings = {};
  const budget = parseInteger("--request-budget-ms", flags.requestBudgetMs, 0);
  if (budget !== undefined) out.requestBudgetMs = budget;
  const set = (key: keyof SynthesisLimits, flag: string, value: string | undefined): void => {
    const n = parseInteger(flag, value, 1);
    if (n !== undefined) out[key] = n;
  };
  set("maxItems", "--max-items", flags.maxItems);
  set("maxStringLength", "--max-string-length", flags.maxStringLength);
  set("maxDepth", "--max-depth", flags.maxDepth);
  set("maxSize", "--max-size", flags.maxSize);
  return out;
}

/** The executor options the flags set, only those given (`eval` and task worlds). */
export function executorBudgetFromFlags(flags: WorkBudgetFlags): ExecutorBudget {
  const { requestBudgetMs, ...limits } = synthesisSettingsFromFlags(flags);
  return { ...(requestBudgetMs !== undefined ? { requestBudgetMs } : {}), ...(Object.keys(limits).length > 0 ? { synthesisLimits: limits } : {}) };
}
