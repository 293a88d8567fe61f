import { isSecretName, plainPlaceholders, redactRecord } from "../redact-secrets.js";
import { securityParamNames } from "../catalog/security-requirements.js";
import type { Catalog } from "../catalog/catalog.js";
import type { Responder, ResponderAnswer, ResponseContext } from "../respond/responder.js";
import { ResourceStore } from "../respond/resource-store.js";
import { schemaAnswer, schemaResponder, validatedBody } from "../respond/schema-responder.js";
import { deriveSeed } from "../seed.js";
import { stableStringify } from "../stable-stringify.js";
import { stateResponder } from "../respond/state-responder.js";
import { HttpCassette } from "../respond/http-cassette.js";
import { httpResponder, type HttpResponderOptions } from "../respond/http-responder.js";
import { replayResponder } from "../respond/replay-responder.js";
import { observeAnswer } from "../respond/world/entity-memory.js";
import { askedViews, obeyPlan } from "../respond/bindings/obey-plan.js";
import { observeSessionUser } from "../respond/world/session-user.js";
import { observeParts } from "../respond/world/shared-parts.js";
import type { ValidationIssue } from "./problem-details.js";
import { selectedResponse } from "../respond/response-cache.js";
import type { Tool } from "../catalog/tool.js";
import type { ToolResult } from "./tool-result.js";
import { validateCall, type CallValidation, type ValidatedCall } from "./validate-call.js";
import { validateResponse } from "./validate-response.js";
import { BudgetExceeded, DEFAULT_REQUEST_BUDGET_MS, WorkBudget, withBudget } from "../synthesize/work-budget.js";

/** A tool call as a model makes it: a name and arguments (an object or a JSON string). */
export interface ToolCall {
  name: string;
  arguments: unknown;
  /** The model's call id, when it gives one. */
  id?: string;
}

/** The executor's stages, each replaceable (tests swap one): validate, then responders in order, then check. */
export interface SimulationStages {
  validate: (catalog: Catalog, call: ToolCall) => CallValidation;
  responders: Responder[];
  check: (ctx: ResponseContext, answer: ResponderAnswer) => ToolResult["responseErrors"];
}

/** The default check: the answer's status and body against the operation (a body the schema responder validated as it made it is not validated twice). */
const checkAnswer: SimulationStages["check"] = (ctx, answer) =>
  validateResponse(ctx.catalog, ctx.call.tool, answer.status, answer.body, answer.contentType, validatedBody(answer));

/** The default stages: ajv validation, state then schema responders, response validation. */
export const defaultStages: SimulationStages = {
  // A placeholder stands for the secret it replaced (a model's answer is recorded, and used, with its secrets
  // redacted; a replay plays the journal's placeholders): it satisfies any schema.
  validate: (catalog, call) => validateCall(catalog, call.name, call.arguments, { acceptRedacted: true }),
  responders: [stateResponder, schemaResponder],
  check: checkAnswer,
};

/** Options of one simulated call. */
export interface SimulateOptions {
  /** Base seed; the call's own seed is derived from it, the tool and the arguments (same call, same answer). */
  seed?: number;
  /** The episode's state; a fresh empty store when omitted. */
  state?: ResourceStore;
  /** Ask for a given status instead of the default 2xx; one the operation does not declare is refused (404 problem details naming the declared ones). */
  status?: number;
  /** Prefer the spec's examples (default true). */
  useExamples?: boolean;
  /**
   * Recorded responses, asked before the stages' responders (a `toolsim serve --record` cassette, or a
   * `replayResponder`); an unrecorded call falls through to the next responder.
   */
  replay?: HttpCassette | Responder;
  /**
   * The real API (opt-in), asked after the recordings and before the stages' responders: its base URL and
   * credentials (an `httpResponder`, to keep its statistics). It answers every call it gets (502/504 when it cannot).
   */
  upstream?: HttpResponderOptions | Responder;
  stages?: Partial<SimulationStages>;
  /**
   * The work this call may do: synthesis caps and a time budget for its synchronous work (default: the
   * default caps and `DEFAULT_REQUEST_BUDGET_MS`). A call past its time budget is a 500 problem naming it.
   */
  budget?: WorkBudget;
}

/** The responders of a call: recordings, then the real API, then the stages' own. */
function respondersOf(stages: SimulationStages, options: SimulateOptions): Responder[] {
  if (options.replay === undefined && options.upstream === undefined) return stages.responders;
  const replay = options.replay instanceof HttpCassette ? replayResponder(options.replay) : options.replay;
  const upstream = options.upstream !== undefined && "baseUrl" in options.upstream ? httpResponder(options.upstream) : options.upstream;
  return [...(replay ? [replay] : []), ...(upstream ? [upstream] : []), ...stages.responders];
}

/** Routes, validates and answers one tool call against a catalog; bad calls get problem details, never a throw. */
export async function simulateCall(catalog: Catalog, call: ToolCall, options: SimulateOptions = {}): Promise<ToolResult> {
  const stages = options.stages === undefined ? defaultStages : { ...defaultStages, ...options.stages };
  const checked = stages.validate(catalog, call);
  if (!checked.ok) {
    return {
      tool: call.name,
      status: checked.problem.status,
      body: checked.problem,
      contentType: "application/problem+json",
      errors: checked.errors,
      responseErrors: [],
      source: checked.tool ? "validation" : "route",
      ...(checked.tool ? { operation: checked.tool.operation } : {}),
      ...(checked.request ? { request: checked.request } : {}),
      notes: [],
    };
  }
  const valid = checked.value;
  const undeclared = options.status !== undefined ? undeclaredStatus(catalog, valid.tool, options.status) : undefined;
  if (undeclared !== undefined) {
    return {
      tool: valid.tool.name,
      status: 404,
      body: { type: "https://toolsim.dev/problems/status-not-declared", title: "Status not declared", status: 404, detail: undeclared.message, validation: [undeclared] },
      contentType: "application/problem+json",
      errors: [undeclared],
      responseErrors: [],
      source: "validation",
      operation: valid.tool.operation,
      request: valid.request,
      notes: [],
    };
  }
  const budget = options.budget ?? new WorkBudget({ budgetMs: DEFAULT_REQUEST_BUDGET_MS });
  try {
    return await respond(catalog, stages, valid, options, budget);
  } catch (err) {
    if (!(err instanceof BudgetExceeded)) throw err;
    return budgetProblem(valid, err);
  }
}

