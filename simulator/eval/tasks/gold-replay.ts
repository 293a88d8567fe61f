import type { AgentContext } from "../../../agents/roles/agent-context.js";
import { EpisodeState } from "../../../agents/roles/episode-state.js";
import { Toolbox, type EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { createRng, deriveSeed } from "../../../specs/seed.js";
import { stableStringify } from "../../../specs/stable-stringify.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";
import { parsePythonLiteral } from "../../../agents/parse/python-literal.js";
import { fillOpenValues, type EarlierResult } from "../toolalpaca/gold-placeholders.js";
import type { GoldCall, Task } from "./task-set.js";
import type { TaskWorlds } from "./task-toolsets.js";
import type { ResourceStore } from "../../../specs/respond/resource-store.js";
import type { ApiBankSet } from "../../../toolsets/apibank/apibank-api.js";
import { isExternalApiBankApi } from "../../../toolsets/apibank/apibank-apis.js";
import { pinToRecording, RANDOM_OUTPUT_APIS } from "../../../toolsets/apibank/apibank-records.js";
import { apiBankAgreement, goldRecord, recordOfResult } from "../apibank/apibank-agreement.js";

/*
 * Gold-call replay: the reference calls of each task executed in order against the simulated APIs, the state
 * carried through the dialogue, each result compared with the output the source recorded. Known defects of the
 * source (list or number arguments stored as strings, a renamed parameter) are reported and repaired so the
 * dialogue goes on; disagreements are classified.
 */

type Json = Record<string, unknown>;

/** A defect of a recorded call's arguments. */
export type DefectKind = "list-as-string" | "object-as-string" | "scalar-as-string" | "renamed-parameter" | "placeholder" | "empty-argument";

/** One defect found in a recorded call, with how it was repaired. */
export interface Defect {
  kind: DefectKind;
  /** The argument (for a rename: `old->new`). */
  arg: string;
  detail: string;
}

/** Why a replayed gold call does not agree with the recording. */
export type Disagreement =
  | "validation" // the call is not valid even after repairs
  | "exception" // the simulated API raised where the source did not (or the other way round)
  | "nondeterministic" // the source's output is random (new tokens, new ids)
  | "external" // the API needs an external model or service the simulation does not have
  | "renamed-parameter" // the recording calls an older version of the API (a parameter it no longer has): a source defect
  | "database-drift" // a read of the initial database whose recorded answer is not what the released database holds
  | "unrecorded" // a call written in an AI turn, with no recorded result, that fails in the source's own world
  | "different-output";

/** Every disagreement class, in report order. */
export const DISAGREEMENTS: readonly Disagreement[] = ["validation", "exception", "nondeterministic", "external", "renamed-parameter", "database-drift", "unrecorded", "different-output"];

/** The replay of one gold call. */
export interface GoldCallReplay {
  task: string;
  turn: number;
  api: string;
  defects: Defect[];
  agree: boolean;
  /** How an API-Bank call agrees when its output differs: its API's own check, or the same APIs found. */
  by?: "check" | "found-apis";
  reason?: Disagreement;
  /** The error an API-Bank check raised (an authors' KeyError), when it did. */
  checkError?: string;
  expected?: unknown;
  got?: unknown;
  status: number;
}

/** The summary of a gold replay. */
export interface GoldReplayReport {
  tasks: number;
  calls: number;
  /** Calls whose result equals the recorded output (after repairs). */
  agreed: number;
  /** agreed / calls. */
  agreementRate: number;
  /** Calls that agree as recorded, without a repair. */
  agreedWithoutRepair: number;
  /** Agreement over the calls whose source output is reproducible (neither random nor external). */
  reproducibleRate: number;
  defects: Record<DefectKind, number>;
  /** Calls with at least one defect. */
  defectiveCalls: number;
  disagreements: Record<Disagreement, number>;
  byApi: Record<string, { calls: number; agreed: number }>;
  /** Tasks whose every gold call agrees. */
  tasksAllAgreed: number;
  /** The calls that disagree (the first 200). */
  mismatches: GoldCallReplay[];
  /** Tasks that could not be replayed at all, with the reason. */
  failed: Array<{ task: string; reason: string }>;
}

/** APIs whose outputs the source drew at random (new tokens, new appointment ids). */
const NONDETERMINISTIC = new Set(["RegisterUser", "AppointmentRegistration"]);

/** Known renamed parameters of the source: API -> recorded name -> documented name. */
const KNOWN_RENAMES: Record<string, Record<string, string>> = {
  TimedSwitch: { device_id: "name" },
  CancelTimedSwitch: { device_id: "name" },
};

function schemaType(toolset: EpisodeToolset, pointer: string | undefined): string | undefined {
  if (pointer === undefined) return undefined;
  try {
    const { schema } = toolset.catalog.registry.resolve("request", pointer);
    const t = (schema as Json | undefined)?.["type"];
    return typeof t === "string" ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds and repairs the known defects of a recorded call's arguments against its tool: list, object, number and
 * boolean arguments stored as strings are parsed; a parameter recorded under another name is renamed when the
 * rename is known (or when exactly one unknown argument stands for exactly one missing required one).
 */
export function repairArguments(toolset: EpisodeToolset, tool: Tool, args: Json, options: { renames?: boolean } = {}): { args: Json; defects: Defect[] } {
  const out: Json = { ...args };
  const defects: Defect[] = [];
  const props = tool.body?.mode === "flat" ? tool.body.properties : Object.fromEntries(tool.parameters.map((p) => [p.arg, p.schemaPointer ?? ""]));
  const required = tool.body?.mode === "flat" ? tool.body.requiredProperties : tool.required;
  const unknown = Object.keys(out).filter((k) => !(k in props));
  const missing = required.filter((k) => !(k in out));
  const renames = KNOWN_RENAMES[tool.name] ?? {};
  for (const k of options.renames === false ? [] : unknown) {
    const to = renames[k] ?? (unknown.length === 1 && missing.length === 1 ? missing[0] : undefined);
    if (to !== undefined && !(to in out) && to in props) {
      out[to] = out[k];
      delete out[k];
      defects.push({ kind: "renamed-parameter", arg: `${k}->${to}`, detail: `the recording passes "${k}" where the API documents "${to}"` });
    }
  }
  for (const [k, v] of Object.entries(out)) {
    if (typeof v !== "string") continue;
    const type = schemaType(toolset, props[k] || undefined);
    if (type === "array" || type === "object") {
      const parsed = parsePythonLiteral(v.trim());
      const ok = parsed && (type === "array" ? Array.isArray(parsed.value) : parsed.value !== null && typeof parsed.value === "object" && !Array.isArray(parsed.value));
      if (ok && parsed) {
        out[k] = parsed.value;
        defects.push({ kind: type === "array" ? "list-as-string" : "object-as-string", arg: k, detail: `${type} stored as the string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)}` });
      }
    } else if ((type === "integer" || type === "number") && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) {
      out[k] = Number(v);
      defects.push({ kind: "scalar-as-string", arg: k, detail: `${type} stored as the string ${JSON.stringify(v)}` });
    } else if (type === "boolean" && /^(true|false)$/i.test(v.trim())) {
      out[k] = v.trim().toLowerCase() === "true";
      defects.push({ kind: "scalar-as-string", arg: k, detail: `boolean stored as the string ${JSON.stringify(v)}` });
    }
  }
  return { args: out, defects };
}

/** Whether a simulated result's body equals a recorded output (numbers by value, objects by content). */
export function sameOutput(got: unknown, expected: unknown): boolean {
  return stableStringify(normalizeOutput(got)) === stableStringify(normalizeOutput(expected));
}

function normalizeOutput(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalizeOutput);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalizeOutput(x)]));
  return v ?? null;
}

