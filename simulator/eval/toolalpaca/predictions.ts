import type { ToolAlpacaJudge } from "../../../agents/tester/toolalpaca-judge.js";
import { scrubSecrets, toolAlpacaCredentials } from "../../../toolsets/import/toolalpaca-credentials.js";
import { parseActionInput } from "../../../toolsets/import/toolalpaca-golden.js";
import type { Task } from "../tasks/task-set.js";
import type { TaskWorld, TaskWorlds } from "../tasks/task-toolsets.js";
import { solutionFromSteps, type SolutionStep } from "./judge-text.js";
import { judgeSolution, type ToolAlpacaSample } from "./toolalpaca-eval.js";
import { isObject } from "../../../specs/json-object.js";

/*
 * A model's outputs in ToolAlpaca's own format, scored without running an assistant. ToolAlpaca's generation script
 * (`instance_generation/generation.py`) writes the eval set back with `Instances` added to every API: one per
 * instruction, the LangChain agent's `{input, output, intermediate_steps: [[[action, action_input, log],
 * observation], ...]}` (or a string when the output was not JSON). Its `evaluation.py` judges each instance that has
 * intermediate steps and counts the others as errors; the same is done here, by rules or by the LLM judge.
 */

type Json = Record<string, unknown>;

/** The entries of a predictions file: a JSON array of APIs, or an object of them. */
function entriesOf(data: unknown): unknown[] {
  return Array.isArray(data) ? data : isObject(data) ? Object.values(data) : [];
}

/** Whether data is ToolAlpaca's predictions format: APIs (`Name`) with an `Instances` list. */
export function isToolAlpacaPredictions(data: unknown): boolean {
  const entries = entriesOf(data).filter(isObject);
  return entries.length > 0 && entries.some((e) => typeof e["Name"] === "string" && Array.isArray(e["Instances"])) && entries.every((e) => typeof e["Name"] === "string");
}

/** One instance of a predictions file, read. */
export interface ToolAlpacaPrediction {
  steps: SolutionStep[];
  final?: string;
  /** Why the instance cannot be judged (no intermediate steps: ToolAlpaca's evaluation counts it as an error). */
  missing?: string;
}

/** The predictions of a file by task id (`toolalpaca/<Name>/<instruction index>`), the file's documentation per API, and what could not be read. */
export interface ToolAlpacaPredictions {
  byTask: Map<string, ToolAlpacaPrediction>;
  /** Per API name: the `NLDocumentation` its evaluation shows the judge, when the file has it. */
  documentation: Map<string, string>;
  problems: string[];
  /** How many source keys were replaced by placeholders (never kept in memory past reading). */
  keysReplaced: number;
}

function text(v: unknown): string {
  return typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);
}

/** The keys an entry's instances pass for its `Authentication` parameters (what the agent typed from its instruction). */
function typedKeys(entry: Json): string[] {
  const auth = isObject(entry["Authentication"]) ? Object.keys(entry["Authentication"]) : [];
  if (auth.length === 0) return [];
  const out = new Set<string>();
  for (const inst of Array.isArray(entry["Instances"]) ? entry["Instances"] : []) {
    if (!isObject(inst)) continue;
    for (const step of Array.isArray(inst["intermediate_steps"]) ? inst["intermediate_steps"] : []) {
      const action = Array.isArray(step) && Array.isArray(step[0]) ? step[0] : undefined;
      const args = action ? parseActionInput(text(action[1])) : undefined;
      for (const name of auth) {
        const v = args?.[name];
        if ((typeof v === "string" && v.length >= 4) || typeof v === "number") out.add(String(v));
      }
    }
    const input = typeof inst["input"] === "string" ? inst["input"] : "";
    for (const m of input.matchAll(/Authentication information:\s*(.*)$/gm)) {
      for (const pair of (m[1] ?? "").split(/\s+/)) {
        const eq = pair.indexOf("=");
        if (eq > 0 && auth.includes(pair.slice(0, eq)) && pair.length - eq - 1 >= 4) out.add(pair.slice(eq + 1));
      }
    }
  }
  return [...out];
}

/** Reads one instance: its steps (action, input, observation) and final output. */
function readInstance(inst: unknown): ToolAlpacaPrediction {
  if (typeof inst === "string") return { steps: [], missing: "the instance is text, not the agent's output object (no intermediate steps)" };
  if (!isObject(inst)) return { steps: [], missing: "no instance" };
  const raw = Array.isArray(inst["intermediate_steps"]) ? inst["intermediate_steps"] : [];
  const steps: SolutionStep[] = [];
  for (const step of raw) {
    if (!Array.isArray(step)) continue;
    const action = Array.isArray(step[0]) ? step[0] : [];
    steps.push({ name: text(action[0]).trim(), input: text(action[1]), returned: text(step[1]) });
  }
  const final = typeof inst["output"] === "string" ? inst["output"] : undefined;
  if (steps.length === 0) return { steps, ...(final !== undefined ? { final } : {}), missing: "no intermediate steps (ToolAlpaca's evaluation counts the instance as an error)" };
  return { steps, ...(final !== undefined ? { final } : {}) };
}