async function respond(catalog: Catalog, stages: SimulationStages, valid: ValidatedCall, options: SimulateOptions, budget: WorkBudget): Promise<ToolResult> {
  const ctx: ResponseContext = {
    catalog,
    call: valid,
    // Secret arguments enter the seed as they are written (`[redacted]`), so a replay of the journal draws the same answer.
    seed: deriveSeed(options.seed ?? 0, valid.tool.name, seedText(valid.args, securityParamNames(catalog))),
    state: options.state ?? new ResourceStore(),
    ...(options.status !== undefined ? { status: options.status } : {}),
    ...(options.useExamples !== undefined ? { useExamples: options.useExamples } : {}),
  };
  let answer: ResponderAnswer | undefined;
  for (const responder of respondersOf(stages, options)) {
    // The budget is seen by the responder's synchronous work (synthesis), not across its awaits. A responder
    // that answers at once (the state's and the schema's) is not awaited: a turn of the event loop saved per call.
    const given = withBudget(budget, () => responder.respond(ctx));
    answer = isThenable(given) ? await given : given;
    if (answer) break;
  }
  answer ??= withBudget(budget, () => schemaAnswer(ctx));
  // What the answer showed is remembered, so that later answers about the same records agree (a store made
  // for this call alone is dropped with it: nothing to remember).
  if (options.state !== undefined && answer.status >= 200 && answer.status <= 299) {
    // Not what a read asked to see (a recipe scaled to 6 servings is still a recipe for 4).
    const views = askedViews(obeyPlan(catalog, valid.tool), valid.args);
    observeAnswer(ctx, answer.body, views.length === 0 ? undefined : new Set(views.map((v) => v.pointer)));
    observeSessionUser(ctx, answer.body);
    observeParts(ctx, answer.body);
  }
  const problemBody = answer.contentType === "application/problem+json" && answer.status >= 400;
  return {
    tool: valid.tool.name,
    status: answer.status,
    body: answer.body,
    ...(answer.contentType !== undefined ? { contentType: answer.contentType } : {}),
    errors: [],
    responseErrors: problemBody ? [] : withBudget(budget, () => stages.check(ctx, answer)),
    source: answer.source,
    operation: valid.tool.operation,
    // Made when read (a server answering the request it was sent never reads it).
    get request() {
      return valid.request;
    },
    notes: budget.warnings.length === 0 ? (answer.notes ?? []) : [...(answer.notes ?? []), ...budget.warnings.filter((w) => !(answer.notes ?? []).includes(w))],
  };
}

/** Whether a responder's answer is still to come (a promise, or any thenable a custom responder returns). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * The arguments as they enter a call's seed: as written to the journal (values of secret names redacted, numbered
 * placeholders plain), in a stable key order. Arguments without a secret name (the common case) need no redacted copy.
 */
function seedText(args: Record<string, unknown>, names: ReadonlySet<string>): string {
  return plainPlaceholders(stableStringify(holdsSecretName(args, names, 0) ? redactRecord(args, [], names).value : args));
}

/** Whether a value has a property with a secret name anywhere (as `redactRecord` judges names). */
function holdsSecretName(value: unknown, names: ReadonlySet<string>, depth: number): boolean {
  // Past any depth arguments reach (they are checked against MAX_JSON_DEPTH): judged by the full redaction.
  if (depth > 300) return true;
  if (Array.isArray(value)) {
    for (const v of value) if (typeof v === "object" && v !== null && holdsSecretName(v, names, depth + 1)) return true;
    return false;
  }
  if (value === null || typeof value !== "object") return false;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if ((typeof v === "string" || typeof v === "number") && isSecretName(key, names)) return true;
    if (typeof v === "object" && v !== null && holdsSecretName(v, names, depth + 1)) return true;
  }
  return false;
}

/** The answer of a call that used up its time budget: a 500 problem whose detail names the budget. */
function budgetProblem(valid: ValidatedCall, err: BudgetExceeded): ToolResult {
  const detail = `The simulated answer took too long to make: ${err.message}. Raise the budget, or simplify the schema.`;
  return {
    tool: valid.tool.name,
    status: 500,
    body: { type: "https://toolsim.dev/problems/budget-exceeded", title: "Request budget exceeded", status: 500, detail, budgetMs: err.budgetMs },
    contentType: "application/problem+json",
    errors: [],
    responseErrors: [],
    source: "budget",
    operation: valid.tool.operation,
    request: valid.request,
    notes: [err.message],
  };
}

/** The issue of asking for a status the operation does not declare (nor covers by a range or `default`). */
function undeclaredStatus(catalog: Catalog, tool: Tool, status: number): ValidationIssue | undefined {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    return { location: ["status"], code: "status", message: `status ${status} is no status of an answer (200-599)`, severity: "Error" };
  }
  if (tool.responses.length === 0 || selectedResponse(catalog, tool, status).key !== undefined) return undefined;
  return { location: ["status"], code: "status", message: `status ${status} is not declared for ${tool.name} (declared: ${tool.responses.join(", ")})`, severity: "Error" };
}
