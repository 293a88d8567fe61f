import { stableStringify } from "../../../specs/stable-stringify.js";
import { isPlaceholder } from "../../../toolsets/import/toolalpaca-golden.js";
import { mentions, responseEvidence, type EvidenceCall, type ResponseEvidence } from "./response-evidence.js";

/*
 * ToolAlpaca's judgement by rules, for when no judge model is given. The procedure follows the guidelines of the
 * paper's evaluation prompt: the solution contains every step of the golden answer (a successful call of the same
 * tool with the same necessary values; `[Optional]` steps may be skipped; retries after errors are fine) and no
 * call of a tool the golden answer does not use. The response is judged by evidence (see `response-evidence.ts`),
 * or n/a when there is nothing to check: never by whether an answer exists.
 */

type Json = Record<string, unknown>;

/** ToolAlpaca's own tools, which its evaluation prompt allows beside the golden steps (asking the user, reading a long output, the date). */
const AUXILIARY = new Set(["getDetails", "retrievalDataFromFile", "getCurrentDateTime"]);

/** A step of the golden answer. */
export interface GoldStep {
  name: string;
  arguments: Record<string, unknown>;
  optional?: boolean;
}

/** What the rule judge knows of a tool: its required arguments and the ones the harness fills in (credentials). */
export interface ToolFacts {
  required: ReadonlySet<string>;
  credentials: ReadonlySet<string>;
}

/** The rule judge's verdicts, with their reasons. */
export interface RuleJudgement {
  process: "Yes" | "No";
  response: "Yes" | "No" | "n/a";
  /** Both Yes; null when the response is n/a. */
  overall: boolean | null;
  processReason: string;
  responseReason: string;
  evidence: ResponseEvidence["tools"];
}

function argsOf(v: unknown): Json | undefined {
  if (typeof v === "string") {
    try {
      const parsed: unknown = v.trim() === "" ? {} : JSON.parse(v);
      return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Json) : undefined;
    } catch {
      return undefined;
    }
  }
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
}

/** Whether a call's value agrees with a golden value: equal, equal ignoring case, the same number, or the same items. */
export function sameValue(got: unknown, want: unknown): boolean {
  if (stableStringify(got) === stableStringify(want)) return true;
  if (Array.isArray(want)) {
    const items = Array.isArray(got) ? got : typeof got === "string" ? got.split(/\s*,\s*/) : [got];
    return items.length === want.length && want.every((w) => items.some((g) => sameValue(g, w)));
  }
  if ((typeof got === "string" || typeof got === "number" || typeof got === "boolean") && (typeof want === "string" || typeof want === "number" || typeof want === "boolean")) {
    const a = String(got).trim().toLowerCase();
    const b = String(want).trim().toLowerCase();
    if (a === b) return true;
    return a !== "" && b !== "" && !Number.isNaN(Number(a)) && Number(a) === Number(b);
  }
  return false;
}

/** The golden values a call must repeat: not empty, not placeholders, not credentials, and for optional arguments only those the instruction gives. */
function demanded(step: GoldStep, facts: ToolFacts | undefined, instruction: string): Array<[string, unknown]> {
  return Object.entries(step.arguments).filter(([k, v]) => {
    if (v === "" || v === null || v === undefined || isPlaceholder(v)) return false;
    if (Array.isArray(v) && v.some(isPlaceholder)) return false;
    if (facts?.credentials.has(k)) return false;
    if (facts && !facts.required.has(k)) return (typeof v === "string" || typeof v === "number") && mentions(instruction, v);
    return true;
  });
}

function describeStep(step: GoldStep, values: ReadonlyArray<[string, unknown]>): string {
  return `${step.name}(${values.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")})`;
}

/** Judges the procedure of a solution against the golden steps (see the module comment). */
export function ruleProcess(steps: readonly GoldStep[], calls: readonly EvidenceCall[], instruction: string, toolFacts: (tool: string) => ToolFacts | undefined): { verdict: "Yes" | "No"; reason: string } {
  const goldTools = new Set(steps.map((s) => s.name));
  const stray = calls.find((c) => !goldTools.has(c.name) && !AUXILIARY.has(c.name));
  if (stray) return { verdict: "No", reason: `calls ${stray.name}, which the golden answer does not use` };
  const used = new Set<number>();
  for (const step of steps) {
    const values = demanded(step, toolFacts(step.name), instruction);
    const at = calls.findIndex((c, i) => {
      if (used.has(i) || c.name !== step.name || c.status === undefined || c.status < 200 || c.status >= 300) return false;
      const args = argsOf(c.arguments);
      return args !== undefined && values.every(([k, v]) => sameValue(args[k], v));
    });
    if (at >= 0) {
      used.add(at);
      continue;
    }
    if (step.optional) continue;
    return { verdict: "No", reason: `no successful call ${describeStep(step, values)}` };
  }
  return { verdict: "Yes", reason: steps.length === 0 ? "the golden answer calls no tool" : "every golden step made with its values" };
}

/** ToolAlpaca's procedure, response and overall by rules. */
export function ruleJudgement(steps: readonly GoldStep[], calls: readonly EvidenceCall[], final: string | undefined, instruction: string, toolFacts: (tool: string) => ToolFacts | undefined = () => undefined): RuleJudgement {
  const process = ruleProcess(steps, calls, instruction, toolFacts);
  const response = responseEvidence(
    steps.map((s) => s.name),
    calls,
    final,
    instruction,
  );
  return {
    process: process.verdict,
    response: response.verdict,
    overall: response.verdict === "n/a" ? null : process.verdict === "Yes" && response.verdict === "Yes",
    processReason: process.reason,
    responseReason: response.reason,
    evidence: response.tools,
  };
}
