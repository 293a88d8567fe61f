import { ErrorCode, type CallToolResult, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { toHttpRequest } from "../../../specs/call/http-request.js";
import { formFields, multipartBody } from "../../../specs/call/form-fields.js";
import { nearestNames } from "../../../specs/catalog/nearest-names.js";
import type { SecurityScheme } from "../../../specs/catalog/security-requirements.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../../../specs/catalog/tool-schema.js";
import { validateCall } from "../../../specs/call/validate-call.js";
import { enforcedRequirements, type ApiAuth, type Credential } from "../auth.js";
import type { ServeApp, ServedApi, ServeOptions } from "../serve-app.js";
import { operationProblem, validationStatus } from "../spec-problem.js";
import { callToolResult, isErrorStatus } from "./call-tool-result.js";
import { inProcessRequest } from "./in-process-request.js";
import { responseParts } from "./light-response.js";
import { mcpToolDefinition, preferredMcpName } from "./mcp-tool-definition.js";
import { ProtocolError } from "./protocol-error.js";

/** How the MCP side presents credentials to the simulated APIs. */
export interface McpBridgeOptions {
  /**
   * The credential presented for calls that bring none (an MCP client holds no API key: the server does, as MCP
   * servers wrapping an API do). Default: the first configured credential that fits the operation (`--api-key`,
   * `--credentials`, a toolset's own), or, when none is configured (any value passes), a placeholder.
   * `false`: present nothing (clients over HTTP must send the API's own auth headers).
   */
  credential?: string | false;
  /** Tools per `tools/list` page (default: all in one page). */
  pageSize?: number;
}

/** Who makes a call: its state session and, over HTTP, the headers of the MCP request. */
export interface McpCallContext {
  /** The toolsim state session of the MCP session. */
  session: string;
  /** Headers of the MCP HTTP request; those an API reads (auth, `Prefer`) are passed on. */
  headers?: Headers | Record<string, string | string[] | undefined>;
}

/** One served operation as an MCP tool. */
interface Entry {
  name: string;
  api: ServedApi;
  prefix: string;
  tool: Tool;
  auth: ApiAuth;
  definition: McpTool;
  /** The argument names the tool's schema declares. */
  args: Set<string>;
}

/** MCP and transport headers that are not the API's to read. */
const NOT_FORWARDED = new Set([
  "host", "connection", "content-length", "content-type", "accept", "accept-encoding", "transfer-encoding", "keep-alive",
  "mcp-session-id", "mcp-protocol-version", "last-event-id", "x-toolsim-session", "origin", "upgrade", "te", "trailer",
]);

/** The base URL of in-process requests (only the path is routed). */
const LOCAL = "http://toolsim.mcp";
const PLACEHOLDER = "toolsim-mcp";
/** A request target a URL keeps as it is (as @hono/node-server checks it), and the dot segments it would resolve. */
const PLAIN_TARGET = /^\/[!#$&-;=?-\[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/**
 * The served APIs' operations as MCP tools, called through the serve app itself: a `tools/call` becomes the
 * HTTP request of its operation and is answered by the same pipeline as the REST routes (auth, rate limits,
 * faults, validation, state per session, record and replay, LLM or proxy answers), then turned into a
 * `CallToolResult`. Names are the catalog's (an imported MCP tool's own name), qualified with the API's name
 * when two APIs share one.
 */
export class McpBridge {
  private readonly entries: Entry[] = [];
  private readonly byName = new Map<string, Entry>();
  private readonly placements = new WeakMap<Tool, Array<{ scheme: SecurityScheme; value: string }>>();
  /** Serialized `tools/list` pages by cursor (only valid cursors: at most one page per page size step). */
  private readonly listPages = new Map<string, string>();

  constructor(
    private readonly app: ServeApp,
    private readonly options: ServeOptions,
    private readonly bridge: McpBridgeOptions = {},
  ) {
    const prefixes = new Map(app.apis.map((a) => [a.name, a.prefix]));
    for (const api of options.apis) {
      const auth: ApiAuth = {
        credentials: [
          ...(options.credentials ?? []).filter((c) => c.api === undefined || c.api === api.name),
          ...(api.auth?.credentials ?? []).map((value) => ({ value, api: api.name })),
        ],
        ...(api.auth ? { toolsetAuth: api.auth } : {}),
      };
      for (const tool of api.catalog.tools) {
        let name = preferredMcpName(api.catalog, tool);
        if (this.byName.has(name)) name = `${api.name}_${name}`.slice(0, 128);
        for (let i = 2; this.byName.has(name); i++) name = `${api.name}_${preferredMcpName(api.catalog, tool)}`.slice(0, 120) + `_${i}`;
        const inputSchema = toolArgumentsSchema(api.catalog, tool);
        const entry: Entry = {
          name,
          api,
          prefix: prefixes.get(api.name) ?? "",
          tool,
          auth,
          definition: mcpToolDefinition(api.catalog, tool, name, inputSchema),
          args: new Set(Object.keys((inputSchema["properties"] as Record<string, unknown> | undefined) ?? {})),
        };
        this.entries.push(entry);
        this.byName.set(name, entry);
      }
    }
  }

  /** Every tool, in the order of the APIs and their operations. */
  get tools(): McpTool[] {
    return this.entries.map((e) => e.definition);
  }

  /** The served APIs (for documentation resources and instructions). */
  get apis(): readonly ServedApi[] {
    return this.options.apis;
  }

  /** One page of `tools/list` (cursor: the offset as a string). */
  list(cursor?: string): { tools: McpTool[]; nextCursor?: string } {
    const size = this.bridge.pageSize;
    if (size === undefined || size <= 0) {
      if (cursor !== undefined) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor} (this server lists every tool in one page)`);
      return { tools: this.tools };
    }
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > this.entries.length) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
    const end = Math.min(this.entries.length, start + size);
    return { tools: this.entries.slice(start, end).map((e) => e.definition), ...(end < this.entries.length ? { nextCursor: String(end) } : {}) };
  }

  /** A `tools/list` page as JSON (serialized once per cursor); an invalid cursor throws as `list` does. */
  listJson(cursor?: string): string {
    const key = cursor ?? "";
    let json = this.listPages.get(key);
    if (json === undefined) {
      json = JSON.stringify(this.list(cursor));
      this.listPages.set(key, json);
    }
    return json;
  }

  /** The catalog and tool behind an MCP tool name. */
  resolve(name: string): { catalog: Catalog; tool: Tool; api: string } | undefined {
    const e = this.byName.get(name);
    return e ? { catalog: e.api.catalog, tool: e.tool, api: e.api.name } : undefined;
  }

  /**
   * Calls a tool: an unknown tool is a protocol error (`-32602`, naming the nearest tools); everything the API
   * refuses (unknown or invalid arguments, auth, limits, faults) is an `isError` result with problem details.
   */
  async call(name: string, args: Record<string, unknown> | undefined, context: McpCallContext): Promise<CallToolResult> {
    const entry = this.byName.get(name);
    if (!entry) {
      const near = nearestNames(name, [...this.byName.keys()]);
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}${near.length > 0 ? `; did you mean ${near.join(", ")}?` : ""}`, { tool: name, suggestions: near });
    }
    const given = args ?? {};
    // Arguments that are neither parameters nor (for a flat body, which carries them to be judged) body
    // properties would be dropped on the way to HTTP: refused here, as the executor refuses them.
    const unknown = entry.tool.body?.mode === "flat" ? [] : Object.keys(given).filter((k) => !entry.args.has(k));
    if (unknown.length > 0) {
      // The executor's own validation reports them with every other error of the call, at once, answered as the
      // REST route answers an invalid request (the operation's 422, else its 400, in its declared shape).
      const check = validateCall(entry.api.catalog, entry.tool.name, given);
      if (!check.ok) {
        const status = check.problem.status === 422 ? validationStatus(entry.tool) : check.problem.status;
        const answer = operationProblem(entry.api.catalog, entry.tool, { ...check.problem, status }, this.app.seed);
        return callToolResult({ status: answer.status, body: answer.body, contentType: answer.contentType, source: "validation", violations: check.errors });
      }
    }
    let request: Request;
    try {
      request = this.request(entry, given, context);
    } catch (e) {
      // Arguments that cannot make an HTTP request at all: the caller's problem, told as the API would tell it.
      const problem = { type: "https://toolsim.dev/problems/bad-request", title: "Bad Request", status: 400, detail: `The call cannot be sent as an HTTP request: ${(e as Error).message}` };
      return callToolResult({ status: 400, body: problem, contentType: "application/problem+json", source: "validation" });
    }
    let response: Response;
    try {
      response = await this.app.answerApiRequest(request);
    } catch (e) {
      this.options.log?.(`toolsim serve: MCP ${name}: internal error: ${(e as Error).stack ?? (e as Error).message}`);
      const problem = { type: "https://toolsim.dev/problems/internal-error", title: "Internal Server Error", status: 500, detail: "toolsim failed to answer this call; see the server log." };
      return callToolResult({ status: 500, body: problem, contentType: "application/problem+json" });
    }
    const parts = responseParts(response);
    const contentType = parts.header("content-type") ?? undefined;
    const source = parts.header("x-toolsim-source") ?? undefined;
    const textual = contentType === undefined || /json|^text\/|xml|javascript|x-www-form-urlencoded|yaml|csv/i.test(contentType);
    let body: unknown;
    let binary = false;
    let raw: string | undefined;
    if (textual) {
      const text = parts.text ?? (await response.text());
      body = text;
      if (text !== "" && (contentType === undefined || /json/i.test(contentType))) {
        try {
          body = JSON.parse(text) as unknown;
          raw = text;
        } catch {
          // kept as text
        }
      }
    } else {
      const bytes = Buffer.from(await response.arrayBuffer());
      body = bytes.length > 0 ? bytes.toString("base64") : undefined;
      binary = true;
    }
    const hasOutput = entry.definition.outputSchema !== undefined && !isErrorStatus(response.status);
    let violations: unknown[] | undefined;
    const header = isErrorStatus(response.status) ? parts.header("sl-violations") : null;
    if (header !== null) {
      try {
        const parsed: unknown = JSON.parse(header);
        if (Array.isArray(parsed)) violations = parsed;
      } catch {
        // not ours
      }
    }
    return callToolResult(
      { status: response.status, body, ...(contentType !== undefined ? { contentType } : {}), ...(source !== undefined ? { source } : {}), ...(binary ? { binary } : {}), ...(violations ? { violations } : {}), ...(raw !== undefined ? { text: raw } : {}) },
      { outputSchema: hasOutput },
    );
  }

  /** The HTTP request of a call: the operation's request under the API's prefix, with session and credentials. */
  private request(entry: Entry, args: Record<string, unknown>, context: McpCallContext): Request {
    const http = toHttpRequest(entry.tool, args);
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(http.query)) for (const x of Array.isArray(v) ? v : [v]) search.append(k, x);
    const headers = new Headers();
    const given = context.headers;
    if (given instanceof Headers) {
      given.forEach((v, key) => {
        if (!NOT_FORWARDED.has(key)) headers.set(key, v);
      });
    } else {
      for (const [k, v] of Object.entries(given ?? {})) {
        const key = k.toLowerCase();
        if (v === undefined || NOT_FORWARDED.has(key)) continue;
        headers.set(key, Array.isArray(v) ? v.join(", ") : v);
      }
    }
    for (const [k, v] of Object.entries(http.headers)) {
      if (k === "cookie" && headers.has("cookie")) headers.set("cookie", `${headers.get("cookie")}; ${v}`);
      else headers.set(k, v);
    }
    headers.set("accept", "application/json, */*;q=0.5");
    headers.set("x-toolsim-session", context.session);
    this.presentCredentials(entry, headers, search);
    let body: string | undefined;
    // GET and HEAD carry no body over HTTP (the REST routes ignore one): the operation's validation says what is missing.
    if (http.body !== undefined && http.method !== "GET" && http.method !== "HEAD") {
      const type = http.contentType ?? "application/json";
      if (/multipart\/form-data/i.test(type) && typeof http.body === "object" && http.body !== null && !Array.isArray(http.body)) {
        // A form's parts, between a boundary the content type names (as a client's form encoder writes them).
        const form = multipartBody(formFields(http.body));
        body = form.text;
        headers.set("content-type", form.contentType);
      } else if (/json/i.test(type)) body = JSON.stringify(http.body);
      else if (/x-www-form-urlencoded/i.test(type)) body = new URLSearchParams(formFields(http.body)).toString();
      else body = typeof http.body === "string" ? http.body : JSON.stringify(http.body);
    }
    // The app reads a body by its length, as a client sends it over the network.
    if (body !== undefined) headers.set("content-length", String(Buffer.byteLength(body)));
    const qs = search.toString();
    const target = `${entry.prefix}${http.path}${qs !== "" ? `?${qs}` : ""}`;
    // A target of plain URL characters is the URL as it is; any other is normalized as a Request would do it.
    const url = PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target) ? `${LOCAL}${target}` : new URL(`${LOCAL}${target}`).href;
    return inProcessRequest(http.method.toUpperCase(), url, headers, body);
  }

  /** Adds the server-held credential where the operation's first satisfiable security alternative wants it. */
  private presentCredentials(entry: Entry, headers: Headers, search: URLSearchParams): void {
    for (const { scheme, value } of this.placementOf(entry)) {
      if (scheme.type === "apiKey" && scheme.paramName) {
        const name = scheme.paramName;
        if (scheme.in === "query") {
          if (!search.has(name)) search.set(name, value);
        } else if (scheme.in === "cookie") {
          const cookie = headers.get("cookie");
          if (cookie === null || !cookie.split(";").some((p) => p.trim().startsWith(`${name}=`))) headers.set("cookie", cookie === null ? `${name}=${value}` : `${cookie}; ${name}=${value}`);
        } else if (!headers.has(name)) headers.set(name, value);
      } else if (!headers.has("authorization")) {
        if (scheme.type === "http" && scheme.scheme === "basic") headers.set("authorization", `Basic ${Buffer.from(value.includes(":") ? value : `${value}:`).toString("base64")}`);
        else if (scheme.type === "http" && scheme.scheme !== undefined && scheme.scheme !== "bearer") headers.set("authorization", `${scheme.scheme.replace(/^./, (c) => c.toUpperCase())} ${value}`);
        else headers.set("authorization", `Bearer ${value}`);
      }
    }
  }

  private placementOf(entry: Entry): Array<{ scheme: SecurityScheme; value: string }> {
    let placed = this.placements.get(entry.tool);
    if (placed) return placed;
    placed = [];
    const enforce = this.options.enforceAuth !== false && (this.app.mode !== "proxy" || entry.auth.credentials.length > 0);
    if (enforce && this.bridge.credential !== false) {
      const configured = entry.auth.credentials;
      for (const alternative of enforcedRequirements(entry.api.catalog, entry.tool, entry.auth)) {
        const values: Array<{ scheme: SecurityScheme; value: string }> = [];
        for (const { scheme, scopes } of alternative.schemes) {
          if (scheme.type === "mutualTLS") continue;
          const value = this.credentialFor(scheme, scopes, configured, this.app.mode === "proxy");
          if (value === undefined) break;
          values.push({ scheme, value });
        }
        if (values.length === alternative.schemes.filter((s) => s.scheme.type !== "mutualTLS").length) {
          placed = values;
          break;
        }
      }
    }
    this.placements.set(entry.tool, placed);
    return placed;
  }

  private credentialFor(scheme: SecurityScheme, scopes: readonly string[], configured: readonly Credential[], proxy: boolean): string | undefined {
    const explicit = this.bridge.credential;
    if (typeof explicit === "string") return explicit;
    const fits = configured.filter((c) => c.scheme === undefined || c.scheme === scheme.name);
    const scoped = fits.find((c) => c.scopes === undefined || scopes.every((s) => c.scopes?.includes(s)));
    if (scoped ?? fits[0]) return (scoped ?? fits[0])?.value;
    // With no credential configured any presented value passes; a proxy never sends a made-up key to the real API.
    return configured.length === 0 && !proxy ? (scheme.type === "http" && scheme.scheme === "basic" ? "toolsim:mcp" : PLACEHOLDER) : undefined;
  }
}
