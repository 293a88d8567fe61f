import { fromPointer, getAt, toPointer } from "../../specs/json-pointer.js";
import { parseFunctionDocs } from "../function-docs.js";
import { patternTest } from "../../specs/load/patterns/linear-pattern.js";
import { isObject, type Json } from "../../specs/json-object.js";

/*
 * ToolAlpaca's documentation says what values look like in prose — "The type of data feed (e.g., 'csv', 'json',
 * 'xml')", "The gender ('male', 'female')", "The start date (format: YYYY-MM-DD)" — in the spec's descriptions,
 * in its function documentation (Functions) and in its NLDocumentation, while the spec itself rarely has an
 * `example`. Without one, a simulated user invents filler values. This carries what the documentation says
 * into the spec: `example`/`examples` for the values it lists, `format` for the date formats it names, and a
 * description for arguments that have none in the spec but one in the function documentation. It never adds
 * an `enum` (that would change what validates) and never uses the golden answers (they are evaluation data).
 */

const QUOTED = /'([^']{1,60})'|"([^"]{1,60})"|‘([^’]{1,60})’|“([^”]{1,60})”/g;
const QUOTED_LIST = String.raw`(?:'[^']{1,60}'|"[^"]{1,60}"|‘[^’]{1,60}’|“[^”]{1,60}”)(?:\s*(?:,|\bor\b|\band\b|/)\s*(?:'[^']{1,60}'|"[^"]{1,60}"|‘[^’]{1,60}’|“[^”]{1,60}”))*`;
/** `(e.g., 'a', 'b', etc.)`, `(such as "a" or "b")`, `('a', 'b')`. */
const PAREN = new RegExp(String.raw`\(\s*(?:(?:e\.g\.|eg\.|i\.e\.|for example|for instance|such as|like|one of)\s*[,:]?\s*)?(${QUOTED_LIST})\s*(?:,?\s*(?:etc\.?|\.\.\.|…))?\s*\)`, "gi");
/** `e.g. 'a', 'b'` outside parentheses. */
const LEAD = new RegExp(String.raw`(?:e\.g\.|for example|for instance|such as)\s*[,:]?\s*(${QUOTED_LIST})`, "gi");
/** `(e.g. USD)`, `(e.g., EUR or GBP)`: unquoted values after e.g., short tokens only. */
const PAREN_BARE = /\(\s*(?:e\.g\.|eg\.|for example|for instance)\s*[,:]?\s*([^()'"]{1,80}?)\s*(?:,?\s*(?:etc\.?|\.\.\.|…))?\s*\)/gi;

/** The example values a description lists: quoted values after `e.g.` or in parentheses, else short unquoted ones after `e.g.`. */
export function documentedValues(text: string): string[] {
  const out: string[] = [];
  const add = (v: string): void => {
    const t = v.trim();
    if (t !== "" && !out.includes(t)) out.push(t);
  };
  for (const re of [PAREN, LEAD]) {
    for (const m of text.matchAll(re)) for (const q of (m[1] ?? "").matchAll(QUOTED)) add(q[1] ?? q[2] ?? q[3] ?? q[4] ?? "");
  }
  if (out.length > 0) return out;
  for (const m of text.matchAll(PAREN_BARE)) {
    const tokens = (m[1] ?? "").split(/\s*(?:,|\bor\b|\band\b|;)\s*/).map((t) => t.trim()).filter((t) => t !== "");
    // Values, not prose: short, at most two words each.
    if (tokens.length > 0 && tokens.every((t) => t.length <= 30 && t.split(/\s+/).length <= 2 && !/^(the|a|an)\b/i.test(t))) tokens.forEach(add);
  }
  return out;
}

/** The date format a description names: `YYYY-MM-DD` -> date, `YYYY-MM-DDTHH:MM:SS` or ISO 8601 with a time -> date-time. */
export function documentedFormat(text: string): "date" | "date-time" | undefined {
  if (/YYYY-MM-DD[T ]HH(:MM)?/i.test(text) || /ISO[ -]?8601 (date[- ]?time|timestamp)/i.test(text)) return "date-time";
  if (/YYYY-MM-DD/i.test(text)) return "date";
  return undefined;
}

function mainType(schema: Json): string | undefined {
  const t = schema["type"];
  if (typeof t === "string") return t;
  return Array.isArray(t) ? (t.find((x) => typeof x === "string" && x !== "null") as string | undefined) : undefined;
}

/** A documented value as the schema's type, or undefined when it does not fit (a number that is not one, a too-long text, a broken pattern). */
function coerce(value: string, schema: Json): unknown {
  const type = mainType(schema);
  if (type === "integer") return /^-?\d+$/.test(value) ? Number(value) : undefined;
  if (type === "number") return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : undefined;
  if (type !== undefined && type !== "string") return undefined;
  if (typeof schema["maxLength"] === "number" && value.length > schema["maxLength"]) return undefined;
  if (typeof schema["minLength"] === "number" && value.length < schema["minLength"]) return undefined;
  if (typeof schema["pattern"] === "string" && !patternTest(schema["pattern"], value)) return undefined;
  if (schema["format"] === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return value;
}

/** The node a local `$ref` points to (followed a few times), or the node itself. */
function deref(doc: Json, node: unknown): unknown {
  let current = node;
  for (let i = 0; i < 8 && isObject(current) && typeof current["$ref"] === "string"; i++) {
    const ref = current["$ref"];
    if (!ref.startsWith("#")) return current;
    current = getAt(doc, toPointer(fromPointer(ref)));
  }
  return current;
}

/** The `Input` texts of function documentation: function name -> argument -> text (without its `Required. String.` prefix). */
function inputTexts(...docs: ReadonlyArray<string | undefined>): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const text of docs) {
    if (text === undefined || text.trim() === "") continue;
    for (const fn of parseFunctionDocs(text)) {
      if (!fn.input) continue;
      const args = out.get(fn.name) ?? new Map<string, string[]>();
      for (const [arg, t] of Object.entries(fn.input)) args.set(arg, [...(args.get(arg) ?? []), t]);
      out.set(fn.name, args);
    }
  }
  return out;
}

/** An argument's documentation without the `Required. String.` / `string. One of: [...]` prefix. */
function argumentProse(text: string): string {
  return text
    .replace(/^\s*(required|optional)\.\s*/i, "")
    .replace(/^\s*(string|str|integer|int|number|float|double|boolean|bool|array|list|object|dict|any)(\[[^\]]*\])?\.\s*/i, "")
    .replace(/^\s*one of:\s*\[[^\]]*\]\.\s*/i, "")
    .trim();
}

