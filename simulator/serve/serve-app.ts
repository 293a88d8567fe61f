import { Hono } from "hono";
import { cors } from "hono/cors";
import { LlmResponder } from "../../agents/executor/llm-responder.js";
import type { Catalog } from "../../specs/catalog/catalog.js";
import { validateHttpCall } from "../../specs/call/http-call.js";
import type { RouteMatch } from "../../specs/call/operation-router.js";
import type { ProblemDetails } from "../../specs/call/problem-details.js";
import type { ResourceStore } from "../../specs/respond/resource-store.js";
import type { Responder } from "../../specs/respond/responder.js";
import { schemaResponder } from "../../specs/respond/schema-responder.js";
import { selectResponse } from "../../specs/call/select-response.js";
import { simulateCall } from "../../specs/call/simulate-call.js";
import { stateResponder } from "../../specs/respond/state-responder.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { replayResponder } from "../../specs/respond/replay-responder.js";
import { checkAuth, enforcedRequirements, type Credential } from "./auth.js";
import { DEFAULT_REQUEST_BUDGET_MS, WorkBudget, type WorkBudgetOptions } from "../../specs/synthesize/work-budget.js";
import { faultAt, pause } from "./faults.js";
import { exchangeKey, HttpRecorder } from "./record/http-cassette.js";
import { exchangeRecord } from "./record/exchange-record.js";
import { namedExampleResponder } from "./named-example.js";
import { parsePrefer } from "./prefer.js";
import { WindowLimiter } from "./rate-limits.js";
import { DEFAULT_SESSION, MAX_SESSION_ID_LENGTH, SessionStates } from "./sessions.js";
import { operationProblem, validationStatus } from "./spec-problem.js";
import { behaviourResponders } from "../../toolsets/apibank/apibank-responder.js";
import { evictedProblem, isAdminPath, mountAdminRoutes } from "./admin-routes.js";
import { PRISM, PROBLEM_JSON, problem, problemResponse, TOOLSIM, type HeaderMap } from "./problem-response.js";
import type { IncomingMessage } from "node:http";
import { bodyReadProblem, bodyText, incomingOf, parseRequestBody, readBody } from "./request-body.js";
import { asciiHeader, violationsHeader } from "./violations-header.js";
import { apiRuntime, exchangeRequestOf, routeIn, splitUrl, type ApiRuntime } from "./api-runtime.js";
import { proxyAnswer } from "./record/proxy-answer.js";
import { DEFAULT_BODY_LIMIT, type ServeMode, type ServeOptions } from "./serve-options.js";

// The options and their types live in serve-options.ts; they are exported from here too (the app's module).
export { DEFAULT_BODY_LIMIT, SERVE_MODES, type ServedApi, type ServeMode, type ServeOptions } from "./serve-options.js";

/** Methods that do not change state: a session without state answers them from the fixtures without being created. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A simulated API server as a Hono app: routes requests to operations, enforces security, rate limits,
 * quotas and faults, validates requests (problem details in Prism's shape), and answers from state and
 * schema, an LLM, a cassette, or the real API; admin routes under `/__toolsim/`.
 */
export class ServeApp {
  readonly app: Hono;
  readonly mode: ServeMode;
  readonly seed: number;
  readonly sessions: SessionStates;
  private readonly runtimes: ApiRuntime[];
  private readonly byName = new Map<string, ApiRuntime>();
  private readonly single: ApiRuntime | undefined;
  private readonly responders: Responder[];
  private readonly rateWindows: WindowLimiter;
  private readonly quotaWindows: WindowLimiter;
  private readonly recorder: HttpRecorder | undefined;
  private readonly abort = new AbortController();
  private readonly log: (line: string) => void;
  private readonly started = Date.now();
  private readonly bodyLimit: number;
  /** Handlers mounted beside the API routes (`/mcp`), by exact path. */
  private readonly mounts = new Map<string, (request: Request) => Response | Promise<Response>>();
  /** The work each request may do (its budget is made from these). */
  private readonly budgetOptions: WorkBudgetOptions;
  /** API requests that reached the fault stage (the n of `faultAt`). */
  private faultCounter = 0;
  private requests = 0;