/**
 * Reads ToolAlpaca predictions. The keys an instance holds (the agent was given `Authentication information:
 * access_key=...` and typed it into its calls) are replaced by the API's placeholder credential as they are read.
 */
export function readToolAlpacaPredictions(data: unknown): ToolAlpacaPredictions {
  const out: ToolAlpacaPredictions = { byTask: new Map(), documentation: new Map(), problems: [], keysReplaced: 0 };
  entriesOf(data).forEach((raw, i) => {
    if (!isObject(raw) || typeof raw["Name"] !== "string") {
      out.problems.push(`entry ${i}: no Name`);
      return;
    }
    const name = raw["Name"].trim();
    const credentials = toolAlpacaCredentials(raw, name, () => undefined);
    let entry: Json = raw;
    if (credentials) {
      const secrets = [...new Set([...credentials.secrets, ...typedKeys(raw)])].filter((s) => s !== credentials.placeholder).sort((a, b) => b.length - a.length);
      const scrubbed = scrubSecrets(raw, secrets, credentials.placeholder);
      entry = scrubbed.value;
      out.keysReplaced += scrubbed.replaced;
    }
    if (typeof entry["NLDocumentation"] === "string") out.documentation.set(name, entry["NLDocumentation"]);
    const instances = entry["Instances"];
    if (!Array.isArray(instances)) {
      out.problems.push(`${name}: no Instances`);
      return;
    }
    instances.forEach((inst, j) => out.byTask.set(`toolalpaca/${name}/${j}`, readInstance(inst)));
  });
  return out;
}

/** The status an observation of ToolAlpaca's tools reports (`Status Code: 200. ...`); its wrapper's own messages are errors. */
function statusOf(observation: string, name: string): number | undefined {
  const m = /^\s*Status Code:\s*(\d{3})/.exec(observation);
  if (m) return Number(m[1]);
  if (name === "getDetails" || name === "retrievalDataFromFile" || name === "getCurrentDateTime") return 200;
  return 400;
}

/** The body an observation carries (`... Response: {json}`), parsed when it is JSON. */
function bodyOf(observation: string): unknown {
  const at = observation.indexOf("Response: ");
  const rest = (at >= 0 ? observation.slice(at + "Response: ".length) : observation).replace(/\. You should choose one of: [\s\S]*$/, "").trim();
  try {
    return JSON.parse(rest);
  } catch {
    return rest === "" ? undefined : rest;
  }
}

/**
 * Judges the predictions of the given tasks, by rules or by the LLM judge, as ToolAlpaca's evaluation does: an
 * instance without intermediate steps (or with none at all) is judged wrong and counted in `notRun`.
 */
export async function scoreToolAlpacaPredictions(tasks: readonly Task[], predictions: ToolAlpacaPredictions, worlds: TaskWorlds, options: { judge?: ToolAlpacaJudge; onTask?: (s: ToolAlpacaSample) => void } = {}): Promise<ToolAlpacaSample[]> {
  const out: ToolAlpacaSample[] = [];
  for (const task of tasks) {
    const p = predictions.byTask.get(task.id);
    let world: TaskWorld | undefined;
    try {
      world = await worlds.get(task.toolset);
    } catch {
      world = undefined;
    }
    const apiName = /^toolalpaca\/(.*)\/\d+$/.exec(task.id)?.[1] ?? "";
    const documentation = predictions.documentation.get(apiName);
    const judgeWorld = world && documentation !== undefined ? { ...world, documentation } : world;
    const base = { kind: "toolalpaca" as const, task: task.id, events: [] };
    if (!p || p.missing !== undefined) {
      const why = p?.missing ?? "no prediction for this instruction";
      const sample: ToolAlpacaSample = { ...base, calls: [], ...(p?.final !== undefined ? { final: p.final } : {}), process: "No", response: "No", overall: false, judgedBy: options.judge ? "llm" : "rules", judge: options.judge?.label ?? "rules", reasons: { process: why, response: why }, error: why, notRun: true };
      options.onTask?.(sample);
      out.push(sample);
      continue;
    }
    const calls = p.steps
      .filter((s) => s.name !== "getDetails")
      .map((s) => {
        const args = parseActionInput(s.input);
        const status = statusOf(s.returned, s.name);
        return { name: s.name, arguments: args ?? s.input, ...(status !== undefined ? { status } : {}), body: bodyOf(s.returned) };
      });
    const judged = await judgeSolution({ task, ...(judgeWorld ? { world: judgeWorld } : {}), calls, final: p.final, solution: solutionFromSteps(p.steps, p.final) }, options.judge);
    const sample: ToolAlpacaSample = { ...base, calls: calls.map((c) => ({ name: c.name, arguments: c.arguments, ...(c.status !== undefined ? { status: c.status } : {}) })), ...(p.final !== undefined ? { final: p.final } : {}), ...judged };
    options.onTask?.(sample);
    out.push(sample);
  }
  return out;
}
