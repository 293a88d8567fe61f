import type { Catalog } from "../../specs/catalog/catalog.js";
import type { Tool } from "../../specs/catalog/tool.js";
import type { Responder, ResponderAnswer, ResponseContext } from "../../specs/respond/responder.js";
import type { ApiBankResult, ApiBankSet } from "./apibank-api.js";
import { isExternalApiBankApi, runApiBankCall, type ApiBankOutcome } from "./apibank-apis.js";
import { ToolSearchIndex, type SearchableApi } from "./tool-searcher.js";

/*
 * API-Bank's behaviour as a responder stage of the executor pipeline: an operation that carries
 * `x-apibank: {api, set}` (as `toolset import apibank` writes them) is answered by that API's implementation
 * over the episode's state (the databases, loaded as the toolset's fixtures), in `call`, `generate`, `serve`
 * and `eval` alike. The body is the API's output as API-Bank returns it ("success", 77.33333333333333,
 * {"token": ...}); an exception the API raises is a 400 `{"exception": message}`; a Python error escaping the
 * API a 500. APIs that call an external service (Dictionary, Translate, ImageCaption) pass to the next
 * responder. Every other operation passes.
 */

type Json = Record<string, unknown>;

/** The `x-apibank` extension of an operation: which API of which set it is (ToolSearcher: the APIs it searches). */
export interface ApiBankOperation {
  api: string;
  set: ApiBankSet;
  tools?: SearchableApi[];
}

/** The extension key API-Bank operations carry. */
export const APIBANK_EXTENSION = "x-apibank";

function pointerGet(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** The API-Bank identity of a tool's operation, if it has one. */
export function apiBankOperationOf(catalog: Catalog, tool: Tool): ApiBankOperation | undefined {
  const op = pointerGet(catalog.spec.document, tool.operation.pointer);
  const ext = op !== null && typeof op === "object" ? (op as Json)[APIBANK_EXTENSION] : undefined;
  if (ext === null || typeof ext !== "object") return undefined;
  const e = ext as Json;
  if (typeof e["api"] !== "string" || (e["set"] !== "apis" && e["set"] !== "lv3_apis")) return undefined;
  return { api: e["api"], set: e["set"], ...(Array.isArray(e["tools"]) ? { tools: e["tools"] as SearchableApi[] } : {}) };
}

/** Whether a catalog holds API-Bank operations. */
export function hasApiBankOperations(catalog: Catalog): boolean {
  return catalog.tools.some((t) => apiBankOperationOf(catalog, t) !== undefined);
}

const INDEXES = new WeakMap<object, ToolSearchIndex>();

/** ToolSearcher's index of a `tools` list (built once per list). */
export function searchIndexOf(tools: SearchableApi[]): ToolSearchIndex {
  let index = INDEXES.get(tools);
  if (!index) {
    index = new ToolSearchIndex(tools);
    INDEXES.set(tools, index);
  }
  return index;
}

/** The arguments of a validated call as the API gets them: parameters and the body's properties. */
export function apiBankArguments(ctx: ResponseContext): Json {
  const body = ctx.call.body !== null && typeof ctx.call.body === "object" && !Array.isArray(ctx.call.body) ? (ctx.call.body as Json) : {};
  return { ...body, ...ctx.call.args };
}

/** Runs the API-Bank API behind a call (undefined when the operation is not one, or needs an external service). */
export function apiBankOutcome(ctx: ResponseContext): { op: ApiBankOperation; outcome: ApiBankOutcome } | undefined {
  const op = apiBankOperationOf(ctx.catalog, ctx.call.tool);
  if (!op || isExternalApiBankApi(op.api)) return undefined;
  const outcome = runApiBankCall(op.set, op.api, apiBankArguments(ctx), ctx.state, { seed: ctx.seed, ...(op.tools ? { searchIndex: searchIndexOf(op.tools) } : {}) });
  return { op, outcome };
}

/** The HTTP answer of an API-Bank result. */
export function answerOf(outcome: ApiBankOutcome): ResponderAnswer {
  if (!outcome.ok) {
    return { status: 500, body: { exception: `${outcome.uncaught.type}: ${outcome.uncaught.message}` }, contentType: "application/json", source: "state", notes: [`API-Bank: ${outcome.uncaught.type} escaped the API: ${outcome.uncaught.message}`] };
  }
  const r: ApiBankResult = outcome.result;
  if (r.exception !== null) return { status: 400, body: { exception: r.exception }, contentType: "application/json", source: "state", notes: [`API-Bank exception: ${r.exception}`] };
  return { status: 200, body: r.output ?? null, contentType: "application/json", source: "state" };
}

/** The API-Bank responder (see the module comment). */
export const apiBankResponder: Responder = {
  name: "apibank",
  respond(ctx: ResponseContext): ResponderAnswer | undefined {
    const run = apiBankOutcome(ctx);
    return run ? answerOf(run.outcome) : undefined;
  },
};

/** The responders a catalog's behaviour needs before the generic ones (API-Bank's for API-Bank operations). */
export function behaviourResponders(catalog: Catalog): Responder[] {
  return hasApiBankOperations(catalog) ? [apiBankResponder] : [];
}