/** An agent context for executing calls of a task outside an episode. */
export function taskContext(toolsets: readonly EpisodeToolset[], id: string, index: number, seed: number): AgentContext {
  return { runId: "gold", episodeId: id, index, seed, rng: createRng(deriveSeed(seed, "executor")), level: "call", toolbox: Toolbox.for(toolsets) };
}

/** Replays the gold calls of one task on a fresh state of its world. */
export async function replayGoldCalls(task: Task, worlds: TaskWorlds, index = 0, seed = 1): Promise<GoldCallReplay[]> {
  const world = await worlds.get(task.toolset);
  const state = new EpisodeState([world.toolset]);
  const ctx = taskContext([world.toolset], task.id, index, deriveSeed(seed, task.id));
  const out: GoldCallReplay[] = [];
  let writes = false;
  const earlier: EarlierResult[] = [];
  for (const [n, gold] of task.goldCalls.entries()) {
    out.push(await replayOne(task, gold, n, world.toolset, world.executor, state, ctx, earlier, world.apibank, writes));
    if (!READ_ONLY.test(gold.name)) writes = true;
  }
  return out;
}

async function replayOne(
  task: Task,
  gold: GoldCall,
  n: number,
  toolset: EpisodeToolset,
  executor: { execute: (c: { id: string; name: string; arguments: Json }, s: EpisodeState, ctx: AgentContext) => Promise<ToolResult> },
  state: EpisodeState,
  ctx: AgentContext,
  earlier: EarlierResult[],
  apibank?: { set: ApiBankSet },
  writes = false,
): Promise<GoldCallReplay> {
  const tool = toolset.catalog.get(gold.name);
  // Values the source leaves open (ToolAlpaca's placeholders and empty optional arguments) are filled first.
  const open = tool ? fillOpenValues(toolset, tool, gold.arguments, earlier, ctx.seed) : { args: gold.arguments, filled: [] };
  const repaired = tool ? repairArguments(toolset, tool, open.args) : { args: open.args, defects: [] };
  const args = repaired.args;
  const defects: Defect[] = [...open.filled.map((f) => ({ kind: f.kind, arg: f.arg, detail: f.detail })), ...repaired.defects];
  const result = await executor.execute({ id: `gold_${n + 1}`, name: gold.name, arguments: args }, state, ctx);
  earlier.push({ name: gold.name, body: result.body });
  const base = { task: task.id, turn: gold.turn, api: gold.name, defects, status: result.status };
  if (apibank) return judgeApiBank(base, apibank.set, gold, args, result, state.store(toolset.name), writes);
  const expectedException = typeof gold.exception === "string" && gold.exception !== "";
  const failed = result.status >= 400;
  if (result.source === "validation" || result.source === "route") return { ...base, agree: false, reason: "validation", got: result.body, expected: gold.output };
  if (failed !== expectedException) return { ...base, agree: false, reason: "exception", got: result.body, expected: expectedException ? gold.exception : gold.output };
  if (failed) return { ...base, agree: true };
  if (gold.output === undefined) return { ...base, agree: true };
  if (sameOutput(result.body, gold.output)) return { ...base, agree: true };
  const reason: Disagreement = NONDETERMINISTIC.has(gold.name) ? "nondeterministic" : result.source !== "state" ? "external" : "different-output";
  return { ...base, agree: false, reason, got: result.body, expected: gold.output };
}

