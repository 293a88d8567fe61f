import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { parseArguments } from "../../specs/call/validate-call.js";
import type { SimEvent } from "../core/events.js";
import { isObject } from "../../specs/json-object.js";

/** Covered out of declared, with what was left out (capped). */
export interface CoverageFigure {
  covered: number;
  total: number;
  ratio: number;
  /** Declared items never exercised (the first 50). */
  missing: string[];
}

/** How much of the toolsets' specs a run exercised. */
export interface SpecCoverage {
  operations: CoverageFigure;
  parameters: CoverageFigure;
  enumValues: CoverageFigure;
  errorResponses: CoverageFigure;
}

interface Declared {
  toolset: string;
  tool: Tool;
  args: string[];
  enums: Map<string, unknown[]>;
  errors: number[];
}

/** Accumulates the coverage of a run's calls over the specs of its toolsets (feed episodes, then read). */
export class CoverageCounter {
  private readonly declared = new Map<string, Declared>();
  private readonly byToolName = new Map<string, string[]>();
  private readonly seen = { operations: new Set<string>(), parameters: new Set<string>(), enumValues: new Set<string>(), errorResponses: new Set<string>() };

  constructor(toolsets: readonly EpisodeToolset[]) {
    for (const ts of toolsets) {
      for (const tool of ts.catalog.tools) {
        const key = `${ts.name}:${tool.name}`;
        const enums = new Map<string, unknown[]>();
        const args: string[] = [];
        const pointers: Array<[string, string | undefined]> = tool.parameters.map((p) => [p.arg, p.schemaPointer]);
        if (tool.body?.mode === "flat") for (const [name, pointer] of Object.entries(tool.body.properties)) pointers.push([name, pointer]);
        else if (tool.body?.mode === "wrapped" && tool.body.arg) pointers.push([tool.body.arg, tool.body.schemaPointer]);
        for (const [arg, pointer] of pointers) {
          args.push(arg);
          if (pointer === undefined) continue;
          try {
            const { schema } = ts.catalog.registry.resolve("request", pointer);
            if (isObject(schema) && Array.isArray(schema["enum"])) enums.set(arg, schema["enum"]);
          } catch {
            // an unresolvable schema declares no enum
          }
        }
        const errors = tool.responses.map((r) => Number(r)).filter((n) => Number.isInteger(n) && n >= 400);
        this.declared.set(key, { toolset: ts.name, tool, args, enums, errors });
        const list = this.byToolName.get(tool.name) ?? [];
        list.push(key);
        this.byToolName.set(tool.name, list);
      }
    }
  }

  private keyOf(e: SimEvent & { type: "tool.call" }): string | undefined {
    if (e.toolset !== undefined && e.operation) {
      for (const [key, d] of this.declared) if (d.toolset === e.toolset && d.tool.operation.pointer === e.operation.pointer) return key;
    }
    const name = e.call.name.includes("__") ? e.call.name.slice(e.call.name.indexOf("__") + 2) : e.call.name;
    const keys = this.byToolName.get(name) ?? [];
    return keys.length === 1 ? keys[0] : keys.find((k) => e.toolset !== undefined && k.startsWith(`${e.toolset}:`));
  }

  /** Adds the calls of one episode. */
  add(events: readonly SimEvent[]): void {
    const pending = new Map<string, string>();
    for (const e of events) {
      if (e.type === "tool.call") {
        const key = this.keyOf(e);
        if (key === undefined) continue;
        const d = this.declared.get(key) as Declared;
        this.seen.operations.add(key);
        pending.set(e.call.id, key);
        const args = parseArguments(e.call.arguments);
        if (!args.ok) continue;
        for (const [arg, value] of Object.entries(args.value)) {
          if (!d.args.includes(arg) || value === undefined || value === null) continue;
          this.seen.parameters.add(`${key}.${arg}`);
          const values = d.enums.get(arg);
          if (values?.some((v) => stableStringify(v) === stableStringify(value))) this.seen.enumValues.add(`${key}.${arg}=${stableStringify(value)}`);
        }
      } else if (e.type === "tool.result") {
        const key = pending.get(e.callId);
        if (key !== undefined && e.result.status >= 400) this.seen.errorResponses.add(`${key} ${e.result.status}`);
      }
    }
  }

  /** The coverage so far. */
  result(): SpecCoverage {
    const all = { operations: [] as string[], parameters: [] as string[], enumValues: [] as string[], errorResponses: [] as string[] };
    for (const [key, d] of this.declared) {
      all.operations.push(key);
      for (const a of d.args) all.parameters.push(`${key}.${a}`);
      for (const [a, values] of d.enums) for (const v of values) all.enumValues.push(`${key}.${a}=${stableStringify(v)}`);
      for (const s of d.errors) all.errorResponses.push(`${key} ${s}`);
    }
    const figure = (items: string[], seen: Set<string>): CoverageFigure => {
      const covered = items.filter((i) => seen.has(i)).length;
      return { covered, total: items.length, ratio: items.length === 0 ? 0 : covered / items.length, missing: items.filter((i) => !seen.has(i)).slice(0, 50) };
    };
    return {
      operations: figure(all.operations, this.seen.operations),
      parameters: figure(all.parameters, this.seen.parameters),
      enumValues: figure(all.enumValues, this.seen.enumValues),
      errorResponses: figure(all.errorResponses, this.seen.errorResponses),
    };
  }
}
