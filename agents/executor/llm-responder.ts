import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { Tiktoken } from "js-tiktoken/lite";
import type { HttpRequest } from "../../specs/call/http-request.js";
import type { ValidationIssue } from "../../specs/call/problem-details.js";
import { resourceRoute } from "../../specs/catalog/resource-routes.js";
import type { ResourceStore } from "../../specs/respond/resource-store.js";
import type { Responder, ResponderAnswer, ResponseContext } from "../../specs/respond/responder.js";
import { responseExamples, schemaAnswer } from "../../specs/respond/schema-responder.js";
import { isJsonMediaType, selectResponse, type SelectedResponse } from "../../specs/call/select-response.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import { inlineSchema } from "../../specs/catalog/tool-schema.js";
import { validateResponse } from "../../specs/call/validate-response.js";
import { messageText } from "../assistant/dialogue-messages.js";
import type { EpisodeAnswerCache } from "../llm/llm-run-cache.js";
import { parseLooseJson } from "../parse/loose-json.js";
import { bindingsOf, describeBinding } from "../../specs/respond/bindings/bindings.js";
import { checkBindings, type BindingViolation } from "../../specs/respond/bindings/binding-check.js";
import { obeyBindings } from "../../specs/respond/bindings/obey-bindings.js";
import { isObject, type Json } from "../../specs/json-object.js";

// ------------------------------------------------------------------------------------------- prompts

/**
 * The executor's system prompt. After ToolAlpaca's tool executor prompt (figure 11), improved: the model
 * sees only the called operation (not the whole spec), the request is already validated (so no
 * "validate the request" step), the state of the simulated service is given so answers agree with earlier
 * calls, list sizes follow `limit`, and the output is one JSON object (no free-text explanation to parse
 * or pay for).
 */
export const LLM_EXECUTOR_SYSTEM_PROMPT = [
  "You simulate one operation of a REST API. Write the response the real service would send to the request.",
  "1. The request is valid. Answer with the documented success status unless the state shows it cannot succeed (e.g. the item does not exist) and an error status is documented.",
  "2. The body must match the response schema exactly: all required fields, exact types, enum values, formats (date YYYY-MM-DD, date-time RFC 3339).",
  "3. Use realistic, specific data consistent with the request's values and the state; never placeholders (\"string\", \"example\", \"xxx\").",
  "4. Lists: as many items as `limit` asks, else 3 to 5.",
  'Output only JSON: {"status": <code>, "body": <response body>}',
].join("\n");

/** Options of {@link executorPrompt}. */
export interface ExecutorPromptOptions {
  /** Most state items shown (default 5). */
  maxStateItems?: number;
  /** Most characters of state shown (default 1500). */
  maxStateChars?: number;
  /** Longest example shown before its lists are cut (default 1200 characters). */
  maxExampleChars?: number;
}

/** The parts of an executor prompt: the system text and the operation's slice with the request. */
export interface ExecutorPrompt {
  system: string;
  user: string;
}

const SECRET = /(^|[_-])(auth|authorization|api[_-]?key|apikey|key|token|access[_-]?token|secret|password|passwd|signature|sig|session|cookie)$/i;

/** Whether an argument carries a credential (its value never goes into a prompt). */
function isSecretName(name: string): boolean {
  return SECRET.test(name) || /authorization|api[_-]?key|secret|password|token/i.test(name);
}

function compact(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** A copy with arrays cut to `items` elements and strings to `chars`. */
function shrink(value: unknown, items: number, chars: number, depth = 0): unknown {
  if (typeof value === "string") return value.length > chars ? `${value.slice(0, chars)}…` : value;
  if (Array.isArray(value)) return value.slice(0, items).map((v) => shrink(v, items, chars, depth + 1));
  if (isObject(value)) {
    if (depth > 6) return {};
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v, items, chars, depth + 1)]));
  }
  return value;
}

/** The collection path a CRUD call touches (`/books` for `GET /books/bk-1`). */
function collectionKeyOf(kind: "collection" | "item", requestPath: string): string {
  if (kind === "collection") return requestPath;
  const i = requestPath.lastIndexOf("/");
  return i <= 0 ? "/" : requestPath.slice(0, i);
}

