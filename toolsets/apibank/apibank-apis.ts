import type { ResourceStore } from "../../specs/respond/resource-store.js";
import { ACCOUNT_APIS } from "./apibank-account.js";
import { ApiEnv, runApi, UncaughtPyError, type ApiBankApiImpl, type ApiBankResult, type ApiBankSet, sameOutcome } from "./apibank-api.js";
import { LV3_APIS } from "./apibank-lv3.js";
import { SCHEDULE_APIS } from "./apibank-schedule.js";
import { EXTERNAL_APIS, SERVICE_APIS } from "./apibank-services.js";
import { PyException } from "./py.js";
import type { ToolSearchIndex } from "./tool-searcher.js";

/*
 * The registry of API-Bank's APIs as implemented here, by set and name, and one entry point that runs a call
 * the way API-Bank's ToolManager does (`api_call`): the result record `{api_name, input, output, exception}`,
 * or the Python error that escapes the API.
 */

const TOOL_SEARCHER = (set: ApiBankSet): ApiBankApiImpl => ({
  name: "ToolSearcher",
  set,
  params: [{ name: "keywords", type: "str" }],
  call(a, env) {
    if (!env.searchIndex) throw new PyException("ToolSearcher has no APIs to search");
    return env.searchIndex.search(a["keywords"]);
  },
  check: (r, g) => sameOutcome(r, g),
});

const REGISTRY = new Map<string, ApiBankApiImpl>();
for (const api of [...ACCOUNT_APIS, ...SCHEDULE_APIS, ...SERVICE_APIS, ...LV3_APIS, TOOL_SEARCHER("apis"), TOOL_SEARCHER("lv3_apis")]) REGISTRY.set(`${api.set}/${api.name}`, api);

/** The implementation of an API of a set, if it has one (external APIs have none). */
export function apiBankImplementation(set: ApiBankSet, name: string): ApiBankApiImpl | undefined {
  return REGISTRY.get(`${set}/${name}`);
}

/** Every implemented API, by set. */
export function implementedApiBankApis(set: ApiBankSet): string[] {
  return [...REGISTRY.values()].filter((a) => a.set === set).map((a) => a.name).sort();
}

/** Whether an API needs an external service in API-Bank (Dictionary, Translate, ImageCaption). */
export function isExternalApiBankApi(name: string): boolean {
  return EXTERNAL_APIS.has(name);
}

/** What one call gave: the result record, or the Python error that escaped the API (`uncaught`). */
export type ApiBankOutcome = { ok: true; result: ApiBankResult } | { ok: false; uncaught: { type: string; message: string } };

/** Options of {@link runApiBankCall}. */
export interface ApiBankCallOptions {
  seed?: number;
  searchIndex?: ToolSearchIndex;
}

/** Runs one call of an API of a set over the episode's state (its databases), as API-Bank's `api_call` does. */
export function runApiBankCall(set: ApiBankSet, name: string, args: Record<string, unknown>, store: ResourceStore, options: ApiBankCallOptions = {}): ApiBankOutcome {
  const api = apiBankImplementation(set, name);
  if (!api) return { ok: false, uncaught: { type: "Exception", message: "invalid tool name." } };
  try {
    return { ok: true, result: runApi(api, args, new ApiEnv(store, set, options.seed ?? 0, options.searchIndex)) };
  } catch (e) {
    if (e instanceof UncaughtPyError || e instanceof PyException) return { ok: false, uncaught: { type: e.type, message: e.message } };
    throw e;
  }
}

/**
 * API-Bank's `check_api_call_correctness` of an API: whether a response is correct against the ground truth.
 * A check that raises (a KeyError on an input the API has no such field for, an assertion) counts as incorrect,
 * with the reason.
 */
export function checkApiBankCall(set: ApiBankSet, name: string, response: ApiBankResult, groundtruth: ApiBankResult): { correct: boolean; error?: string } {
  const api = apiBankImplementation(set, name);
  if (!api) return { correct: false, error: `no implementation of ${name}` };
  try {
    return { correct: api.check(structuredClone(response), structuredClone(groundtruth)) };
  } catch (e) {
    if (e instanceof PyException) return { correct: false, error: `${e.type}: ${e.message}` };
    throw e;
  }
}
