import type { Catalog } from "../../specs/catalog/catalog.js";
import type { Fixtures } from "../../specs/respond/resource-store.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
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
  /** Credentials the simulated API accepts, if it requires auth. */
  auth?: { type: "apiKey" | "bearer"; in?: "header" | "query"; name?: string; credentials: string[] };
}

/** A tool offered to the assistant: the name it is called by, and where it lives. */
export interface ToolboxEntry {
  /** The name the assistant calls it by (qualified with the toolset when names collide). */
  name: string;
  toolset: EpisodeToolset;
  tool: Tool;
  /** The JSON Schema of its arguments, self-contained. */
  parameters: Record<string, unknown>;
  description: string;
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
        entries.push({ name, toolset: ts, tool, parameters: argumentsSchema(ts.catalog, tool), description: tool.description });
      }
    }
    this.entries = entries;
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