  constructor(private readonly options: ServeOptions) {
    if (options.apis.length === 0) throw new RangeError("serve needs at least one API");
    this.mode = options.mode ?? "schema";
    this.seed = options.seed ?? 1;
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.log = options.log ?? ((line) => void process.stderr.write(`${line}\n`));
    this.budgetOptions = {
      budgetMs: options.requestBudgetMs ?? DEFAULT_REQUEST_BUDGET_MS,
      ...(options.synthesisLimits ? { limits: options.synthesisLimits } : {}),
      ...(options.budgetClock ? { now: options.budgetClock } : {}),
    };
    if (this.mode === "llm" && !options.llm && !options.responders) throw new RangeError("llm mode needs a model (options.llm)");
    if (this.mode === "replay" && !options.cassette) throw new RangeError("replay mode needs a cassette");
    const several = options.apis.length > 1;
    this.runtimes = options.apis.map((api) => apiRuntime(api, several, options.credentials));
    for (const rt of this.runtimes) {
      if (this.byName.has(rt.api.name)) throw new RangeError(`two APIs are named ${rt.api.name}`);
      this.byName.set(rt.api.name, rt);
    }
    this.single = several ? undefined : this.runtimes[0];
    this.sessions = new SessionStates(new Map(options.apis.map((a) => [a.name, a.fixtures])), {
      ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
      ...(options.maxEvictedSessions !== undefined ? { maxEvicted: options.maxEvictedSessions } : {}),
    });
    const now = options.now ?? Date.now;
    this.rateWindows = new WindowLimiter(now);
    this.quotaWindows = new WindowLimiter(now);
    const llm = this.mode === "llm" && options.llm ? [new LlmResponder({ model: options.llm.model })] : [];
    // Replay mode: a request not found as sent is looked up again as the call it stands for (any client's encoding).
    const apiOf = (catalog: Catalog): string | undefined => this.runtimes.find((rt) => rt.api.catalog === catalog)?.api.name;
    const replay = this.mode === "replay" && options.cassette ? [replayResponder(options.cassette, { api: apiOf })] : [];
    this.responders = options.responders ?? [...replay, ...(options.stateless ? [] : [stateResponder]), ...llm, schemaResponder];
    // A toolset's own behaviour (API-Bank's APIs) answers before the generic responders (worked out once per API).
    for (const rt of this.runtimes) {
      const own = behaviourResponders(rt.api.catalog);
      rt.responders = own.length > 0 ? [...own, ...this.responders] : this.responders;
    }
    this.recorder = options.record !== undefined ? new HttpRecorder(options.record, (e) => this.log(`toolsim serve: cannot record to ${options.record}: ${e.message}`)) : undefined;
    this.app = this.buildApp();
  }

  /** The served APIs with their URL prefixes (`""` for a single API). */
  get apis(): Array<{ name: string; prefix: string; title: string; operations: number; upstream?: string }> {
    return this.runtimes.map((rt) => ({
      name: rt.api.name,
      prefix: rt.prefix,
      title: rt.api.catalog.title,
      operations: rt.api.catalog.tools.length,
      ...(rt.api.upstream !== undefined ? { upstream: rt.api.upstream } : {}),
    }));
  }

  /**
   * Handles one request (the Hono app's fetch; `env` is @hono/node-server's `{incoming, outgoing}` when it serves).
   * A request to the APIs goes straight to them when nothing else of the app applies to it (no CORS, not an admin
   * or mounted path, nothing percent-encoded in its path that could name one): the app's router and middleware are
   * for those.
   */
  fetch = (request: Request, env?: unknown): Response | Promise<Response> => {
    if (this.options.cors !== true) {
      const { path } = splitUrl(request.url);
      if (!path.includes("%") && !isAdminPath(path) && !this.mounts.has(path)) return this.direct(request, incomingOf(env));
    }
    return this.app.fetch(request, env);
  };