/** API-Bank APIs that read the databases without changing them. */
const READ_ONLY = /^(Query|Get|Check|Search|Symptom|Emergency|Wiki|DocumentQA|SpeechRecognition|ToolSearcher|Calculator|Dictionary|Translate|ImageCaption|PlayMusic)/;

/**
 * Judges a replayed call of API-Bank's world as API-Bank does (same output, or its API's own check; see
 * `apibank-agreement.ts`). What an API drew at random is set to what the recording drew, so later calls of
 * the dialogue that use it (a new appointment's id, a new user's token) go on as recorded.
 */
function judgeApiBank(base: Omit<GoldCallReplay, "agree">, set: ApiBankSet, gold: GoldCall, args: Json, result: ToolResult, store: ResourceStore, writes: boolean): GoldCallReplay {
  if (result.source === "validation" || result.source === "route") return { ...base, agree: false, reason: "validation", got: result.body, expected: gold.output };
  const renamed = base.defects.some((d) => d.kind === "renamed-parameter");
  if (isExternalApiBankApi(gold.name) || result.source !== "state") {
    if (gold.output !== undefined && sameOutput(result.body, gold.output)) return { ...base, agree: true };
    return { ...base, agree: false, reason: "external", got: result.body, expected: gold.output };
  }
  const ours = recordOfResult(set, gold.name, result, args);
  if (!ours) return { ...base, agree: false, reason: renamed ? "renamed-parameter" : "exception", got: result.body, expected: gold.output ?? gold.exception };
  if (gold.output === undefined && (gold.exception === null || gold.exception === undefined)) {
    // No recorded result (a call written inside an AI turn): it agrees when it runs without an exception.
    return ours.exception === null ? { ...base, agree: true } : { ...base, agree: false, reason: "unrecorded", got: result.body };
  }
  if (RANDOM_OUTPUT_APIS.has(gold.name) && ours.exception === null) pinToRecording(gold.name, store, ours.output, gold.output);
  const verdict = apiBankAgreement(set, gold.name, ours, goldRecord(gold.name, gold));
  if (verdict.agree) return { ...base, agree: true, ...(verdict.by !== "output" ? { by: verdict.by } : {}) };
  const reason: Disagreement = renamed ? "renamed-parameter" : (ours.exception === null) !== (gold.exception === null || gold.exception === undefined) ? "exception" : READ_ONLY.test(gold.name) && !writes ? "database-drift" : "different-output";
  return { ...base, agree: false, reason, got: ours.exception ?? ours.output, expected: gold.exception ?? gold.output, ...(verdict.checkError ? { checkError: verdict.checkError } : {}) };
}