/** One argument the carrying can act on: where its example and description go, and its schema. */
interface Target {
  /** The object that takes `example`/`examples` (a parameter, or the property schema). */
  holder: Json;
  /** Whether `holder` is a parameter (takes an `examples` map) or a schema (takes one `example`). */
  parameter: boolean;
  schema: Json;
  texts: string[];
}

function hasExample(t: Target): boolean {
  return t.holder["example"] !== undefined || t.holder["examples"] !== undefined || t.schema["example"] !== undefined || t.schema["examples"] !== undefined;
}

/**
 * Carries the examples, date formats and argument descriptions that ToolAlpaca's documentation gives into an
 * OpenAPI document (in place), matching arguments by operationId and name across the spec's own descriptions,
 * the function documentation and the NLDocumentation. Returns what was added, one line per argument.
 */
export function carryDocumentedExamples(doc: Json, ...functionDocs: ReadonlyArray<string | undefined>): string[] {
  const texts = inputTexts(...functionDocs);
  const notes: string[] = [];
  const paths = isObject(doc["paths"]) ? doc["paths"] : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const [method, opNode] of Object.entries(item)) {
      if (!/^(get|put|post|delete|patch|head|options|trace)$/.test(method) || !isObject(opNode)) continue;
      const opId = typeof opNode["operationId"] === "string" ? opNode["operationId"] : undefined;
      const docsOf = (name: string): string[] => (opId !== undefined ? (texts.get(opId)?.get(name) ?? []) : []);
      const targets: Array<[string, Target]> = [];
      const params = [...(Array.isArray(item["parameters"]) ? item["parameters"] : []), ...(Array.isArray(opNode["parameters"]) ? opNode["parameters"] : [])];
      for (const p of params) {
        const param = deref(doc, p);
        if (!isObject(param) || typeof param["name"] !== "string") continue;
        const schema = deref(doc, param["schema"]);
        if (!isObject(schema)) continue;
        const own = [param["description"], schema["description"]].filter((d): d is string => typeof d === "string");
        targets.push([param["name"], { holder: param, parameter: true, schema, texts: [...own, ...docsOf(param["name"])] }]);
      }
      const body = isObject(opNode["requestBody"]) ? deref(doc, opNode["requestBody"]) : undefined;
      const content = isObject(body) && isObject(body["content"]) ? body["content"] : {};
      const media = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
      const bodySchema = isObject(media) ? deref(doc, media["schema"]) : undefined;
      const props = isObject(bodySchema) && isObject(bodySchema["properties"]) ? bodySchema["properties"] : {};
      for (const [name, p] of Object.entries(props)) {
        const schema = deref(doc, p);
        if (!isObject(schema)) continue;
        const own = typeof schema["description"] === "string" ? [schema["description"]] : [];
        targets.push([name, { holder: schema, parameter: false, schema, texts: [...own, ...docsOf(name)] }]);
      }
      for (const [name, t] of targets) {
        const added: string[] = [];
        const prose = t.texts.map(argumentProse).filter((x) => x !== "");
        if (typeof t.holder["description"] !== "string" && typeof t.schema["description"] !== "string" && prose[0] !== undefined) {
          t.holder["description"] = prose[0];
          added.push("description");
        }
        const type = mainType(t.schema);
        if ((type === "string" || type === undefined) && t.schema["format"] === undefined && t.schema["enum"] === undefined) {
          const format = prose.map(documentedFormat).find((f) => f !== undefined);
          if (format !== undefined) {
            t.schema["format"] = format;
            added.push(`format ${format}`);
          }
        }
        if (!hasExample(t) && t.schema["enum"] === undefined) {
          const itemSchema = type === "array" ? deref(doc, t.schema["items"]) : undefined;
          const listed = prose.map(documentedValues).find((v) => v.length > 0) ?? [];
          const values = listed.map((v) => coerce(v, isObject(itemSchema) ? itemSchema : t.schema)).filter((v) => v !== undefined);
          if (values.length > 0) {
            // A parameter takes several examples (an `examples` map); a schema of OpenAPI 3.0 takes one.
            const examples: unknown[] = type === "array" ? [values] : t.parameter ? values : values.slice(0, 1);
            if (examples.length > 1) t.holder["examples"] = Object.fromEntries(examples.map((v, i) => [`documented${i + 1}`, { summary: "from the documentation", value: v }]));
            else t.holder["example"] = examples[0];
            added.push(`example${examples.length > 1 ? "s" : ""} ${examples.map((v) => JSON.stringify(v)).join(", ")}`);
          }
        }
        if (added.length > 0) notes.push(`${opId ?? method}.${name}: ${added.join("; ")}`);
      }
    }
  }
  return notes;
}