  /** An API request answered without the Hono app (see `fetch`), with the app's answer to an internal error. */
  private async direct(request: Request, incoming: IncomingMessage | undefined): Promise<Response> {
    try {
      return await this.handle(request, incoming);
    } catch (err) {
      return this.internalError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** The 500 of a request toolsim failed to answer (logged with its stack: a bug of ours). */
  private internalError(err: Error): Response {
    this.log(`toolsim serve: internal error: ${err.stack ?? err.message}`);
    return problemResponse(problem(500, `${TOOLSIM}internal-error`, "Internal Server Error", "toolsim failed to answer this request; see the server log."));
  }

  /**
   * Answers requests to an exact path with another handler (e.g. MCP at `/mcp`), ahead of the APIs' routes;
   * CORS and the error handler still apply.
   */
  mount(path: string, handler: (request: Request) => Response | Promise<Response>): void {
    this.mounts.set(path, handler);
  }

  /**
   * Answers one request to the served APIs directly, without the Hono app (no CORS, admin or mounted routes):
   * for in-process callers such as the MCP bridge. An unexpected error is the caller's to handle.
   */
  answerApiRequest(request: Request): Promise<Response> {
    return this.handle(request);
  }

  /** Ends pending fault delays and upstream requests (requests in flight then finish at once). */
  abortPending(): void {
    this.abort.abort();
  }

  /** Ends pending fault delays and flushes the recording. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.recorder?.close();
  }


  private buildApp(): Hono {
    const app = new Hono();
    if (this.options.cors) {
      const allowOrigins = cors({ origin: "*", exposeHeaders: ["x-toolsim-source", "sl-violations", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "www-authenticate", "allow"] });
      // Never on the admin routes: no web page may read or change the server's state.
      app.use("*", async (c, next) => (isAdminPath(c.req.path) ? next() : allowOrigins(c, next)));
    }
    mountAdminRoutes(
      app,
      {
        sessions: this.sessions,
        health: () => ({
          status: "ok",
          mode: this.mode,
          seed: this.seed,
          stateless: this.options.stateless === true,
          // Names only: no upstream URL (it may hold credentials).
          apis: this.runtimes.map((rt) => ({ name: rt.api.name, prefix: rt.prefix, title: rt.api.catalog.title, operations: rt.api.catalog.tools.length })),
          sessions: this.sessions.list().length,
          maxSessions: this.sessions.limit,
          evictions: this.sessions.evictions,
          requests: this.requests,
          ...(this.recorder ? { recorded: this.recorder.count } : {}),
          ...(this.options.cassette ? { recordings: this.options.cassette.size } : {}),
          uptimeSeconds: Math.round((Date.now() - this.started) / 1000),
        }),
        apiNames: () => [...this.byName.keys()],
        resetAll: () => {
          this.rateWindows.clear();
          this.quotaWindows.clear();
          this.options.cassette?.rewind();
          this.faultCounter = 0;
        },
      },
      { ...(this.options.adminToken !== undefined ? { adminToken: this.options.adminToken } : {}), ...(this.options.allowedHosts ? { allowedHosts: this.options.allowedHosts } : {}) },
    );
    app.all("*", (c) => {
      const mounted = this.mounts.size > 0 ? this.mounts.get(c.req.path) : undefined;
      return mounted ? mounted(c.req.raw) : this.handle(c.req.raw, incomingOf(c.env));
    });
    app.onError((err) => this.internalError(err));
    return app;
  }

  private target(path: string): { rt: ApiRuntime; rel: string } | undefined {
    if (this.single) return { rt: this.single, rel: path };
    const end = path.indexOf("/", 1);
    const name = end < 0 ? path.slice(1) : path.slice(1, end);
    const rt = this.byName.get(name);
    if (!rt) return undefined;
    return { rt, rel: end < 0 ? "/" : path.slice(end) };
  }


  private async handle(req: Request, incoming?: IncomingMessage): Promise<Response> {
    const t0 = this.options.verbose ? performance.now() : 0;
    const response = await this.answer(req, incoming);
    this.requests++;
    if (this.options.verbose) {
      const { path } = splitUrl(req.url);
      this.log(`${req.method} ${path} -> ${response.status} ${response.headers.get("x-toolsim-source") ?? ""} ${(performance.now() - t0).toFixed(1)} ms`);
    }
    return response;
  }

  private async answer(req: Request, incoming: IncomingMessage | undefined): Promise<Response> {
    const { path, search } = splitUrl(req.url);
    const method = req.method;
    const head = method === "HEAD";
    const target = this.target(path);
    if (!target) {
      return problemResponse(
        problem(404, `${PRISM}NO_PATH_MATCHED_ERROR`, "Route not resolved, no path matched", `No API is served under ${path}; served: ${this.runtimes.map((r) => `${r.prefix}/`).join(", ")}.`),
        {},
        head,
      );
    }
    const { rt } = target;
    const routed = routeIn(rt, method, target.rel);
    const match = routed.match;
    const rel = routed.rel;
    const proxying = this.mode === "proxy";
    // A proxy forwards what the spec does not know; a replay first looks for a recording of it.
    const unrouted = match.kind === "match" || proxying ? undefined : (): Response => this.unrouted(match, rel, method, head);
    if (unrouted && this.mode !== "replay") return unrouted();
    const tool = match.kind === "match" ? match.tool : undefined;
    const query = new URLSearchParams(search);
    const headers = req.headers;
    const header = (name: string): string | null => headers.get(name);
    const extra: HeaderMap = {};

    // Security, then rate limits and quotas, then injected faults: what a real gateway does first.
    let identity = "anonymous";
    let credential: Credential | undefined;
    if (tool && this.enforcesAuth(rt)) {
      const outcome = checkAuth(enforcedRequirements(rt.api.catalog, tool, rt.auth), rt.auth, { header, query });
      if (!outcome.ok) {
        const title = outcome.status === 401 ? "Invalid security scheme used" : "Forbidden";
        const type = outcome.status === 401 ? `${PRISM}UNAUTHORIZED` : `${TOOLSIM}insufficient-scope`;
        return this.operationProblemResponse(rt, tool, problem(outcome.status, type, title, outcome.detail), { "www-authenticate": asciiHeader(outcome.challenge) }, head);
      }
      identity = outcome.identity;
      credential = outcome.credential;
    }
    const limited = this.limit(identity, credential, extra);
    // In the media type the operation declares for 429 (problem details where it declares none), as our 401/422.
    if (limited) return tool && !proxying ? this.operationProblemResponse(rt, tool, limited, extra, head) : problemResponse(limited, extra, head);
    if (this.options.faults) {
      const fault = faultAt(this.seed, this.options.faults, this.faultCounter++);
      if (fault?.kind === "latency") {
        extra["x-toolsim-fault"] = "latency";
        await pause(this.options.faults.latencyMs ?? 200, this.abort.signal);
      } else if (fault?.kind === "5xx") {
        const status = fault.status ?? 500;
        const titles: Record<number, string> = { 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable" };
        return problemResponse(problem(status, `${TOOLSIM}injected-fault`, titles[status] ?? "Server Error", "A fault injected by toolsim (--fault 5xx)."), {
          ...extra,
          "x-toolsim-fault": "5xx",
          ...(status === 503 ? { "retry-after": "1" } : {}),
        }, head);
      } else if (fault?.kind === "timeout") {
        await pause(this.options.faults.timeoutMs ?? 30_000, this.abort.signal);
        return problemResponse(problem(504, `${TOOLSIM}injected-fault`, "Gateway Timeout", "A fault injected by toolsim (--fault timeout): the API did not answer in time."), { ...extra, "x-toolsim-fault": "timeout" }, head);
      }
    }

    // A request without a body (GET, HEAD, no length) is read at once: no turn of the event loop for it.
    const reading = readBody(req, this.bodyLimit, incoming);
    const read = reading instanceof Promise ? await reading : reading;
    if (!read.ok) {
      const { details, headers } = bodyReadProblem(read);
      return tool && !proxying ? this.operationProblemResponse(rt, tool, details, { ...extra, ...headers }, head) : problemResponse(details, { ...extra, ...headers }, head);
    }
    const bytes = read.bytes;
    const contentType = header("content-type");

    if (this.mode === "replay" && this.options.cassette) {
      const text = bodyText(bytes);
      const hit = this.options.cassette.take(exchangeKey(rt.api.name, method, rel, query, text, contentType, rt.secretNames));
      if (hit) {
        const body = hit.response.bodyEncoding === "base64" ? Buffer.from(hit.response.body, "base64") : hit.response.body;
        return new Response(head || hit.response.body === "" ? null : body, { status: hit.response.status, headers: { ...hit.response.headers, ...extra, "x-toolsim-source": "replay" } });
      }
    }
    if (proxying) {
      const host = { fetch: this.options.fetch, timeoutMs: this.options.upstreamTimeoutMs ?? 30_000, signal: this.abort.signal, log: this.log, recorder: this.recorder };
      return proxyAnswer(host, req, rt, rel, search, query, tool, bytes, extra, head);
    }
    if (unrouted || !tool) return unrouted ? unrouted() : this.unrouted(match, rel, method, head);
    return this.simulate(req, rt, rel, query, tool, (match as { params: Record<string, string> }).params, bytes, contentType, extra, head);
  }

  /** The 404 of an unknown path, or the 405 (with `Allow`) of a known path with another method. */
  private unrouted(match: RouteMatch, rel: string, method: string, head: boolean): Response {
    if (match.kind === "method-not-allowed") {
      return problemResponse(
        problem(405, `${PRISM}NO_METHOD_MATCHED_ERROR`, "Route resolved, but no method matched", `The route ${rel} has been resolved, but the method ${method} is not allowed; allowed: ${match.allow.join(", ")}.`),
        { allow: match.allow.join(", ") },
        head,
      );
    }
    return problemResponse(problem(404, `${PRISM}NO_PATH_MATCHED_ERROR`, "Route not resolved, no path matched", `The route ${rel} hasn't been found in the specification file.`), {}, head);
  }

  /**
   * An error of ours for an operation (invalid request, missing credentials): problem details, or a body in the
   * shape the operation declares for that status (so that a proxy validating against the spec accepts it).
   */
  private operationProblemResponse(rt: ApiRuntime, tool: Tool, details: ProblemDetails, headers: HeaderMap, head: boolean): Response {
    const answer = operationProblem(rt.api.catalog, tool, details, this.seed);
    if (answer.shape === "problem" && answer.contentType === PROBLEM_JSON) return problemResponse(details, headers, head);
    const payload = answer.shape === "text" ? String(answer.body) : JSON.stringify(answer.body);
    return new Response(head ? null : payload, { status: answer.status, headers: { ...headers, "content-type": asciiHeader(answer.contentType, 200) } });
  }

  private enforcesAuth(rt: ApiRuntime): boolean {
    if (this.options.enforceAuth === false) return false;
    // A proxy lets the real API judge credentials, unless credentials are configured to check here too.
    return this.mode !== "proxy" || rt.auth.credentials.length > 0;
  }

  /** Counts the request against its rate limit and quota; the 429 problem when one is used up (`extra` gets the headers). */
  private limit(identity: string, credential: Credential | undefined, extra: HeaderMap): ProblemDetails | undefined {
    const rate = credential?.rateLimit ?? this.options.rateLimit;
    const quota = credential?.quota ?? this.options.quota;
    if (!rate && !quota) return undefined;
    const r = rate ? this.rateWindows.peek(identity, rate) : undefined;
    const q = quota ? this.quotaWindows.peek(identity, quota) : undefined;
    // `remaining` counts this request; a rejected request is counted by neither window, so the window that
    // did not reject it still has one more left.
    const rejected = (r !== undefined && !r.ok) || (q !== undefined && !q.ok);
    const left = (s: { ok: boolean; remaining: number }): string => String(!s.ok ? 0 : rejected ? s.remaining + 1 : s.remaining);
    if (r) {
      extra["x-ratelimit-limit"] = String(r.limit);
      extra["x-ratelimit-remaining"] = left(r);
      extra["x-ratelimit-reset"] = String(Math.ceil(r.resetMs / 1000));
    }
    if (q) {
      extra["x-quota-limit"] = String(q.limit);
      extra["x-quota-remaining"] = left(q);
      extra["x-quota-reset"] = String(Math.ceil(q.resetMs / 1000));
    }
    const exceeded = r && !r.ok ? { state: r, what: "Rate limit exceeded", rate } : q && !q.ok ? { state: q, what: "Quota exceeded", rate: quota } : undefined;
    if (exceeded) {
      const retry = Math.max(1, Math.ceil(exceeded.state.resetMs / 1000));
      extra["retry-after"] = String(retry);
      return problem(429, `${TOOLSIM}too-many-requests`, "Too Many Requests", `${exceeded.what}: ${exceeded.state.limit} requests per ${exceeded.rate?.text.split("/")[1] ?? "window"} for this credential; retry in ${retry} s.`);
    }
    if (rate) this.rateWindows.take(identity, rate);
    if (quota) this.quotaWindows.take(identity, quota);
    return undefined;
  }

  private async simulate(
    req: Request,
    rt: ApiRuntime,
    rel: string,
    query: URLSearchParams,
    tool: Tool,
    pathParams: Record<string, string>,
    bytes: Uint8Array | undefined,
    contentType: string | null,
    extra: HeaderMap,
    head: boolean,
  ): Promise<Response> {
    const catalog = rt.api.catalog;
    const text = bodyText(bytes);
    let body: unknown;
    if (text !== null && bytes !== undefined && tool.body) {
      const parsed = await parseRequestBody(catalog, tool, bytes, text, contentType);
      if (!parsed.ok) {
        const details =
          parsed.status === 415
            ? problem(415, `${PRISM}INVALID_CONTENT_TYPE`, "Invalid content type", parsed.detail)
            : problem(400, `${TOOLSIM}bad-request`, "Bad Request", parsed.detail, [parsed.issue]);
        return this.recorded(req, rt, rel, query, text, this.operationProblemResponse(rt, tool, details, { ...extra, "x-toolsim-source": "validation" }, head), "validation");
      }
      body = parsed.body;
    }
    const validation = validateHttpCall(catalog, tool, { pathParams, query, header: (n) => req.headers.get(n), ...(body !== undefined ? { body, freshBody: true } : {}) });
    if (!validation.ok) {
      const headers = { ...extra, "x-toolsim-source": "validation", "sl-violations": violationsHeader(validation.errors) };
      // Not the client's fault (an operation whose schema cannot be compiled: 500): answered as it is.
      if (validation.problem.status !== 422) return this.recorded(req, rt, rel, query, text, problemResponse(validation.problem, headers, head), "validation");
      // Prism's choice of status for an invalid request: the operation's own 422, else its own 400, else a 422 of ours.
      const status = validationStatus(tool);
      const invalid: ProblemDetails = { ...validation.problem, status };
      if (status !== 422) invalid.type = `${TOOLSIM}bad-request`;
      return this.recorded(req, rt, rel, query, text, this.operationProblemResponse(rt, tool, invalid, headers, head), "validation");
    }
    const prefer = parsePrefer(req.headers.get("prefer"));
    // A status no answer can have (`code=999`, `code=100`), or one the operation does not declare: Prism's 404.
    const unanswerable = prefer.code !== undefined && (prefer.code < 200 || prefer.code > 599);
    if (validation.ok && prefer.code !== undefined && (unanswerable || (tool.responses.length > 0 && selectResponse(catalog, tool, prefer.code).key === undefined))) {
      return problemResponse(
        problem(404, `${PRISM}NOT_FOUND`, "The server cannot find the requested content", `Requested status code ${prefer.code} is not defined in the document.`),
        extra,
        head,
      );
    }
    let state: ResourceStore | undefined;
    if (!this.options.stateless) {
      const session = req.headers.get("x-toolsim-session") ?? DEFAULT_SESSION;
      if (session.length > MAX_SESSION_ID_LENGTH) {
        return problemResponse(problem(400, `${TOOLSIM}bad-session`, "Bad Request", `The X-Toolsim-Session header is ${session.length} characters long; at most ${MAX_SESSION_ID_LENGTH} are accepted.`), extra, head);
      }
      // A read of a session without state reads the fixtures; only a request that may write creates a session.
      const found = this.sessions.store(rt.api.name, session, { write: !SAFE_METHODS.has(req.method) });
      if (!found.ok) return this.recorded(req, rt, rel, query, text, problemResponse(evictedProblem(session, found.evicted), extra, head), "session");
      state = found.store;
    }
    const base = rt.responders;
    const responders = prefer.example !== undefined ? [namedExampleResponder(prefer.example), ...base] : base;
    const budget = new WorkBudget(this.budgetOptions);
    const result = await simulateCall(
      catalog,
      { name: tool.name, arguments: {} },
      {
        budget,
        seed: prefer.seed ?? this.seed,
        ...(state ? { state } : {}),
        ...(prefer.code !== undefined ? { status: prefer.code } : {}),
        ...(prefer.dynamic !== undefined ? { useExamples: !prefer.dynamic } : {}),
        stages: { validate: () => validation, responders },
      },
    );
    const headers: HeaderMap = { ...extra, "x-toolsim-source": result.source };
    if (result.responseErrors.length > 0) headers["sl-violations"] = violationsHeader(result.responseErrors);
    // Synthesis caps the answer reached (the body is cut there): the first one, ASCII-safe.
    if (budget.warnings.length > 0) headers["x-toolsim-warning"] = asciiHeader(budget.warnings[0] as string);
    if (result.source === "budget") this.log(`toolsim serve: ${req.method} ${rt.prefix}${rel}: ${(result.body as { detail?: string }).detail ?? "request budget used up"}`);
    let payload: string | null = null;
    const status = result.status;
    if (result.body !== undefined && status !== 204 && status !== 304 && status >= 200) {
      const type = result.contentType ?? "application/json";
      headers["content-type"] = asciiHeader(type, 200);
      payload = typeof result.body === "string" && !/json/i.test(type) ? result.body : JSON.stringify(result.body);
    }
    const response = new Response(head ? null : payload, { status, headers });
    if (!this.recorder) return response;
    return this.recorded(req, rt, rel, query, text, response, result.source, payload ?? "");
  }


  /** Records a simulated exchange (when recording) and returns the response. */
  private async recorded(req: Request, rt: ApiRuntime, rel: string, query: URLSearchParams, text: string | null, response: Response, source: string, payload?: string): Promise<Response> {
    if (!this.recorder) return response;
    const body = payload ?? (await response.clone().text());
    this.recorder.record(exchangeRecord(exchangeRequestOf(req, rt, rel, query, text), { status: response.status, headers: response.headers, body }, source));
    return response;
  }
}

/** Creates the app of a simulated API server (not listening: see `startServe`). */
export function createServeApp(options: ServeOptions): ServeApp {
  return new ServeApp(options);
}

