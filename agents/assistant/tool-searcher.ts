import MiniSearch from "minisearch";
import { Memo } from "../roles/memo.js";
import type { AgentTool } from "../roles/roles.js";
import type { Toolbox } from "../roles/toolbox.js";

/** The name of API-Bank's retrieval tool, offered at the `retrieve` and `plan` levels. */
export const TOOL_SEARCHER = "ToolSearcher";

/** ToolSearcher as a tool the assistant can call: keywords in, the best-matching tools out. */
export const toolSearcherTool: AgentTool = {
  name: TOOL_SEARCHER,
  description: "Searches the API catalog for tools that match keywords describing what you need to do. Returns the best matches with their parameters; call them afterwards.",
  parameters: {
    type: "object",
    properties: { keywords: { type: "string", description: "What the tool should do, in a few words" } },
    required: ["keywords"],
  },
};

function splitWords(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-/{}]+/g, " ");
}

const INDEXES = new WeakMap<Toolbox, ToolIndex>();

/** BM25 search over a toolbox's tool names, descriptions and parameter names. */
export class ToolIndex {
  /** The index of a toolbox, built once per toolbox (toolboxes are read-only and shared, see `Toolbox.for`). */
  static for(toolbox: Toolbox): ToolIndex {
    let index = INDEXES.get(toolbox);
    if (!index) {
      index = new ToolIndex(toolbox);
      INDEXES.set(toolbox, index);
    }
    return index;
  }

  private readonly index: MiniSearch<{ id: string; name: string; description: string; params: string; toolset: string }>;

  constructor(private readonly toolbox: Toolbox) {
    this.index = new MiniSearch({
      fields: ["name", "description", "params", "toolset"],
      storeFields: ["id"],
      searchOptions: { boost: { name: 2, description: 1, params: 0.5, toolset: 0.5 }, prefix: true, fuzzy: 0.2 },
    });
    this.index.addAll(
      toolbox.entries.map((e) => ({
        id: e.name,
        name: splitWords(e.name),
        description: e.description,
        params: splitWords(Object.keys((e.parameters["properties"] as Record<string, unknown> | undefined) ?? {}).join(" ")),
        toolset: `${e.toolset.title} ${e.toolset.category ?? ""}`,
      })),
    );
  }

  /** Answers to recent queries (the keywords of requests repeat across episodes). */
  private readonly answers = new Memo<string, readonly AgentTool[]>(512);

  /** The best-matching tools for a query, best first. */
  search(query: string, limit = 3): AgentTool[] {
    const hits = this.answers.getOrCompute(`${limit}\u0000${query}`, () =>
      this.index
        .search(splitWords(query), { combineWith: "OR" })
        .slice(0, limit)
        .map((hit) => this.toolbox.tool(String(hit.id)))
        .filter((t): t is AgentTool => t !== undefined),
    );
    return [...hits];
  }
}
