import type { Catalog } from "../specs/catalog.js";
import type { Fixtures } from "../specs/resource-store.js";
import type { Tool } from "../specs/tool.js";
import { toolArgumentsSchema } from "../specs/tool-schema.js";

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

/** The tools of an episode's toolsets under unique names. */
export class Toolbox {
  readonly entries: ToolboxEntry[];
  private readonly byName: Map<string, ToolboxEntry>;

  constructor(toolsets: readonly EpisodeToolset[]) {
    const entries: ToolboxEntry[] = [];
    const taken = new Set<string>();
    for (const ts of toolsets) {
      for (const tool of ts.catalog.tools) {
        let name = tool.name;
        if (taken.has(name)) name = `${ts.name.replace(/[^a-zA-Z0-9_-]/g, "_")}__${tool.name}`.slice(0, 64);
        taken.add(name);
        entries.push({ name, toolset: ts, tool, parameters: toolArgumentsSchema(ts.catalog, tool), description: tool.description });
      }
    }
    this.entries = entries;
    this.byName = new Map(entries.map((e) => [e.name, e]));
  }

  /** The entry of a tool name, if any. */
  get(name: string): ToolboxEntry | undefined {
    return this.byName.get(name);
  }

  /** The entries of one toolset. */
  ofToolset(toolset: string): ToolboxEntry[] {
    return this.entries.filter((e) => e.toolset.name === toolset);
  }
}
