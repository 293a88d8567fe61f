import type { Command } from "commander";
import { DEFAULT_REQUEST_BUDGET_MS, DEFAULT_SYNTHESIS_LIMITS, type SynthesisLimits } from "../../specs/synthesize/work-budget.js";
import { parseInteger } from "./parse-options.js";

/** The flags of the per-request work budget (`call`, `serve`, `spec sample`). */
export interface WorkBudgetFlags {
  requestBudgetMs?: string;
  maxItems?: string;
  maxStringLength?: string;
  maxDepth?: string;
  maxSize?: string;
}

/** Adds the work-budget options to a command. */
export function withWorkBudgetOptions(command: Command): Command {
  const d = DEFAULT_SYNTHESIS_LIMITS;
  return command
    .option("--request-budget-ms <ms>", `milliseconds of synthesis work one request may take before a 500 problem (default ${DEFAULT_REQUEST_BUDGET_MS}; 0: no limit)`)
    .option("--max-items <n>", `most items of a synthesized array (default ${d.maxItems})`)
    .option("--max-string-length <n>", `longest synthesized string (default ${d.maxStringLength})`)
    .option("--max-depth <n>", `deepest nesting of a synthesized value (default ${d.maxDepth})`)
    .option("--max-size <n>", `largest synthesized value, about JSON characters (default ${d.maxSize})`);
}

/** The budget the flags ask for (usage errors name the flag). */
export function workBudgetFromFlags(flags: WorkBudgetFlags): { budgetMs: number; limits: Partial<SynthesisLimits> } {
  const limits: Partial<SynthesisLimits> = {};
  const set = (key: keyof SynthesisLimits, flag: string, value: string | undefined): void => {
    const n = parseInteger(flag, value, 1);
    if (n !== undefined) limits[key] = n;
  };
  set("maxItems", "--max-items", flags.maxItems);
  set("maxStringLength", "--max-string-length", flags.maxStringLength);
  set("maxDepth", "--max-depth", flags.maxDepth);
  set("maxSize", "--max-size", flags.maxSize);
  return { budgetMs: parseInteger("--request-budget-ms", flags.requestBudgetMs, 0) ?? DEFAULT_REQUEST_BUDGET_MS, limits };
}
