import type { Catalog } from "../../specs/catalog/catalog.js";
import type { Fixtures } from "../../specs/respond/resource-store.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
import type { AssistantToolCall } from "./dialogue.js";
import type { Responder } from "../../specs/respond/responder.js";
import { CredentialMask, credentialPlaceholder, isCredentialPlaceholder } from "./credential-mask.js";
import type { AgentTool } from "./agent-tool.js";

/** A toolset as the agents see it: its documentation and its catalog (agents do not import toolsets/). */
export interface EpisodeToolset {
  /** Unique slug, e.g. `bookstore`. */
  name: string;
  /** Display name, e.g. `Bookstore`. */
  title: string;
  category?: string;
  introduction: string;
  description: string;
  /** Natural-language function documentation (ToolAlpaca style). */
  functions: string;
  catalog: Catalog;
  fixtures?: Fixtures;
  /**
   * Credentials the simulated API accepts, if it requires auth: `name` (and each of `keys`, further key parameters
   * with their values) is passed by the harness where the spec takes it as an argument, unless `checkedBy: "api"`
   * (the API itself issues and checks it, as API-Bank's tokens).
   */
  auth?: { type: "apiKey" | "bearer"; in?: "header" | "query"; name?: string; credentials: string[]; keys?: Record<string, string>; checkedBy?: "api" };
  /**
   * Responders of the toolset's own behaviour, tried before the executor's (e.g. API-Bank's APIs for a toolset
   * imported from API-Bank): injected by whoever loads the toolset, so every command answers it the same way.
   */
  responders?: readonly Responder[];
}

/** A tool offered to the assistant: the name it is called by, and where it lives. */
export interface ToolboxEntry {
  /** The name the assistant calls it by (qualified with the toolset when names collide). */
  name: string;
  toolset: EpisodeToolset;
  tool: Tool;
  /** The JSON Schema of its arguments as offered to the assistant, self-contained (credential arguments left out). */
  parameters: Record<string, unknown>;
  description: string;
  /**
   * Arguments the harness fills into every call of the tool (argument -> value): the toolset's API key, when the
   * spec declares it as an ordinary parameter of the operation (as ToolAlpaca's real-API specs do). The assistant
   * is given the credential the way the original agent is, without having to ask the user for it.
   */
  credentials?: Record<string, string>;
}

/**
 * The arguments of a tool that carry its toolset's API keys (`auth.name` with the first credential, and each of
 * `auth.keys` with its value), with the credential each receives: a declared parameter of that name (in the key's
 * location first, else any) or a body property of that name. None when the API checks its credentials itself
 * (`checkedBy: "api"`: the assistant obtains them).
 */