/** Replays the gold calls of a task set and summarizes agreement, defects and disagreements. */
export async function goldReplayReport(tasks: readonly Task[], worlds: TaskWorlds, seed = 1): Promise<GoldReplayReport> {
  const report: GoldReplayReport = {
    tasks: tasks.length,
    calls: 0,
    agreed: 0,
    agreementRate: 0,
    agreedWithoutRepair: 0,
    reproducibleRate: 0,
    defects: { "list-as-string": 0, "object-as-string": 0, "scalar-as-string": 0, "renamed-parameter": 0, placeholder: 0, "empty-argument": 0 },
    defectiveCalls: 0,
    disagreements: Object.fromEntries(DISAGREEMENTS.map((d) => [d, 0])) as Record<Disagreement, number>,
    byApi: {},
    tasksAllAgreed: 0,
    mismatches: [],
    failed: [],
  };
  let reproducible = 0;
  let reproducibleAgreed = 0;
  for (const [i, task] of tasks.entries()) {
    let calls: GoldCallReplay[];
    try {
      calls = await replayGoldCalls(task, worlds, i, seed);
    } catch (e) {
      report.failed.push({ task: task.id, reason: e instanceof Error ? e.message : String(e) });
      continue;
    }
    if (calls.every((c) => c.agree)) report.tasksAllAgreed++;
    for (const c of calls) {
      report.calls++;
      const api = (report.byApi[c.api] ??= { calls: 0, agreed: 0 });
      api.calls++;
      for (const d of c.defects) report.defects[d.kind]++;
      if (c.defects.length > 0) report.defectiveCalls++;
      const isReproducible = c.reason === undefined || c.reason === "validation" || c.reason === "exception" || c.reason === "different-output";
      if (isReproducible) reproducible++;
      if (c.agree) {
        report.agreed++;
        api.agreed++;
        if (c.defects.length === 0) report.agreedWithoutRepair++;
        if (isReproducible) reproducibleAgreed++;
      } else {
        report.disagreements[c.reason ?? "different-output"]++;
        if (report.mismatches.length < 200) report.mismatches.push(c);
      }
    }
  }
  report.agreementRate = report.calls === 0 ? 0 : report.agreed / report.calls;
  report.reproducibleRate = reproducible === 0 ? 0 : reproducibleAgreed / reproducible;
  return report;
}
