import { parseSpecText } from "../../specs/load/parse-spec-text.js";
import { fail, ok, type Result } from "../../specs/result.js";
import { isObject, type Json } from "../../specs/json-object.js";

const FENCE = /```[ \t]*([\w+-]*)[ \t]*\r?\n([\s\S]*?)```/g;

/**
 * An object read from a candidate text: as JSON, else as YAML (which also reads JSON with trailing commas), by the
 * spec loader's own parser: a model's document is a spec text, not a new dialect of JSON.
 */
function tryJson(text: string): Json | undefined {
  for (const syntax of ["json", "yaml"] as const) {
    const parsed = parseSpecText(text, "answer", syntax);
    if (parsed.ok && isObject(parsed.value)) return parsed.value;
  }
  return undefined;
}

function tryYaml(text: string): Json | undefined {
  const parsed = parseSpecText(text, "answer", "yaml");
  return parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
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
 * text, else the span from the first `{` to the last `}`; JSON, else YAML (trailing commas read).
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
