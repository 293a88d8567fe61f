import type { ResourceStore } from "../../specs/respond/resource-store.js";
import { InstanceState, PyTable } from "./apibank-db.js";
import { formatCheck, PyException, pyEquals, pyStrip, sameChecked } from "./py.js";
import type { ToolSearchIndex } from "./tool-searcher.js";

type Json = Record<string, unknown>;

/** What an API-Bank API returns (its `call()`): the inputs it received, its output, and the exception's message. */
export interface ApiBankResult {
  api_name?: string;
  input: Json | null;
  output: unknown;
  exception: string | null;
}

/** The API sets of API-Bank: `apis` (levels 1 and 2) and `lv3_apis` (level 3). */
export type ApiBankSet = "apis" | "lv3_apis";

/** One parameter of an API's `call()`, in signature order. */
export interface ApiBankParam {
  name: string;
  /** API-Bank's type name: `str`, `int`, `float`, `bool`, `list`, `list(str)`, `dict`. */
  type: string;
  /** The default of an optional parameter (Python's `None` is `null`). */
  default?: unknown;
}

/** What an API sees besides its arguments: the episode's databases, its instance's attributes, the call's seed. */
export class ApiEnv {
  constructor(
    readonly store: ResourceStore,
    readonly set: ApiBankSet,
    /** The seed of this call (for what the APIs draw at random: tokens, appointment ids). */
    readonly seed: number,
    /** The APIs ToolSearcher searches (its set's, described as in API-Bank). */
    readonly searchIndex?: ToolSearchIndex,
  ) {}

  /** A database (`self.database`). */
  table(name: string): PyTable {
    return new PyTable(this.store, name);
  }

  /** The attributes an API's instance keeps between calls (ForgotPassword's code, level-3 data). */
  get instances(): InstanceState {
    return new InstanceState(this.store);
  }

  /** CheckToken's `check_token`: the username whose token it is, else "The token is invalid.". */
  checkToken(token: unknown): string {
    for (const [username, account] of this.table("Account").entries()) {
      const t = (account as Json)["token"];
      if (t === undefined) throw new PyException("'token'", "KeyError");
      if (pyEquals(t, token)) return username;
    }
    throw new PyException("The token is invalid.");
  }
}

/**
 * An API as its authors wrote it: the parameters of its `call()`, what it does (returns the output or throws
 * a {@link PyException}, caught by the API as `exception`, or `uncaught` when Python's error escapes `call`),
 * and `check_api_call_correctness` (may throw, as the Python does: a KeyError is an incorrect call).
 */
export interface ApiBankApiImpl {
  name: string;
  set: ApiBankSet;
  params: readonly ApiBankParam[];
  /** `call(self, status, **kwargs)`: the input holds the given keyword arguments only. */
  kwargs?: true;
  /** Whether the result carries `api_name` (some APIs leave it out). Default true. */
  withApiName?: boolean;
  /** The input the result reports, when it is not the arguments (GetToday reports `None`). */
  input?: (args: Json) => Json | null;
  call(args: Json, env: ApiEnv): unknown;
  check(response: ApiBankResult, groundtruth: ApiBankResult): boolean;
}

/** An error that escapes an API's `call` (not turned into its `exception`): the caller sees it raised. */
export class UncaughtPyError extends PyException {
  override name = "UncaughtPyError";
}

/** The arguments of a call in signature order, with defaults; a missing required one raises TypeError (uncaught). */
export function signatureArgs(api: ApiBankApiImpl, args: Json): Json {
  const out: Json = {};
  const missing: string[] = [];
  for (const p of api.params) {
    if (args[p.name] !== undefined) out[p.name] = args[p.name];
    else if ("default" in p) out[p.name] = p.default;
    else if (!api.kwargs || p === api.params[0]) missing.push(p.name);
  }
  if (missing.length > 0) {
    const names = missing.map((m) => `'${m}'`);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
    throw new UncaughtPyError(`call() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`, "TypeError");
  }
  const known = new Set(api.params.map((p) => p.name));
  for (const k of Object.keys(args)) {
    if (known.has(k)) continue;
    if (api.kwargs) out[k] = args[k];
    else throw new UncaughtPyError(`invalid parameter name. parameter: ${k}`, "AssertionError");
  }
  return out;
}

/** Runs one API call as API-Bank's `call()` does: the result record, or an {@link UncaughtPyError}. */
export function runApi(api: ApiBankApiImpl, args: Json, env: ApiEnv): ApiBankResult {
  // The input dict holds the very objects the API gets: what it changes in place (AddScene sorts and
  // lower-cases the devices) shows in the input it reports, as in Python.
  const input = structuredClone(signatureArgs(api, args));
  const head = api.withApiName === false ? {} : { api_name: api.name };
  const reported = (): Json | null => (api.input ? api.input(input) : input);
  try {
    const output = api.call(input, env);
    return { ...head, input: reported(), output: output === undefined ? null : output, exception: null };
  } catch (e) {
    if (e instanceof UncaughtPyError) throw e;
    if (e instanceof PyException) return { ...head, input: reported(), output: null, exception: e.message };
    throw e;
  }
}

/** The default check of most APIs: same input, output and exception. */
export function sameAll(r: ApiBankResult, g: ApiBankResult): boolean {
  return pyEquals(r.input, g.input) && sameOutcome(r, g);
}

/** The end of most checks: the same output and the same exception. */
export function sameOutcome(r: ApiBankResult, g: ApiBankResult): boolean {
  return pyEquals(r.output, g.output) && r.exception === g.exception;
}

/** Whether a date or time input is the same in both as Python's `format_check` reads it (a failed check equals only itself). */
export function sameCheckedInput(r: ApiBankResult, g: ApiBankResult, field: string, format: string): boolean {
  return sameChecked(formatCheck(inputOf(r, field), format), formatCheck(inputOf(g, field), format));
}

/** Whether an input field is the same in both once stripped and lower-cased (Python's `.strip().lower()`). */
export function sameLowerInput(r: ApiBankResult, g: ApiBankResult, field: string): boolean {
  return pyStrip(inputOf(r, field)).toLowerCase() === pyStrip(inputOf(g, field)).toLowerCase();
}

/** Python's `assert response['api_name'] == groundtruth['api_name']` of many checks. */
export function assertSameName(r: ApiBankResult, g: ApiBankResult): void {
  if (r.api_name !== g.api_name) throw new PyException("The API name is not correct.", "AssertionError");
}

/** `d[key]` on a result's input: a missing key raises KeyError (the check then fails). */
export function inputOf(r: ApiBankResult, key: string): unknown {
  const input = r.input;
  if (input === null || typeof input !== "object" || !(key in input)) throw new PyException(`'${key}'`, "KeyError");
  return input[key];
}

/** A copy of a result's input without one key (the checks `pop` it). */
export function inputWithout(r: ApiBankResult, key: string): Json {
  inputOf(r, key);
  const { [key]: _drop, ...rest } = r.input as Json;
  return rest;
}
