import type { Catalog } from "../../specs/catalog/catalog.js";
import type { ValidationIssue } from "../../specs/call/problem-details.js";
import { toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
import { validateCall } from "../../specs/call/validate-call.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** One API call of an API-Bank dialogue (`{"role": "API", "api_name", "param_dict", "result"}`). */
export interface ApiBankCall {
  /** The dialogue file and 1-based line. */
  file: string;
  line: number;
  api: string;
  /** The arguments as recorded (`param_dict`). */
  args: Json;
  /** The arguments as API-Bank parsed them before the call (`result.input`), when recorded. */
  parsed?: Json;
  /** Written in an AI turn's text (`[QueryStock(stock_code='AAPL')]`) instead of an API turn. */
  inline?: boolean;
}

const INLINE_CALL = /\[([A-Z][A-Za-z0-9_]*)\(([^)\]]*)\)\]/g;
const KWARG = /([A-Za-z_][A-Za-z0-9_]*)\s*=\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,]+)/g;

/** A Python literal of an inline call as JSON: quoted strings, numbers, True/False/None; anything else as text. */
function pythonValue(text: string): unknown {
  const t = text.trim();
  if (/^'.*'$|^".*"$/s.test(t)) return t.slice(1, -1).replace(/\\(['"\\])/g, "$1");
  if (t === "True" || t === "False") return t === "True";
  if (t === "None") return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t;
}

/** The calls an AI turn writes in API-Bank's text format, `[ApiName(key='value', ...)]`. */
export function inlineApiBankCalls(text: string): Array<{ api: string; args: Json }> {
  return [...text.matchAll(INLINE_CALL)].map((m) => ({
    api: m[1] as string,
    args: Object.fromEntries([...(m[2] ?? "").matchAll(KWARG)].map((kv) => [kv[1] as string, pythonValue(kv[2] ?? "")])),
  }));
}

/**
 * Why a recorded call fails validation. `list-as-string` and `renamed-parameter` are the source's known
 * defects (lists stored as their Python text; TimedSwitch's `device_id` for `name`); `scalar-as-string` a
 * boolean or number stored as text (`"True"`); `unknown-api` an API no toolset has.
 */
export type CallFailureClass = "renamed-parameter" | "list-as-string" | "scalar-as-string" | "unknown-api" | "other";

/** The classes in order of precedence: a call's primary class is the first that applies. */
export const CALL_FAILURE_CLASSES: readonly CallFailureClass[] = ["renamed-parameter", "list-as-string", "scalar-as-string", "unknown-api", "other"];

/** The outcome of validating one recorded call. */
export interface CallCheck {
  call: ApiBankCall;
  ok: boolean;
  /** The toolset whose operation the call was validated against. */
  toolset?: string;
  issues: ValidationIssue[];
  /** Every class that applies (failures only). */
  classes: CallFailureClass[];
  /** The first class that applies (failures only). */
  primary?: CallFailureClass;
  /** `device_id -> name` for renamed parameters. */
  renamed?: string[];
}

/** Validation of many recorded calls: the rate, and the failures by class. */
export interface CallReport {
  total: number;
  valid: number;
  /** valid / total (1 when there are no calls). */
  rate: number;
  /** Failures by primary class. */
  byPrimary: Record<CallFailureClass, number>;
  /** Failures with each class (a failure may have several). */
  byClass: Record<CallFailureClass, number>;
  failures: CallCheck[];
  /** Lines that were not JSON, or API turns without a name. */
  unreadable: number;
}

/**
 * The API calls of one API-Bank dialogue file (JSON lines): its API turns, and the calls a few AI turns write
 * in their text instead (`[QueryStock(stock_code='AAPL')]`). Returns the calls and the count of unreadable lines.
 */
export function readApiBankCalls(text: string, file: string): { calls: ApiBankCall[]; unreadable: number } {
  const calls: ApiBankCall[] = [];
  let unreadable = 0;
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let turn: unknown;
    try {
      turn = JSON.parse(line);
    } catch {
      unreadable++;
      return;
    }
    if (isObject(turn) && turn["role"] === "AI" && typeof turn["text"] === "string") {
      for (const c of inlineApiBankCalls(turn["text"])) calls.push({ file, line: i + 1, api: c.api, args: c.args, inline: true });
      return;
    }
    if (!isObject(turn) || turn["role"] !== "API") return;
    const result = isObject(turn["result"]) ? turn["result"] : {};
    const api = typeof turn["api_name"] === "string" ? turn["api_name"] : typeof result["api_name"] === "string" ? result["api_name"] : undefined;
    const args = isObject(turn["param_dict"]) ? turn["param_dict"] : isObject(result["input"]) ? result["input"] : {};
    if (api === undefined) {
      unreadable++;
      return;
    }
    calls.push({ file, line: i + 1, api, args, ...(isObject(result["input"]) ? { parsed: result["input"] } : {}) });
  });
  return { calls, unreadable };
}

function expectedType(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const t = schema["type"];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : typeof t === "string" ? [t] : [];
}

/** Classifies the issues of a failed call. */
function classify(catalog: Catalog, api: string, args: Json, issues: ValidationIssue[]): { classes: CallFailureClass[]; renamed: string[] } {
  const tool = catalog.get(api);
  const props = tool ? ((toolArgumentsSchema(catalog, tool)["properties"] as Json | undefined) ?? {}) : {};
  const classes = new Set<CallFailureClass>();
  const unknown = issues.filter((i) => i.code === "additionalProperties").map((i) => i.location[i.location.length - 1] as string);
  const missing = issues.filter((i) => i.code === "required").map((i) => i.location[i.location.length - 1] as string);
  const renamed: string[] = [];
  const pairs = Math.min(unknown.length, missing.length);
  for (let k = 0; k < pairs; k++) renamed.push(`${unknown[k]} -> ${missing[k]}`);
  if (pairs > 0) classes.add("renamed-parameter");
  for (const issue of issues) {
    if (issue.code === "additionalProperties" || issue.code === "required") {
      if (pairs === 0) classes.add("other");
      continue;
    }
    // The argument the issue is about: `[in, name, ...]` for parameters, `["body", name, ...]` for body properties.
    const name = issue.location[1];
    const value = name !== undefined ? args[name] : undefined;
    const expected = name !== undefined ? expectedType(props[name]) : [];
    if (issue.code === "type" && typeof value === "string" && issue.location.length === 2) {
      if (expected.includes("array")) {
        classes.add("list-as-string");
        continue;
      }
      if ((expected.includes("boolean") && /^(true|false)$/i.test(value)) || ((expected.includes("number") || expected.includes("integer")) && value.trim() !== "" && Number.isFinite(Number(value)))) {
        classes.add("scalar-as-string");
        continue;
      }
    }
    classes.add("other");
  }
  return { classes: CALL_FAILURE_CLASSES.filter((c) => classes.has(c)), renamed };
}

/**
 * Validates a recorded API-Bank call against the toolsets (`validateCall`: the same validation the simulator
 * applies to an assistant's calls). An API several toolsets have is checked against each, and the best fit
 * (fewest issues, then first) is kept. Failures are classified (see {@link CallFailureClass}). With `parsed`,
 * the arguments API-Bank itself passed on (`result.input`, its text values already converted) are checked.
 */
export function checkApiBankCall(call: ApiBankCall, toolsets: ReadonlyArray<{ name: string; catalog: Catalog }>, options: { parsed?: boolean } = {}): CallCheck {
  const args = options.parsed && call.parsed !== undefined ? call.parsed : call.args;
  let best: { toolset: string; catalog: Catalog; issues: ValidationIssue[] } | undefined;
  for (const ts of toolsets) {
    if (!ts.catalog.get(call.api)) continue;
    const checked = validateCall(ts.catalog, call.api, structuredClone(args));
    const issues = checked.ok ? [] : checked.errors;
    if (best === undefined || issues.length < best.issues.length) best = { toolset: ts.name, catalog: ts.catalog, issues };
    if (issues.length === 0) break;
  }
  if (best === undefined) {
    const issue: ValidationIssue = { location: ["tool"], code: "unknown-tool", message: `no toolset has an API named "${call.api}"`, severity: "Error" };
    return { call, ok: false, issues: [issue], classes: ["unknown-api"], primary: "unknown-api" };
  }
  if (best.issues.length === 0) return { call, ok: true, toolset: best.toolset, issues: [], classes: [] };
  const { classes, renamed } = classify(best.catalog, call.api, args, best.issues);
  return { call, ok: false, toolset: best.toolset, issues: best.issues, classes, ...(classes[0] !== undefined ? { primary: classes[0] } : {}), ...(renamed.length > 0 ? { renamed } : {}) };
}

/** Sums up checked calls: the validation rate and the failures by class. */
export function summarizeCalls(checks: readonly CallCheck[], unreadable = 0): CallReport {
  const zero = (): Record<CallFailureClass, number> => Object.fromEntries(CALL_FAILURE_CLASSES.map((c) => [c, 0])) as Record<CallFailureClass, number>;
  const byPrimary = zero();
  const byClass = zero();
  const failures = checks.filter((c) => !c.ok);
  for (const f of failures) {
    if (f.primary !== undefined) byPrimary[f.primary]++;
    for (const c of f.classes) byClass[c]++;
  }
  const valid = checks.length - failures.length;
  return { total: checks.length, valid, rate: checks.length === 0 ? 1 : valid / checks.length, byPrimary, byClass, failures, unreadable };
}
