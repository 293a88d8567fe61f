import { parse as parseYaml } from "yaml";
import { fail, ok, type Result } from "../../specs/result.js";
import { isObject, type Json } from "../../specs/json-object.js";

const FENCE = /```[ \t]*([\w+-]*)[ \t]*\r?\n([\s\S]*?)```/g;

function tryJson(text: string): Json | undefined {
  for (const candidate of [text, text.replace(/,\s*([}\]])/g, "$1").replace(/[\u201C\u201D]/g, '"')]) {
    try {
      const v: unknown = JSON.parse(candidate);
      if (isObject(v)) return v;
    } catch {
      // next form
    }
  }
  return undefined;
}

function tryYaml(text: string): Json | undefined {
  try {
    const v: unknown = parseYaml(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A model's text without a surrounding code fence or a leading `Label:` the prompt ended with. */
export function plainAnswer(text: string, label?: string): string {
  let t = text.trim();
  const fenced = /^```[\w+-]*\r?\n([\s\S]*?)\r?\n?```$/.exec(t);
  if (fenced?.[1] !== undefined) t = fenced[1].trim();
  if (label !== undefined) t = t.replace(new RegExp(`^${label}\\s*:\\s*`, "i"), "").trim();
  return t;
}

/**
 * The document in a model's answer: the first fenced block that is a JSON (or YAML) object, else the whole
 * text, else the span from the first `{` to the last `}`. Light repairs: trailing commas, smart quotes.
 */
export function documentFromAnswer(text: string): Result<Json, string> {
  const t = text.trim();
  if (t === "") return fail(["the answer is empty"]);
  for (const m of t.matchAll(FENCE)) {
    const body = (m[2] ?? "").trim();
    const v = tryJson(body) ?? (/^ya?ml$/i.test(m[1] ?? "") || !body.startsWith("{") ? tryYaml(body) : undefined);
    if (v) return ok(v);
  }
  const whole = tryJson(t);
  if (whole) return ok(whole);
  const start = t.indexOf("{");
  const end = t.lastIndexOf("}");
  if (start >= 0 && end > start) {
    const span = tryJson(t.slice(start, end + 1));
    if (span) return ok(span);
  }
  const shown = t.slice(0, 80).replace(/\s+/g, " ");
  return fail([`no JSON object could be read from the answer ("${shown}${t.length > 80 ? "..." : ""}")`]);
}