/** What the state holds for a CRUD call: the requested item first, then the collection's items. */
function relevantState(ctx: ResponseContext): { key: string; item?: { id: string; value?: Json; deleted: boolean }; items: Json[]; total: number } | undefined {
  const route = resourceRoute(ctx.catalog, ctx.call.tool);
  if (!route) return undefined;
  const key = collectionKeyOf(route.kind, ctx.call.request.path);
  const all = ctx.state.list(key);
  if (route.kind === "item" && route.idParam) {
    const raw = ctx.call.args[route.idParam.arg];
    if (raw !== undefined && raw !== null) {
      const id = String(raw);
      const value = ctx.state.get(key, id);
      return { key, item: { id, ...(value ? { value } : {}), deleted: ctx.state.isDeleted(key, id) }, items: all.filter((i) => i !== value), total: all.length };
    }
  }
  return { key, items: all, total: all.length };
}

function stateText(ctx: ResponseContext, o: Required<ExecutorPromptOptions>): string | undefined {
  const state = relevantState(ctx);
  if (!state) return undefined;
  const lines: string[] = [];
  let budget = o.maxStateChars;
  if (state.item) {
    if (state.item.deleted) lines.push(`Item ${state.item.id}: deleted earlier (it no longer exists).`);
    else if (state.item.value) {
      const text = compact(shrink(state.item.value, 5, 200));
      lines.push(`Item ${state.item.id}: ${text}`);
      budget -= text.length;
    } else lines.push(`Item ${state.item.id}: not seen yet${ctx.state.collection(state.key)?.authoritative ? " (the collection is complete: it does not exist)" : ""}.`);
  }
  if (state.items.length === 0 && !state.item) {
    const known = ctx.state.collection(state.key);
    lines.push(known?.authoritative ? `Collection ${state.key}: empty.` : `Collection ${state.key}: nothing known yet.`);
    return lines.join("\n");
  }
  const shown: string[] = [];
  for (const item of state.items) {
    if (shown.length >= o.maxStateItems) break;
    const text = compact(shrink(item, 3, 120));
    if (text.length > budget && shown.length > 0) break;
    shown.push(text);
    budget -= text.length;
  }
  if (shown.length > 0) lines.push(`Collection ${state.key} (${shown.length} of ${state.total} items): [${shown.join(",")}]`);
  return lines.join("\n");
}

function requestLine(request: HttpRequest, ctx: ResponseContext): string {
  const secretQuery = new Set(ctx.call.tool.parameters.filter((p) => p.in === "query" && isSecretName(p.name)).map((p) => p.name));
  const query = Object.entries(request.query)
    .filter(([k]) => !secretQuery.has(k) && !isSecretName(k))
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}=${encodeURIComponent(x)}`) : [`${k}=${encodeURIComponent(v)}`]));
  return `${request.method} ${request.path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
}

/** A parameter as one line: `name (in, required, schema): description`. */
function parameterLine(ctx: ResponseContext, p: ResponseContext["call"]["tool"]["parameters"][number]): string {
  const schema = p.schemaPointer !== undefined ? inlineSchema(ctx.catalog.registry, "request", p.schemaPointer) : {};
  const description = typeof schema["description"] === "string" ? schema["description"] : undefined;
  delete schema["description"];
  const text = p.description ?? description;
  return `- ${p.name} (${p.in}${p.required ? ", required" : ""}, ${compact(schema)})${text ? `: ${text}` : ""}`;
}

/**
 * The executor prompt of one call: only the called operation's slice of the spec (method, path,
 * description, parameters, the chosen response's schema inlined and its example), the state of the
 * collection a CRUD call touches (truncated), and the validated request. Credentials are left out.
 */
