import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentTool } from "../../agents/roles/roles.js";
import { TOOL_SEARCHER, toolSearcherTool } from "../../agents/assistant/tool-searcher.js";
import { Toolbox } from "../../agents/roles/toolbox.js";
import { formatProblem } from "../../specs/load/spec-problem.js";
import { bundledToolsetsDir, loadToolsets } from "../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../toolsets/toolset.js";
import type { CorpusRecord } from "../runs/corpus-projection.js";
import type { RunInfo } from "../runs/run-info.js";
import { redactSchemaSecrets } from "./redact-record.js";
import { isObject } from "../../specs/json-object.js";

/** Options of {@link RunToolsets.load}. */
export interface RunToolsetsOptions {
  /** Toolset files or folders to use instead of the ones recorded in `run.json`. */
  paths?: readonly string[];
  /** Receives what could not be loaded or changed since the run (default: ignored). */
  warn?: (message: string) => void;
}

/**
 * The toolsets a run was made with, reloaded for its exports and reports: from `--toolsets`, else the files
 * `run.json` recorded, else the bundled toolset of the same name. A toolset that cannot be found is reported
 * once; its episodes then get the tools their calls name, with empty schemas.
 */
export class RunToolsets {
  private readonly warned = new Set<string>();
  /** Per toolset: its OpenAPI document without secret examples, and the secret values its schemas hold. */
  private readonly cleaned = new Map<string, { document: unknown; secrets: string[] }>();
  /** Tool lists without secret examples, per list offered (toolboxes share their lists). */
  private readonly cleanTools = new WeakMap<readonly AgentTool[], AgentTool[]>();

  private constructor(
    private readonly byName: ReadonlyMap<string, LoadedToolset>,
    private readonly warn: (message: string) => void,
  ) {}

  /** Loads the toolsets of a run. */
  static async load(info: RunInfo, options: RunToolsetsOptions = {}): Promise<RunToolsets> {
    const warn = options.warn ?? (() => undefined);
    const byName = new Map<string, LoadedToolset>();
    const recorded = Array.isArray(info.config["toolsets"]) ? (info.config["toolsets"] as unknown[]).filter((t): t is string => typeof t === "string") : Object.keys(info.specHashes ?? {});
    const files = options.paths && options.paths.length > 0 ? [...options.paths] : (info.toolsetFiles ?? []);
    const present = files.filter((f) => existsSync(f));
    for (const f of files) if (!present.includes(f)) warn(`toolset file not found: ${f}`);
    if (present.length > 0) {
      const { toolsets, problems } = await loadToolsets(present);
      for (const p of problems) warn(`toolset skipped: ${formatProblem(p)}`);
      for (const t of toolsets) byName.set(t.name, t);
    }
    const missing = recorded.filter((name) => !byName.has(name) && existsSync(join(bundledToolsetsDir(), `${name}.yaml`)));
    if (missing.length > 0) {
      const { toolsets } = await loadToolsets(missing.map((name) => join(bundledToolsetsDir(), `${name}.yaml`)));
      for (const t of toolsets) if (!byName.has(t.name)) byName.set(t.name, t);
    }
    for (const [name, ts] of byName) {
      const hash = info.specHashes?.[name];
      if (hash !== undefined && hash.replace(/^sha256:/, "") !== ts.catalog.spec.hash.replace(/^sha256:/, "")) {
        warn(`toolset ${name} changed since the run (its spec hash differs): its tools are exported as they are now`);
      }
    }
    return new RunToolsets(byName, warn);
  }

  /** A toolset of the run, when it could be loaded. */
  get(name: string): LoadedToolset | undefined {
    return this.byName.get(name);
  }

