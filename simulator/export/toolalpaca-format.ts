import type { AgentTool } from "../../agents/roles/roles.js";
import { Toolbox } from "../../agents/roles/toolbox.js";
import { bodyText, giveUpText, type ConversationTurn } from "./conversation.js";
import { lineMeta, type EpisodeFormat, type ExportEpisode, type ResolvedExportOptions } from "./export-format.js";
import { isObject } from "../../specs/json-object.js";

/** The action ToolAlpaca's assistant uses to ask the user (its `getDetails` tool). */
export const GET_DETAILS = "getDetails";

/** One step of a ToolAlpaca instance: `[[action, action input, log], observation]`. */
export type ToolAlpacaStep = [[string, string, string], string];

/** One ToolAlpaca instance: a request, the steps taken for it, and the answer. */
export interface ToolAlpacaInstance {
  input: string;
  output: string;
  "Final Thought"?: string;
  intermediate_steps: ToolAlpacaStep[];
}

/** JSON written as Python's `json.dumps` writes it (`", "` and `": "` separators), as ToolAlpaca's data has it. */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : pythonJson(v))).join(", ")}]`;
  const parts = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`);
  return `{${parts.join(", ")}}`;
}

/** A tool's documentation as ToolAlpaca writes it: the description, then `Parameters: {"p": "Required. type. text"}`. */
export function toolAlpacaFunctionDescription(tool: AgentTool): string {
  const props = isObject(tool.parameters["properties"]) ? tool.parameters["properties"] : {};
  const required = Array.isArray(tool.parameters["required"]) ? tool.parameters["required"] : [];
  const params: Record<string, string> = {};
  for (const [name, schema] of Object.entries(props)) {
    const s = isObject(schema) ? schema : {};
    const parts = [required.includes(name) ? "Required" : "", typeof s["type"] === "string" ? s["type"] : ""];
    if (Array.isArray(s["enum"])) parts.push(`One of: [${s["enum"].map(String).join(", ")}]`);
    if (typeof s["description"] === "string") parts.push(s["description"]);
    params[name] = parts.filter((p) => p !== "").join(". ");
  }
  return `${tool.description}\nParameters: ${pythonJson(params)}`;
}

/** ToolAlpaca's observation text: `Status Code: 200. Response: {...}`. */
export function toolAlpacaObservation(status: number | undefined, body: unknown): string {
  return `Status Code: ${status ?? 200}. Response: ${bodyText(body ?? null)}`;
}

/** The log of a step as ToolAlpaca's agent wrote it: ` thought\nAction: name\nAction Input: {...}`. */
function stepLog(thought: string, action: string, input: string): string {
  return ` ${thought}\nAction: ${action}\nAction Input: ${input}`;
}

/**
 * The instances of an episode, one per request: its instruction as `input`, every call as a step (parallel
 * calls one after another, the thought on the first), questions as `getDetails` steps whose observation is the
 * user's reply, the final answer as `output` with its thought as `Final Thought`.
 */
export function toolAlpacaInstances(turns: readonly ConversationTurn[], thoughts: boolean): ToolAlpacaInstance[] {
  const out: ToolAlpacaInstance[] = [];
  let current: ToolAlpacaInstance | undefined;
  let pendingQuestion: ToolAlpacaStep | undefined;
  for (const t of turns) {
    const thought = thoughts ? (("thought" in t ? t.thought : undefined) ?? "") : "";
    switch (t.kind) {
      case "instruction":
        current = { input: t.text, output: "", intermediate_steps: [] };
        out.push(current);
        pendingQuestion = undefined;
        break;
      case "reply":
        if (pendingQuestion) pendingQuestion[1] = t.text;
        pendingQuestion = undefined;
        break;
      case "calls":
        t.calls.forEach((c, i) => {
          const input = typeof c.arguments === "string" ? c.arguments : pythonJson(c.arguments);
          current?.intermediate_steps.push([[c.name, input, stepLog(i === 0 ? thought : "", c.name, input)], c.result ? toolAlpacaObservation(c.result.status, c.result.body) : ""]);
        });
        break;
      case "question": {
        const input = pythonJson({ Question: t.text });
        pendingQuestion = [[GET_DETAILS, input, stepLog(thought, GET_DETAILS, input)], ""];
        current?.intermediate_steps.push(pendingQuestion);
        break;
      }
      case "final":
      case "give-up":
        if (current) {
          current.output = t.kind === "give-up" ? giveUpText(t.text) : t.text;
          if (thought !== "") current["Final Thought"] = thought;
        }
        break;
    }
  }
  return out;
}

/**
 * ToolAlpaca's instance format, one line per episode: the toolset's documentation as ToolAlpaca's data holds
 * it (Name, Description, Category, Introduction, Functions, Documentation = the OpenAPI document as a JSON
 * string, Function_Description, Function_Projection) with the episode's `Instances` (see
 * {@link toolAlpacaInstances}). An episode over several toolsets joins their texts, and its Documentation is a
 * JSON list of their documents.
 */
export const toolAlpacaFormat: EpisodeFormat = {
  name: "toolalpaca",
  lines(episode: ExportEpisode, options: ResolvedExportOptions) {
    const toolsets = episode.toolsets;
    const join = (pick: (t: (typeof toolsets)[number]) => string | undefined, sep: string): string =>
      toolsets
        .map(pick)
        .filter((x): x is string => x !== undefined && x !== "")
        .join(sep);
    const functionDescription: Record<string, string> = {};
    for (const tool of episode.tools) functionDescription[tool.name] = toolAlpacaFunctionDescription(tool);
    functionDescription["components"] = "";
    const projection: Record<string, [string, string]> = {};
    // ToolAlpaca's `Authentication`: the key arguments the agent is given (masked, as the dataset writes them).
    const authentication: Record<string, string> = {};
    if (toolsets.length > 0) {
      for (const e of Toolbox.for(toolsets).entries) {
        projection[e.name] = [e.tool.operation.path, e.tool.operation.method];
        for (const arg of Object.keys(e.credentials ?? {})) authentication[arg] = "***";
      }
    }
    const docs = episode.documents;
    return [
      {
        Name: toolsets.length > 0 ? join((t) => t.title, " + ") : episode.record.toolsets.join(" + "),
        Description: join((t) => t.description.trim(), "\n"),
        Link: join((t) => t.link, " "),
        Category: join((t) => t.category, ", "),
        ...(Object.keys(authentication).length > 0 ? { Authentication: authentication } : {}),
        Introduction: join((t) => t.introduction.trim(), "\n"),
        Functions: episode.scrub(join((t) => t.functions.trim(), "\n\n")),
        Documentation: episode.scrub(JSON.stringify(docs.length === 1 ? docs[0] : docs)),
        Function_Description: functionDescription,
        Function_Projection: projection,
        Instances: toolAlpacaInstances(episode.turns, options.thoughts),
        ...(options.meta ? { meta: lineMeta(episode.record) } : {}),
      },
    ];
  },
};