export function executorPrompt(ctx: ResponseContext, selected: SelectedResponse = selectResponse(ctx.catalog, ctx.call.tool, ctx.status), options: ExecutorPromptOptions = {}): ExecutorPrompt {
  const o: Required<ExecutorPromptOptions> = { maxStateItems: 5, maxStateChars: 1500, maxExampleChars: 1200, ...options };
  const tool = ctx.call.tool;
  const lines: string[] = [`API: ${ctx.catalog.title}`, `Operation: ${tool.operation.method.toUpperCase()} ${tool.operation.path}`];
  if (tool.description.trim() !== "") lines.push(`Description: ${tool.description.trim()}`);
  const params = tool.parameters.filter((p) => !isSecretName(p.name));
  if (params.length > 0) lines.push("Parameters:", ...params.map((p) => parameterLine(ctx, p)));
  const others = tool.responses.filter((r) => r !== selected.key);
  lines.push(`Response ${selected.status}${selected.mediaType ? ` ${selected.mediaType}` : ""}${others.length > 0 ? ` (also documented: ${others.join(", ")})` : ""}`);
  if (selected.schemaPointer !== undefined) lines.push(`Schema: ${compact(inlineSchema(ctx.catalog.registry, "response", selected.schemaPointer))}`);
  const example = responseExamples(ctx.catalog, selected)[0];
  if (example !== undefined) {
    let text = compact(example);
    if (text.length > o.maxExampleChars) text = compact(shrink(example, 2, 200));
    if (text.length <= o.maxExampleChars) lines.push(`Example: ${text}`);
  }
  const state = stateText(ctx, o);
  if (state !== undefined) lines.push(`State:\n${state}`);
  lines.push(`Request: ${requestLine(ctx.call.request, ctx)}`);
  const headerArgs = tool.parameters.filter((p) => (p.in === "header" || p.in === "cookie") && !isSecretName(p.name) && ctx.call.args[p.arg] !== undefined);
  if (headerArgs.length > 0) lines.push(`Headers: ${headerArgs.map((p) => `${p.name}: ${String(ctx.call.args[p.arg])}`).join("; ")}`);
  if (ctx.call.body !== undefined) lines.push(`Body: ${compact(ctx.call.body)}`);
  // What the answer must agree with (bindings whose arguments the request has, and effects and totals).
  const bound = bindingsOf(ctx.catalog, tool).filter((b) => !("arg" in b) || b.arg === undefined || ctx.call.args[b.arg.split(/[.[]/)[0] ?? b.arg] !== undefined);
  if (bound.length > 0 && (ctx.status === undefined || (ctx.status >= 200 && ctx.status <= 299))) lines.push("The answer must agree with the request:", ...bound.slice(0, 12).map((b) => `- ${describeBinding(b).replace(/, declared\)|\)$/, ")")}`));
  if (ctx.status !== undefined) lines.push(`Answer with status ${ctx.status}.`);
  return { system: LLM_EXECUTOR_SYSTEM_PROMPT, user: lines.join("\n") };
}

/** The ToolAlpaca simulator prompt (figure 11) as the original code fills it: the whole spec of the toolset. */
const TOOLALPACA_SIMULATOR_TEMPLATE = [
  "As an API simulator, your task is to process API requests and generate appropriate responses based on the provided API documentation. Please adhere to the following guidelines:",
  "",
  "1. Validate the HTTP method and parameters in the request according to the OpenAPI Spec.",
  "2. Generate a response that strictly adheres to the specified format in the OpenAPI Spec, and ensure it's in JSON format.",
  "3. Responses should contain realistic data. Avoid using placeholders.",
  "4. Handle edge cases by providing appropriate error responses.",
  "5. For requests without any length limit, ensure to return at least 3 samples in the response.",
  "",
  "Output Format:",
  "Status Code: Include the HTTP response status code.",
  "Response: Ensure your response is in JSON format, contains realistic data, and aligns with the OpenAPI Spec format.",
  "Explanation: Provide a brief explanation for the given response.",
  "Avoid any extraneous content in your output.",
  "",
  "API Details:",
  "Name: ${Name}",
  "OpenAPI Spec: ${Documentation}",
  "",
  "Request Details:",
  "${Request}",
].join("\n");

/** JSON as Python's `json.dumps` writes it by default (`", "` and `": "` separators, ASCII only): ToolAlpaca's spec text. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NaN";
  if (typeof value === "string") return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  return `{${Object.entries(value as Json).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
}

/** A request as ToolAlpaca's simulator describes it to the model: a curl command line against the spec's server. */
export function curlRequest(request: HttpRequest, serverUrl: string): string {
  const base = serverUrl.replace(/\/+$/, "");
  const query = Object.entries(request.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}=${encodeURIComponent(x)}`) : [`${k}=${encodeURIComponent(v)}`]));
  const url = `${base}${request.path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  const headers = Object.entries(request.headers).map(([k, v]) => `-H "${k}: ${v}"`);
  if (request.body !== undefined) headers.push(`-H "content-type: ${request.contentType ?? "application/json"}"`);
  const data = request.body !== undefined ? `-d '${pythonJsonDumps(request.body)}'` : "";
  return ["curl", "-X", request.method, ...headers, data, url].filter((s) => s !== "").join(" ");
}

/**
 * ToolAlpaca's original executor prompt (figure 11, `prompts/Simulator.txt`) for comparison: the whole
 * OpenAPI document of the toolset, serialized as `json.dumps` does, and the request as a curl line.
 */
export function toolAlpacaExecutorPrompt(name: string, document: unknown, request: string): string {
  return TOOLALPACA_SIMULATOR_TEMPLATE.replace("${Name}", () => name)
    .replace("${Documentation}", () => pythonJsonDumps(document))
    .replace("${Request}", () => request);
}

// ------------------------------------------------------------------------------------------- tokens

/** Tokenizers {@link promptTokens} can count with. */
export type TokenEncoding = "cl100k_base" | "o200k_base";

const encoders = new Map<TokenEncoding, Tiktoken>();

function encoder(encoding: TokenEncoding): Tiktoken {
  let enc = encoders.get(encoding);
  if (!enc) {
    // Loaded on first use (the rank tables are megabytes); js-tiktoken comes with @langchain/core.
    const require = createRequire(import.meta.url);
    const lite = require("js-tiktoken/lite") as typeof import("js-tiktoken/lite");
    const ranks = require(`js-tiktoken/ranks/${encoding}`) as ConstructorParameters<typeof lite.Tiktoken>[0];
    enc = new lite.Tiktoken(ranks);
    encoders.set(encoding, enc);
  }
  return enc;
}

/**
 * Tokens of a prompt with a real tokenizer (default `cl100k_base`, ToolAlpaca's ChatGPT): a string is
 * counted as it is; a list of messages as OpenAI bills chat input (content tokens, 3 per message, 3 to
 * prime the reply).
 */
export function promptTokens(prompt: string | readonly (BaseMessage | { content: string })[], encoding: TokenEncoding = "cl100k_base"): number {
  const enc = encoder(encoding);
  if (typeof prompt === "string") return enc.encode(prompt).length;
  let total = 3;
  for (const m of prompt) {
    const text = typeof m.content === "string" ? m.content : messageText(m as BaseMessage);
    total += 3 + enc.encode(text).length;
  }
  return total;
}

// ------------------------------------------------------------------------------------------- responder

/** Where an answer of {@link LlmResponder} is cached: per episode (per state store), and across the run when given. */
export type LlmAnswerCache = Map<string, Promise<ResponderAnswer>>;

/** Options of {@link LlmResponder}. */
export interface LlmResponderOptions {
  model: BaseChatModel;
  /** Call options for every invocation (callbacks, tags, timeouts...). */
  callOptions?: Partial<BaseChatModelCallOptions>;
  /** The system prompt (default {@link LLM_EXECUTOR_SYSTEM_PROMPT}). */
  systemPrompt?: string;
  prompt?: ExecutorPromptOptions;
  /** Cache answers within an episode (keyed per state store; default true). */
  episodeCache?: boolean;
  /**
   * Cache answers across the run (StableToolBench). For a run's concurrent episodes, an episode's side of a
   * `RunAnswerCache` (`runCache.forEpisode(index)`): what is shared then does not depend on completion
   * order. `true` (a cache of this responder) or a shared map serve calls made one episode after another;
   * shared by concurrent episodes, which episode asks the model would depend on timing. Only answers the
   * model gave (repaired or not) are shared; replacements stay in their episode.
   */
  runCache?: boolean | LlmAnswerCache | EpisodeAnswerCache;
  /** Re-prompts with the validation errors before replacing an answer (default 1). */
  repairs?: number;
  /** What to do when the model call fails (network, timeout): answer from the schema (default) or throw. */
  onModelError?: "fallback" | "throw";
}

/** The parsed answer of the model: a status and a body, or why it could not be read. */
export type ParsedExecutorAnswer = { ok: true; status: number; body: unknown } | { ok: false; error: string };

const ENVELOPE_KEYS = new Set(["status", "status_code", "statusCode", "code", "body", "response", "explanation", "headers", "content_type", "contentType"]);

function statusOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string") {
    const m = /^\s*(\d{3})\b/.exec(v);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * Reads an executor answer: `{"status", "body"}` (also `status_code` / `response`), ToolAlpaca's
 * `Status Code: ... Response: ...` text, or a bare body (with the default status). Code fences and prose
 * around the JSON are tolerated.
 */
export function parseExecutorAnswer(text: string, defaultStatus: number): ParsedExecutorAnswer {
  const statusLine = /status(?:[ _-]?code)?\s*[:=]\s*(\d{3})/i.exec(text);
  const responseAt = /(?:^|\n)\s*(?:\*\*)?response(?:\*\*)?\s*:/i.exec(text);
  const source = responseAt ? text.slice(responseAt.index + responseAt[0].length).split(/\n\s*(?:\*\*)?explanation(?:\*\*)?\s*:/i)[0] ?? "" : text;
  const parsed = parseLooseJson(source);
  const fallbackParsed = parsed.ok || source === text ? parsed : parseLooseJson(text);
  if (!fallbackParsed.ok) return { ok: false, error: fallbackParsed.error };
  const value = fallbackParsed.value;
  if (isObject(value) && Object.keys(value).every((k) => ENVELOPE_KEYS.has(k))) {
    const status = statusOf(value["status"]) ?? statusOf(value["status_code"]) ?? statusOf(value["statusCode"]) ?? statusOf(value["code"]);
    const hasBody = "body" in value || "response" in value;
    if (status !== undefined && hasBody) return { ok: true, status, body: "body" in value ? value["body"] : value["response"] };
    if (hasBody && status === undefined && ("body" in value ? Object.keys(value).length <= 2 : false)) return { ok: true, status: statusLine ? Number(statusLine[1]) : defaultStatus, body: value["body"] };
  }
  return { ok: true, status: statusLine ? Number(statusLine[1]) : defaultStatus, body: value };
}

function issueText(issues: readonly ValidationIssue[], max = 8): string {
  const lines = issues.slice(0, max).map((e) => `- ${e.location.join(".") || "(response)"}: ${e.message}`);
  if (issues.length > max) lines.push(`- and ${issues.length - max} more`);
  return lines.join("\n");
}

function short(text: string, n = 160): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 3)}...` : t;
}

type Checked = { ok: true; status: number; body: unknown; contentType?: string } | { ok: false; problems: string; contradictions?: BindingViolation[]; status?: number; body?: unknown; contentType?: string };

/** The contradictions of an answer with its call's bindings, as lines for a repair prompt. */
function contradictionText(violations: readonly BindingViolation[], max = 8): string {
  const lines = violations.slice(0, max).map((v) => `- ${v.message}`);
  if (violations.length > max) lines.push(`- and ${violations.length - max} more`);
  return lines.join("\n");
}

/**
 * The `llm` responder (ToolAlpaca's tool executor, improved): the model answers from the called
 * operation's slice of the spec, the episode's state and the validated request; the answer is parsed,
 * validated against the response schema, repaired once by re-prompting with the errors, else replaced by
 * the schema responder's answer. The same normalized call gets the same answer within an episode and,
 * when enabled, across the run. Operations without a JSON response schema pass to the next responder.
 */
export class LlmResponder implements Responder {
  readonly name = "llm";
  private readonly episodes = new WeakMap<ResourceStore, LlmAnswerCache>();
  private readonly run: LlmAnswerCache | undefined;
  private readonly ordered: EpisodeAnswerCache | undefined;

  constructor(private readonly options: LlmResponderOptions) {
    const c = options.runCache;
    this.run = c === true ? new Map() : c instanceof Map ? c : undefined;
    this.ordered = c !== undefined && typeof c === "object" && !(c instanceof Map) ? c : undefined;
  }

  async respond(ctx: ResponseContext): Promise<ResponderAnswer | undefined> {
    const selected = selectResponse(ctx.catalog, ctx.call.tool, ctx.status);
    if (selected.schemaPointer === undefined || !isJsonMediaType(selected.mediaType)) return undefined;
    const key = this.cacheKey(ctx);
    const episode = this.options.episodeCache === false ? undefined : this.episodeCache(ctx.state);
    const inEpisode = episode?.get(key);
    if (!inEpisode && this.ordered) {
      const ordered = this.ordered;
      const shared = ordered.answer(key, () => this.answer(ctx, selected));
      const pending = shared.then((s) => s.answer);
      episode?.set(key, pending);
      let got: { answer: ResponderAnswer; hit: boolean };
      try {
        got = await shared;
      } catch (err) {
        episode?.delete(key);
        throw err;
      }
      const notes = got.hit ? [...(got.answer.notes ?? []), "llm cache hit"] : [...(got.answer.notes ?? [])];
      return { ...got.answer, body: structuredClone(got.answer.body), ...(notes.length > 0 ? { notes } : {}) };
    }
    const cached = inEpisode ?? this.run?.get(key);
    if (cached) {
      const answer = await cached;
      episode?.set(key, cached);
      return { ...answer, body: structuredClone(answer.body), notes: [...(answer.notes ?? []), "llm cache hit"] };
    }
    const pending = this.answer(ctx, selected);
    episode?.set(key, pending);
    this.run?.set(key, pending);
    let answer: ResponderAnswer;
    try {
      answer = await pending;
    } catch (err) {
      episode?.delete(key);
      this.run?.delete(key);
      throw err;
    }
    // Only the model's own answers are shared across episodes; a replacement stays in its episode.
    if (answer.source !== "llm") this.run?.delete(key);
    return { ...answer, body: structuredClone(answer.body), ...(answer.notes ? { notes: [...answer.notes] } : {}) };
  }

  private episodeCache(store: ResourceStore): LlmAnswerCache {
    let cache = this.episodes.get(store);
    if (!cache) this.episodes.set(store, (cache = new Map()));
    return cache;
  }

  /** The normalized call: spec, tool, stable arguments, the asked status, and the state a CRUD call reads. */
  private cacheKey(ctx: ResponseContext): string {
    const state = relevantState(ctx);
    const stateHash = state ? createHash("sha1").update(stableStringify({ key: state.key, item: state.item ?? null, items: state.items })).digest("hex").slice(0, 16) : "-";
    return `${ctx.catalog.spec.hash}|${ctx.call.tool.name}|${stableStringify(normalizeArgs(ctx.call.args))}|${ctx.status ?? ""}|${stateHash}`;
  }

  private check(ctx: ResponseContext, parsed: ParsedExecutorAnswer): Checked {
    if (!parsed.ok) return { ok: false, problems: `- ${parsed.error}` };
    if (ctx.status !== undefined && parsed.status !== ctx.status) return { ok: false, problems: `- status: must be ${ctx.status}, got ${parsed.status}` };
    const selected = selectResponse(ctx.catalog, ctx.call.tool, parsed.status);
    const contentType = selected.mediaType;
    const issues = validateResponse(ctx.catalog, ctx.call.tool, parsed.status, parsed.body, contentType);
    if (issues.length > 0) return { ok: false, problems: issueText(issues) };
    if (parsed.status >= 200 && parsed.status <= 299) {
      // A valid answer must also agree with its call: the bindings, and what the state holds of the resources it names.
      const violations = checkBindings(bindingsOf(ctx.catalog, ctx.call.tool), ctx.call.args, parsed.body, (collection, id) => (collection.includes("{") ? undefined : ctx.state.get(collection, id)));
      if (violations.length > 0) {
        return { ok: false, problems: `the answer contradicts the request:\n${contradictionText(violations)}`, contradictions: violations, status: parsed.status, body: parsed.body, ...(contentType !== undefined ? { contentType } : {}) };
      }
    }
    return { ok: true, status: parsed.status, body: parsed.body, ...(contentType !== undefined ? { contentType } : {}) };
  }

  private async answer(ctx: ResponseContext, selected: SelectedResponse): Promise<ResponderAnswer> {
    const prompt = executorPrompt(ctx, selected, this.options.prompt);
    const messages: BaseMessage[] = [new SystemMessage(this.options.systemPrompt ?? prompt.system), new HumanMessage(prompt.user)];
    const repairs = this.options.repairs ?? 1;
    let problems = "";
    let last: Checked | undefined;
    for (let attempt = 0; attempt <= repairs; attempt++) {
      let text: string;
      try {
        const reply = await this.options.model.invoke(messages, this.options.callOptions);
        text = messageText(reply);
      } catch (err) {
        if (this.options.onModelError === "throw") throw err;
        const message = err instanceof Error ? err.message : String(err);
        return this.replace(ctx, selected, [`llm unavailable: ${short(message)}`]);
      }
      const checked = this.check(ctx, parseExecutorAnswer(text, selected.status));
      if (checked.ok) {
        return {
          status: checked.status,
          body: checked.body,
          ...(checked.contentType !== undefined ? { contentType: checked.contentType } : {}),
          source: "llm",
          notes: [attempt === 0 ? "llm" : "llm (repaired)"],
        };
      }
      problems = checked.problems;
      last = checked;
      messages.push(new AIMessage(text), new HumanMessage(`Your answer is not valid:\n${problems}\nReply again with the corrected answer only, as JSON: {"status": <code>, "body": <response body>}`));
    }
    // A valid answer that still contradicts its call: corrected where the bindings say how, else replaced.
    if (last && !last.ok && last.contradictions && last.status !== undefined) {
      const answerSelected = selectResponse(ctx.catalog, ctx.call.tool, last.status);
      if (answerSelected.schemaPointer !== undefined) {
        const corrected = obeyBindings(ctx, answerSelected.schemaPointer, last.body, { synthesized: false });
        const lookup = (collection: string, id: string): Record<string, unknown> | undefined => (collection.includes("{") ? undefined : ctx.state.get(collection, id));
        if (checkBindings(bindingsOf(ctx.catalog, ctx.call.tool), ctx.call.args, corrected, lookup).length === 0 && validateResponse(ctx.catalog, ctx.call.tool, last.status, corrected, last.contentType).length === 0) {
          return {
            status: last.status,
            body: corrected,
            ...(last.contentType !== undefined ? { contentType: last.contentType } : {}),
            source: "llm",
            notes: ["llm (corrected to agree with the request)", `llm contradictions: ${short(problems.replace(/\n/g, "; "), 300)}`],
          };
        }
      }
    }
    return this.replace(ctx, selected, [`llm errors: ${short(problems.replace(/\n/g, "; "), 300)}`]);
  }

  private replace(ctx: ResponseContext, selected: SelectedResponse, detail: string[]): ResponderAnswer {
    const fallback = schemaAnswer(ctx, selected);
    return { ...fallback, notes: ["llm answer invalid: replaced by schema", ...detail, ...(fallback.notes ?? [])] };
  }
}

/** Arguments normalized for the cache key: strings trimmed, empty values left out. */
function normalizeArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null || v === "") continue;
    out[k] = typeof v === "string" ? v.trim() : v;
  }
  return out;
}