  /** The names of the toolsets loaded. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The loaded toolsets of an episode, in its order. */
  toolsetsOf(record: Pick<CorpusRecord, "toolsets">): LoadedToolset[] {
    const out: LoadedToolset[] = [];
    for (const name of record.toolsets) {
      const ts = this.byName.get(name);
      if (ts) out.push(ts);
      else if (!this.warned.has(name)) {
        this.warned.add(name);
        this.warn(`toolset ${name} could not be loaded (pass --toolsets): its episodes get tools from their calls, without schemas`);
      }
    }
    return out;
  }

  private clean(ts: LoadedToolset): { document: unknown; secrets: string[] } {
    let hit = this.cleaned.get(ts.name);
    if (!hit) {
      const r = redactSchemaSecrets(ts.catalog.spec.document);
      hit = { document: r.value, secrets: [...r.secrets] };
      this.cleaned.set(ts.name, hit);
    }
    return hit;
  }

  /**
   * The secrets an episode's toolsets know: their credentials and the example values of their secret fields
   * (a sample password in the spec). They are never exported.
   */
  secrets(record: Pick<CorpusRecord, "toolsets">): string[] {
    return this.toolsetsOf(record).flatMap((t) => [...(t.auth?.credentials ?? []), ...Object.values(t.auth?.keys ?? {}), ...this.clean(t).secrets]);
  }

  /** The credential arguments the harness fills into a tool's calls in an episode (argument -> credential), if any. */
  credentialsOf(record: Pick<CorpusRecord, "toolsets">, tool: string): Readonly<Record<string, string>> | undefined {
    const toolsets = this.toolsetsOf(record);
    return toolsets.length > 0 ? Toolbox.for(toolsets).get(tool)?.credentials : undefined;
  }

  /** A toolset's OpenAPI document without the example values of secret fields. */
  documentOf(ts: LoadedToolset): unknown {
    return this.clean(ts).document;
  }

  /**
   * The tools offered to the assistant in an episode, in OpenAI function form, without the example values of
   * secret fields. At level `call`: every tool of
   * its toolsets, named as the episode named them. At `retrieve` and `plan`: ToolSearcher and the tools its
   * searches returned (the assistant is offered those alone).
   */
  toolsFor(record: Pick<CorpusRecord, "toolsets" | "steps" | "meta">): AgentTool[] {
    const toolsets = this.toolsetsOf(record);
    if (record.meta.level === "call" && toolsets.length === record.toolsets.length && toolsets.length > 0) {
      const offered = Toolbox.for(toolsets).tools();
      let clean = this.cleanTools.get(offered);
      if (!clean) {
        clean = redactSchemaSecrets([...offered]).value;
        this.cleanTools.set(offered, clean);
      }
      return clean;
    }
    const out: AgentTool[] = [];
    const seen = new Set<string>();
    const add = (t: AgentTool): void => {
      if (seen.has(t.name)) return;
      seen.add(t.name);
      out.push(t);
    };
    if (record.meta.level === "call") {
      if (toolsets.length > 0) for (const t of Toolbox.for(toolsets).tools()) add(t);
    } else {
      add(toolSearcherTool);
      for (const step of record.steps) {
        const body = step.observation?.body;
        if (step.call.name !== TOOL_SEARCHER || !isObject(body) || !Array.isArray(body["tools"])) continue;
        for (const t of body["tools"]) {
          if (isObject(t) && typeof t["name"] === "string") {
            add({ name: t["name"], description: typeof t["description"] === "string" ? t["description"] : "", parameters: isObject(t["parameters"]) ? t["parameters"] : { type: "object", properties: {} } });
          }
        }
      }
    }
    if (toolsets.length < record.toolsets.length) {
      // Some toolsets are missing: offer the tools the episode called that belong to them.
      const missing = new Set(record.toolsets.filter((n) => !this.byName.has(n)));
      for (const step of record.steps) {
        if (step.call.toolset !== undefined && missing.has(step.call.toolset)) add({ name: step.call.name, description: "", parameters: { type: "object", properties: {} } });
      }
    }
    return redactSchemaSecrets(out).value;
  }
}
