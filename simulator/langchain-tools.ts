import { DynamicStructuredTool } from "@langchain/core/tools";
import type { Catalog } from "../specs/catalog/catalog.js";
import { toHttpRequest } from "../specs/call/http-request.js";
import { ResourceStore } from "../specs/respond/resource-store.js";
import { securityRequirements } from "../specs/catalog/security-requirements.js";
import { defaultStages, simulateCall, type SimulationStages } from "../specs/call/simulate-call.js";
import type { Tool } from "../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../specs/catalog/tool-schema.js";
import type { LoadedToolset } from "../toolsets/toolset.js";
import { Toolbox } from "../agents/roles/toolbox.js";

/** Options of {@link toLangChainTools}. */
export interface LangChainToolsOptions {
  /**
   * The base URL of the API on a `toolsim serve` server (`http://127.0.0.1:4010/bookstore`): the tools send
   * real HTTP requests there. Absent: the tools run the simulator in this process.
   */
  url?: string;
  /** In-process: the state every tool shares (default: a new store from the toolset's fixtures). */
  state?: ResourceStore;
  /** In-process: the seed of simulated answers (default 1). */
  seed?: number;
  /** In-process: replace executor stages (e.g. responders with an LLM responder). */
  stages?: Partial<SimulationStages>;
  /** Only the tools of these names. */
  include?: readonly string[];
  /** URL mode: the API key or bearer token to send, where the toolset's auth or the spec's security says. */
  credential?: string;
  /** URL mode: the `X-Toolsim-Session` of the tools' requests (their own state on the server). */
  session?: string;
  /** URL mode: extra headers of every request. */
  headers?: Record<string, string>;
  /** URL mode: the fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** URL mode: time allowed to one request (default 30 s). */
  timeoutMs?: number;
}

/** What a simulated tool returns to the model: the HTTP status and body, as JSON text. */
export interface SimulatedToolOutput {
  status: number;
  body: unknown;
}

function isToolset(x: LoadedToolset | Catalog): x is LoadedToolset {
  return "catalog" in x && "introduction" in x;
}

/** Where the credential goes for a tool: the toolset's auth, else the first scheme the operation accepts. */
function credentialPlace(toolset: LoadedToolset | undefined, catalog: Catalog, tool: Tool): { in: "header" | "query"; name: string; bearer: boolean } | undefined {
  const auth = toolset?.auth;
  if (auth) return auth.type === "bearer" ? { in: "header", name: "authorization", bearer: true } : { in: auth.in ?? "header", name: auth.name ?? "X-Api-Key", bearer: false };
  for (const alternative of securityRequirements(catalog, tool)) {
    for (const { scheme } of alternative.schemes) {
      if (scheme.type === "apiKey" && (scheme.in === "header" || scheme.in === "query") && scheme.paramName) return { in: scheme.in, name: scheme.paramName, bearer: false };
      if (scheme.type === "oauth2" || scheme.type === "openIdConnect" || (scheme.type === "http" && scheme.scheme === "bearer")) return { in: "header", name: "authorization", bearer: true };
    }
  }
  return undefined;
}

function output(status: number, body: unknown): string {
  return JSON.stringify({ status, body: body ?? null } satisfies SimulatedToolOutput);
}

/**
 * The operations of a toolset (or catalog) as LangChain structured tools, for any LangChain agent: the
 * argument schema is the operation's (JSON Schema), and each call is answered by the simulator, in this
 * process (one shared state, seeded answers) or through a `toolsim serve` URL (validation, state per
 * session, auth, rate limits and faults as the server enforces them). A tool returns
 * `{"status": ..., "body": ...}` as text. Arguments that break the JSON schema are refused by LangChain
 * before the call (`ToolInputParsingException`, which agents hand back to the model); whatever else the API
 * refuses (unknown arguments, auth, quotas, faults) comes back as its status and problem details.
 */
export function toLangChainTools(toolset: LoadedToolset | Catalog, options: LangChainToolsOptions = {}): DynamicStructuredTool[] {
  const ts = isToolset(toolset) ? toolset : undefined;
  const catalog = ts ? ts.catalog : (toolset as Catalog);
  const state = options.state ?? ResourceStore.fromFixtures(ts?.fixtures ?? {});
  const include = options.include ? new Set(options.include) : undefined;
  const tools = catalog.tools.filter((t) => !include || include.has(t.name));
  // A toolset's API keys declared as ordinary arguments are supplied, as the harness supplies them in episodes:
  // the tools neither show nor require them.
  const toolbox = ts ? Toolbox.for([ts]) : undefined;
  // A toolset's own behaviour (API-Bank's APIs) answers before the generic responders.
  const stages = options.stages ?? (ts?.responders && ts.responders.length > 0 ? { responders: [...ts.responders, ...defaultStages.responders] } : undefined);
  return tools.map((tool) => {
    const entry = toolbox?.get(tool.name);
    return new DynamicStructuredTool({
      name: tool.name,
      description: tool.description,
      schema: entry?.parameters ?? toolArgumentsSchema(catalog, tool),
      verboseParsingErrors: true,
      func: async (input: unknown): Promise<string> => {
        const given = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
        const filled = entry?.credentials && toolbox ? toolbox.supplyCredentials({ id: "", name: tool.name, arguments: given }).arguments : given;
        const args = typeof filled === "object" && filled !== null ? (filled as Record<string, unknown>) : given;
        if (options.url === undefined) {
          const result = await simulateCall(catalog, { name: tool.name, arguments: args }, { seed: options.seed ?? 1, state, ...(stages ? { stages } : {}) });
          return output(result.status, result.body);
        }
        return callOverHttp(options.url, ts, catalog, tool, args, options);
      },
    });
  });
}

async function callOverHttp(base: string, ts: LoadedToolset | undefined, catalog: Catalog, tool: Tool, args: Record<string, unknown>, options: LangChainToolsOptions): Promise<string> {
  const request = toHttpRequest(tool, args);
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query)) for (const x of Array.isArray(v) ? v : [v]) search.append(k, x);
  const headers: Record<string, string> = { accept: "application/json", ...request.headers, ...options.headers };
  if (options.session !== undefined) headers["x-toolsim-session"] = options.session;
  if (options.credential !== undefined) {
    const place = credentialPlace(ts, catalog, tool);
    if (place?.in === "query") search.set(place.name, options.credential);
    else if (place) headers[place.name.toLowerCase()] = place.bearer ? `Bearer ${options.credential}` : options.credential;
  }
  const qs = search.toString();
  const url = `${base.replace(/\/+$/, "")}${request.path}${qs !== "" ? `?${qs}` : ""}`;
  const body = request.body === undefined ? undefined : typeof request.body === "string" && !/json/i.test(request.contentType ?? "") ? request.body : JSON.stringify(request.body);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      method: request.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (e) {
    return output(0, { title: "Network error", detail: `${request.method} ${url} failed: ${(e as Error).message}` });
  }
  const text = await res.text();
  let parsed: unknown = text === "" ? null : text;
  if (text !== "" && /json/i.test(res.headers.get("content-type") ?? "")) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text
    }
  }
  return output(res.status, parsed);
}