export function credentialArguments(toolset: EpisodeToolset, tool: Tool): Record<string, string> | undefined {
  const auth = toolset.auth;
  if (auth?.type !== "apiKey" || auth.checkedBy === "api") return undefined;
  const wanted: Array<[string, string]> = [];
  const first = auth.credentials[0];
  if (auth.name !== undefined && first !== undefined) wanted.push([auth.name, first]);
  for (const [name, value] of Object.entries(auth.keys ?? {})) if (name !== auth.name) wanted.push([name, value]);
  const out: Record<string, string> = {};
  for (const [name, value] of wanted) {
    const named = tool.parameters.filter((p) => p.name === name);
    const param = named.find((p) => p.in === (auth.in ?? "header")) ?? named[0];
    if (param) out[param.arg] = value;
    else if (tool.body?.mode === "flat" && name in tool.body.properties) out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The mask of a list of toolsets' credentials: every value their `auth` accepts (`credentials` and `keys`) ->
 * `<credential:NAME>`. Credentials the API checks itself (`checkedBy: "api"`, API-Bank's tokens) are data of its
 * world, not secrets of the harness, and stay.
 */
export function credentialMaskOf(toolsets: readonly EpisodeToolset[]): CredentialMask {
  const secrets = new Map<string, string>();
  for (const ts of toolsets) {
    const auth = ts.auth;
    if (!auth || auth.checkedBy === "api") continue;
    for (const [name, value] of Object.entries(auth.keys ?? {})) if (!secrets.has(value)) secrets.set(value, credentialPlaceholder(name));
    const name = auth.name ?? (auth.type === "bearer" ? "bearer" : "api_key");
    for (const value of auth.credentials) if (!secrets.has(value)) secrets.set(value, credentialPlaceholder(name));
  }
  return new CredentialMask(secrets);
}

/** A call with some arguments left out (the same call when it has none of them, or its arguments are not an object). */
export function withoutArguments(call: AssistantToolCall, names: readonly string[]): AssistantToolCall {
  if (names.length === 0 || typeof call.arguments !== "object" || call.arguments === null) return call;
  const args = call.arguments as Record<string, unknown>;
  if (!names.some((n) => n in args)) return call;
  return { ...call, arguments: Object.fromEntries(Object.entries(args).filter(([k]) => !names.includes(k))) };
}

/** A call filled in by the harness: what the executor receives, what is published instead, and what was filled. */
export interface FilledCall {
  /** The call with the credentials in clear: for the executor only. */
  call: AssistantToolCall;
  /** The call as published (events, dialogue, tester): credentials as placeholders. */
  published: AssistantToolCall;
  /** The arguments the harness filled in. */
  supplied: string[];
}

/** An arguments schema without the credential arguments (a copy; the original is shared). */
function schemaWithout(schema: Record<string, unknown>, args: readonly string[]): Record<string, unknown> {
  const props = schema["properties"];
  const required = schema["required"];
  return {
    ...schema,
    ...(props !== null && typeof props === "object" ? { properties: Object.fromEntries(Object.entries(props).filter(([k]) => !args.includes(k))) } : {}),
    ...(Array.isArray(required) ? { required: required.filter((r) => !args.includes(String(r))) } : {}),
  };
}

/** The arguments schema of each tool, computed once per catalog (it depends on the catalog alone). */
const SCHEMAS = new WeakMap<Catalog, WeakMap<Tool, Record<string, unknown>>>();

function argumentsSchema(catalog: Catalog, tool: Tool): Record<string, unknown> {
  let byTool = SCHEMAS.get(catalog);
  if (!byTool) {
    byTool = new WeakMap();
    SCHEMAS.set(catalog, byTool);
  }
  let schema = byTool.get(tool);
  if (!schema) {
    schema = toolArgumentsSchema(catalog, tool);
    byTool.set(tool, schema);
  }
  return schema;
}

/** A node of the cache of toolboxes: one level per toolset of the list, keyed by the toolset object. */
interface CacheNode {
  toolbox?: Toolbox;
  next: WeakMap<EpisodeToolset, CacheNode>;
}

const CACHE: CacheNode = { next: new WeakMap() };

/**
 * The tools of an episode's toolsets under unique names. A toolbox is read-only: {@link Toolbox.for} shares
 * one between all the episodes over the same toolsets (its entries, schemas and derived indexes included).
 */
export class Toolbox {
  readonly entries: ToolboxEntry[];
  /** Whether some tool has credential arguments the harness fills in (see {@link supplyCredentials}). */
  readonly hasCredentials: boolean;
  /** The toolsets' credentials -> their placeholders (see {@link credentialMaskOf}); empty when they have none. */
  readonly mask: CredentialMask;
  private readonly byName: Map<string, ToolboxEntry>;
  private readonly byToolset = new Map<string, ToolboxEntry[]>();
  private agentTools: AgentTool[] | undefined;
  private agentToolByName: Map<string, AgentTool> | undefined;
  /** What the toolbox was built from (a cached toolbox is reused only while they are the same). */
  private readonly built: ReadonlyArray<{ name: string; catalog: Catalog }>;

  constructor(toolsets: readonly EpisodeToolset[]) {
    const entries: ToolboxEntry[] = [];
    const taken = new Set<string>();
    for (const ts of toolsets) {
      for (const tool of ts.catalog.tools) {
        let name = tool.name;
        if (taken.has(name)) name = `${ts.name.replace(/[^a-zA-Z0-9_-]/g, "_")}__${tool.name}`.slice(0, 64);
        taken.add(name);
        const credentials = credentialArguments(ts, tool);
        const schema = argumentsSchema(ts.catalog, tool);
        entries.push({
          name,
          toolset: ts,
          tool,
          parameters: credentials ? schemaWithout(schema, Object.keys(credentials)) : schema,
          description: tool.description,
          ...(credentials ? { credentials } : {}),
        });
      }
    }
    this.entries = entries;
    this.hasCredentials = entries.some((e) => e.credentials !== undefined);
    this.mask = credentialMaskOf(toolsets);
    this.byName = new Map(entries.map((e) => [e.name, e]));
    this.built = toolsets.map((ts) => ({ name: ts.name, catalog: ts.catalog }));
  }

  /**
   * The toolbox of a list of toolsets, shared by every caller that passes the same toolset objects in the same
   * order (episodes of a run build theirs once, not once per episode). Treat it and its entries as read-only.
   */
  static for(toolsets: readonly EpisodeToolset[]): Toolbox {
    let node = CACHE;
    for (const ts of toolsets) {
      let next = node.next.get(ts);
      if (!next) {
        next = { next: new WeakMap() };
        node.next.set(ts, next);
      }
      node = next;
    }
    const hit = node.toolbox;
    if (hit && hit.built.length === toolsets.length && hit.built.every((b, i) => b.name === toolsets[i]?.name && b.catalog === toolsets[i]?.catalog)) return hit;
    const toolbox = new Toolbox(toolsets);
    node.toolbox = toolbox;
    return toolbox;
  }

  /** The entry of a tool name, if any. */
  get(name: string): ToolboxEntry | undefined {
    return this.byName.get(name);
  }

  /**
   * A call with the tool's credential arguments filled in where the assistant left them out (see
   * {@link ToolboxEntry.credentials}); the same call when there are none, or when its arguments are not an object.
   */
  supplyCredentials(call: AssistantToolCall): AssistantToolCall {
    return this.fillCredentials(call).call;
  }

  /**
   * {@link supplyCredentials}, the call as published (the credentials as placeholders, see {@link CredentialMask}),
   * and the names of the arguments it filled in. A credential placeholder in the call counts as left out.
   */
  fillCredentials(call: AssistantToolCall): FilledCall {
    const unchanged = (): FilledCall => ({ call, published: this.mask.value(call), supplied: [] });
    const credentials = this.byName.get(call.name)?.credentials;
    if (!credentials) return unchanged();
    let args: unknown = call.arguments;
    if (typeof args === "string") {
      try {
        args = args.trim() === "" ? {} : JSON.parse(args);
      } catch {
        return unchanged();
      }
    }
    if (args === null || typeof args !== "object" || Array.isArray(args)) return unchanged();
    const given = args as Record<string, unknown>;
    const missing = Object.entries(credentials).filter(([k]) => given[k] === undefined || given[k] === null || given[k] === "" || isCredentialPlaceholder(given[k]));
    if (missing.length === 0) return unchanged();
    const filled = { ...call, arguments: { ...given, ...Object.fromEntries(missing) } };
    const published = this.mask.value({ ...call, arguments: { ...given, ...Object.fromEntries(missing.map(([k]) => [k, credentialPlaceholder(k)])) } });
    return { call: filled, published, supplied: missing.map(([k]) => k) };
  }

  /** The entries of one toolset. */
  ofToolset(toolset: string): ToolboxEntry[] {
    let list = this.byToolset.get(toolset);
    if (!list) {
      list = this.entries.filter((e) => e.toolset.name === toolset);
      this.byToolset.set(toolset, list);
    }
    return [...list];
  }

  /** Every tool as offered to the assistant (`{name, description, parameters}`), the same objects on every call. */
  tools(): readonly AgentTool[] {
    this.agentTools ??= this.entries.map((e) => ({ name: e.name, description: e.description, parameters: e.parameters }));
    return this.agentTools;
  }

  /** One tool as offered to the assistant (the same object as in {@link tools}), if any. */
  tool(name: string): AgentTool | undefined {
    this.agentToolByName ??= new Map(this.tools().map((t) => [t.name, t]));
    return this.agentToolByName.get(name);
  }
}
