import type { ToolsetTask, ToolsetTaskCall } from "../toolset.js";
import { isObject } from "../../specs/json-object.js";

/*
 * ToolAlpaca's golden answers: per instruction, the steps `{Action, Action_Input}` of a reference solution.
 * `Action_Input` is JSON as the annotators wrote it, with placeholders for values that come from an earlier call
 * or from the user (`{"animeId": ${animeId from searchAnime}}`), the pseudo-action `getDetails` for a question
 * to the user, and `[Optional]` before an action the solution may skip.
 */

type Json = Record<string, unknown>;

/** ToolAlpaca's pseudo-action for asking the user (`{"Question": "..."}`). */
export const ASK_USER = "getDetails";
const OPTIONAL = /^\[optional\]\s*/i;
/** `${x from y}` with or without quotes around it; stops at a quote or comma, so `${a from b, "c": ...` (no closing brace) still reads. */
const PLACEHOLDER = /"?\$\{([^}",]*)\}?"?/g;
/** `"symbols": "symbols": [...]`: a key written twice. */
const DOUBLED_KEY = /"([^"\\]+)"\s*:\s*"\1"\s*:/g;

/** Whether an argument value is a placeholder of the source (`${animeId from searchAnime}`, `{start date}`), not a value. */
export function isPlaceholder(v: unknown): v is string {
  return typeof v === "string" && (/^\$\{[^}]*\}?$/.test(v.trim()) || /^\{[^{}":]+\}$/.test(v.trim()));
}

/** What a placeholder says its value comes from: `${animeId from searchAnime}` -> {name: "animeId", from: "searchAnime"}. */
export function placeholderSource(v: string): { name: string; from?: string } {
  const inner = v.trim().replace(/^\$?\{/, "").replace(/\}$/, "").trim();
  const m = /^(.*?)\s+(?:from|of)\s+([A-Za-z_][\w.-]*)\s*$/i.exec(inner);
  return m ? { name: (m[1] as string).trim(), from: m[2] as string } : { name: inner };
}

/**
 * Parses ToolAlpaca's `Action_Input`: JSON, or JSON with the placeholders its golden answers use for values taken
 * from earlier calls (`${animeId from searchAnime}`), kept as strings; a key written twice (`"k": "k": v`) is read
 * once. Undefined when it does not read as an object.
 */
export function parseActionInput(text: string): ToolsetTaskCall["arguments"] | undefined {
  const attempt = (t: string): Json | undefined => {
    try {
      const v: unknown = JSON.parse(t);
      return isObject(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  if (text.trim() === "") return {};
  const plain = attempt(text);
  if (plain) return plain;
  const undoubled = text.replace(DOUBLED_KEY, '"$1":');
  return attempt(undoubled) ?? attempt(undoubled.replace(PLACEHOLDER, (_m, inner: string) => JSON.stringify(`\${${inner.trim()}}`)));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The action of a golden step without the `[Optional]` mark, and whether it had one. */
export function actionName(action: string): { tool: string; optional: boolean } {
  const optional = OPTIONAL.exec(action);
  return { tool: optional ? action.slice(optional[0].length).trim() : action.trim(), optional: optional !== null };
}

/**
 * One task per instruction of a ToolAlpaca entry: the golden actions as calls (`getDetails` steps become the
 * task's `questions`, `[Optional]` actions optional calls; `raw` keeps an `Action_Input` that was not plain JSON).
 * `rename` maps a golden action name to the tool it calls (see `Function_Projection`).
 */
export function goldenTasks(entry: Json, source: string, rename: (action: string) => string = (a) => a): ToolsetTask[] {
  const instructions = Array.isArray(entry["Instructions"]) ? entry["Instructions"] : [];
  const golden = Array.isArray(entry["Golden_Answers"]) ? entry["Golden_Answers"] : [];
  const tasks: ToolsetTask[] = [];
  instructions.forEach((instruction, i) => {
    if (typeof instruction !== "string" || instruction.trim() === "") return;
    const steps = Array.isArray(golden[i]) ? (golden[i] as unknown[]) : [];
    const calls: ToolsetTaskCall[] = [];
    const questions: string[] = [];
    for (const step of steps) {
      if (!isObject(step) || typeof step["Action"] !== "string") continue;
      const raw = typeof step["Action_Input"] === "string" ? step["Action_Input"] : JSON.stringify(step["Action_Input"] ?? {});
      const args = parseActionInput(raw);
      const { tool, optional } = actionName(step["Action"]);
      if (tool === ASK_USER) {
        const question = args?.["Question"];
        if (typeof question === "string" && question.trim() !== "") questions.push(question.trim());
        continue;
      }
      const plain = isJson(raw) && args !== undefined;
      calls.push({ tool: rename(tool), arguments: args ?? {}, ...(plain ? {} : { raw }), ...(optional ? { optional: true } : {}) });
    }
    tasks.push({ instruction: instruction.trim(), ...(calls.length > 0 ? { calls } : {}), ...(questions.length > 0 ? { questions } : {}), source: `${source}#${i}` });
  });
  return tasks;
}
