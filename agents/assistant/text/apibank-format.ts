import type { BaseMessage } from "@langchain/core/messages";
import { fail, ok, type Result } from "../../../specs/result.js";
import type { DialogueMessage } from "../../roles/dialogue.js";
import { GIVE_UP_PREFIX } from "../dialogue-messages.js";
import { LenientReader, near } from "../../parse/lenient-json.js";
import type { AgentTool } from "../../roles/roles.js";
import {
  classifyText,
  excerpt,
  lineOf,
  resolveToolName,
  summarizeErrors,
  type FormatError,
  type ParsedCall,
  type RenderOptions,
  type TextDecision,
  type TextProtocol,
  renderTextDialogue,
} from "./text-protocol.js";
import { isObject, type Json } from "../../../specs/json-object.js";

/*
 * API-Bank's call format (Li et al. 2023, appendix figures 4-8): the model writes
 *     API-Request: [ApiName(key1='value1', key2=2)]
 * and the result comes back as an observation. Values are Python-like literals: quoted strings with
 * escapes, numbers, True/False/None, lists, tuples and dicts, nested. The reader forgives what models do
 * with it: markdown around the marker (`**API-Request:**`, `### API-Request:`), code fences, a missing
 * marker (a bare `[ApiName(...)]`, as in the seed's figure 8), missing brackets, markdown-escaped names
 * (`verification\_code`), `:` for `=`, unquoted words, JSON values, several calls in one list, positional
 * values for a known tool, and observations the model made up after its request (dropped).
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A value written as API-Bank writes it: `'text'`, `3`, `True`, `None`, `['a', 'b']`, `{'k': 'v'}`. */
export function renderApiBankValue(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "None";
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}'`;
  if (Array.isArray(value)) return `[${value.map(renderApiBankValue).join(", ")}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${renderApiBankValue(k)}: ${renderApiBankValue(v)}`).join(", ")}}`;
  return renderApiBankValue(String(value));
}

/** One call in API-Bank's format: `[ApiName(key1='value1', key2=2)]`. */
export function renderApiBankCall(name: string, args: Record<string, unknown> | string): string {
  if (typeof args === "string") return `[${name}(${args})]`;
  const parts = Object.entries(args).map(([k, v]) => `${IDENTIFIER.test(k) ? k : renderApiBankValue(k)}=${renderApiBankValue(v)}`);
  return `[${name}(${parts.join(", ")})]`;
}

/** API-Bank's type names for JSON Schema types (`str`, `int`, `float`, `bool`, `list`, `dict`). */
function apiBankType(schema: unknown): string {
  if (!isObject(schema)) return "any";
  const t = schema["type"];
  const one = Array.isArray(t) ? t.find((x) => x !== "null") : t;
  switch (one) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "array":
      return `list[${apiBankType(schema["items"])}]`;
    case "object":
      return "dict";
    default:
      if (Array.isArray(schema["enum"])) return "str";
      return "any";
  }
}

/**
 * A tool described as API-Bank describes APIs: `{name, description, input_parameters: {p: {type,
 * description}}}`, plus `required`, `enum`, `format` and `example` where the schema has them (API-Bank leaves
 * required parameters to the prose; saying so spares a question round).
 */
export function apiBankDescription(tool: AgentTool): Json {
  const props = isObject(tool.parameters["properties"]) ? tool.parameters["properties"] : {};
  const required = Array.isArray(tool.parameters["required"]) ? tool.parameters["required"] : [];
  const input: Json = {};
  for (const [name, schema] of Object.entries(props)) {
    const s = isObject(schema) ? schema : {};
    const entry: Json = { type: apiBankType(s) };
    if (typeof s["description"] === "string" && s["description"] !== "") entry["description"] = s["description"];
    if (required.includes(name)) entry["required"] = true;
    if (Array.isArray(s["enum"])) entry["enum"] = s["enum"];
    if (typeof s["format"] === "string") entry["format"] = s["format"];
    if (s["example"] !== undefined) entry["example"] = s["example"];
    else if (s["default"] !== undefined) entry["default"] = s["default"];
    input[name] = entry;
  }
  return { name: tool.name, description: tool.description, input_parameters: input };
}

/**
 * The system prompt of the API-Bank format. Our wording after API-Bank's call prompt (figure 4) and its
 * planning prompt (figure 8: "stop generating and wait"), improved: it says how to ask, answer and give up,
 * that values come from the dialogue or earlier results, and how several calls are written.
 */
export function apiBankSystemPrompt(tools: readonly AgentTool[]): string {
  return [
    "You are an AI assistant that completes the user's requests by calling APIs.",
    "To call an API, write one line in exactly this form and then stop writing:",
    "API-Request: [ApiName(key1='value1', key2=2)]",
    "- Name every parameter (key='value'); quote strings; write numbers, True/False and lists ['a', 'b'] as they are.",
    "- Take values from the dialogue or from earlier results (for example an id returned by a search); never invent them.",
    "- Independent calls may go in one list: API-Request: [ApiA(x='1'), ApiB(y=2)].",
    "- The result comes back to you as \"Observation: ...\"; then call the next API or answer.",
    "- If a required value is missing, ask the user one short question instead (plain text ending with a question mark, no API-Request).",
    "- When you have what you need, answer the user in plain text (no API-Request), using the values from the results.",
    `- If the request cannot be done with these APIs, answer with a line starting with "${GIVE_UP_PREFIX}" and the reason.`,
    "",
    "API descriptions:",
    ...tools.map((t) => JSON.stringify(apiBankDescription(t))),
  ].join("\n");
}

/** An assistant turn as API-Bank text: a reasoning line (when there is one) and the `API-Request:` line. */
export function renderApiBankTurn(message: Extract<DialogueMessage, { role: "assistant" }>): string {
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return message.content;
  const request = calls.length === 1 ? renderApiBankCall(calls[0]!.name, calls[0]!.arguments) : `[${calls.map((c) => renderApiBankCall(c.name, c.arguments).slice(1, -1)).join(", ")}]`;
  const lead = message.thought ?? (message.content !== "" ? message.content : undefined);
  return `${lead !== undefined && lead.trim() !== "" ? `${lead.trim()}\n` : ""}API-Request: ${request}`;
}

/** The dialogue as chat messages for the API-Bank format: results come back as `Observation:` user messages. */
export function renderApiBankDialogue(dialogue: readonly DialogueMessage[], options: RenderOptions = {}): BaseMessage[] {
  return renderTextDialogue(dialogue, renderApiBankTurn, { ...(options.toolResult ? { toolResult: options.toolResult } : {}), numbered: false });
}

// ---------------------------------------------------------------------------------------------- parsing

/** Options of {@link parseApiBank} and {@link parseCallArguments}. */
export interface ApiBankParseOptions {
  /** The tools offered: names are resolved against them and positional values mapped to their parameters. */
  tools?: readonly AgentTool[];
}

/** Arguments read from `key='value', ...`, with what was forgiven. */
export interface ParsedArguments {
  arguments: Json;
  notes: string[];
}

/** Reads `name(` ... `)` at the reader's position; the reader ends after `)`. */
function readCall(reader: LenientReader, tools: readonly AgentTool[] | undefined, notes: string[]): { name: string; args: Json; start: number } {
  reader.skipSpace();
  const start = reader.pos;
  let name = "";
  while (!reader.atEnd()) {
    const ch = reader.peek();
    if (ch === "\\" && reader.text[reader.pos + 1] === "_") {
      name += "_";
      reader.pos += 2;
      continue;
    }
    if (!/[\w.\-]/.test(ch)) break;
    name += ch;
    reader.pos++;
  }
  if (name === "") reader.fail(`expected an API name, ${near(reader.text, start)}`);
  reader.skipSpace();
  if (reader.peek() !== "(") reader.fail(`expected '(' after the API name ${JSON.stringify(name)}, ${near(reader.text, reader.pos)}`);
  reader.pos++;
  const tool = tools?.find((t) => t.name === (resolveToolName(name, tools ?? []) ?? name));
  const args = readArguments(reader, name, tool, notes);
  return { name, args, start };
}

/** Reads arguments up to and including the closing `)`. */
function readArguments(reader: LenientReader, name: string, tool: AgentTool | undefined, notes: string[]): Json {
  const out: Json = {};
  const positional: unknown[] = [];
  const openAt = reader.pos - 1;
  for (;;) {
    reader.skipSpace();
    if (reader.atEnd()) {
      if (reader.text.slice(openAt).trim().length > 1 && !/,\s*$/.test(reader.text)) {
        notes.push(`added the missing ')' of ${name}`);
        break;
      }
      reader.fail(`the call to ${name} is not closed: expected ')'`, openAt);
    }
    const c = reader.peek();
    if (c === ")") {
      reader.pos++;
      break;
    }
    if (c === ",") {
      reader.pos++;
      continue;
    }
    if (c === "]" || c === "}") reader.fail(`expected ')' to close the call to ${name} but found '${c}'`);
    // key= or key: ?
    const save = reader.pos;
    let key: string | undefined;
    if (/[A-Za-z_"'\\]/.test(c)) {
      try {
        const k = reader.key();
        reader.skipSpace();
        const sep = reader.peek();
        if ((sep === "=" && reader.text[reader.pos + 1] !== "=") || sep === ":") {
          reader.pos++;
          if (sep === ":") notes.push("read ':' as '=' between a name and its value");
          key = k;
        }
      } catch {
        // not a key: a positional value
      }
      if (key === undefined) reader.pos = save;
    }
    const value = reader.value(",)");
    if (key !== undefined) {
      if (Object.hasOwn(out, key)) notes.push(`kept the last of two values for ${key}`);
      out[key] = value;
    } else positional.push(value);
    reader.skipSpace();
    const after = reader.peek();
    if (after !== "," && after !== ")" && after !== "") reader.fail(`expected ',' or ')' after ${key !== undefined ? `the value of ${key}` : "a value"} in the call to ${name}, ${near(reader.text, reader.pos)}`);
  }
  if (positional.length > 0) {
    const props = tool && isObject(tool.parameters["properties"]) ? Object.keys(tool.parameters["properties"]) : [];
    const free = props.filter((p) => !Object.hasOwn(out, p));
    if (!tool || positional.length > free.length) {
      const first = positional[0];
      reader.fail(
        `the value ${renderApiBankValue(first)} in the call to ${name} has no parameter name: write key=value${props.length > 0 ? ` (parameters: ${props.join(", ")})` : ""}`,
        openAt,
      );
    }
    positional.forEach((v, i) => {
      out[free[i]!] = v;
    });
    notes.push(`named ${positional.length} positional value${positional.length > 1 ? "s" : ""} of ${name} in parameter order`);
  }
  return out;
}

/**
 * Reads the inside of an argument list (`key='value', n=3`, without the parentheses) for a tool; used by the
 * ReAct reader for actions written as calls (`Action: getWeather(city='Paris')`).
 */
export function parseCallArguments(text: string, tool?: AgentTool): Result<ParsedArguments, FormatError> {
  const reader = new LenientReader(`${text})`);
  const notes: string[] = [];
  const read = reader.attempt(() => {
    const args = readArguments(reader, tool?.name ?? "the call", tool, notes);
    reader.skipSpace();
    if (!reader.atEnd()) reader.fail(`unexpected text after the arguments, ${near(reader.text, reader.pos)}`);
    return args;
  });
  if (!read.ok) return fail(read.errors.map((e) => ({ code: "bad-request" as const, message: e.message, line: e.line, excerpt: excerpt(text) })));
  return ok({ arguments: read.value, notes: [...notes, ...reader.repairs.filter((r) => !isNormalApiBank(r))] });
}

/** Reader repairs that are plain API-Bank syntax (Python literals), not forgiveness. */
function isNormalApiBank(repair: string): boolean {
  return repair === "quoted unquoted keys" || repair === "read single-quoted strings" || repair === "read a tuple as a list" || /^read (?:True|False|None) as /.test(repair);
}

const MARKER = /(?<![\w-])(?:#{1,6}[ \t]*)?(?:\*\*|__)?API[-_ ]?Request(?:\*\*|__)?\s*:(?:\*\*|__)?/gi;
const BRACKET_CALL = /\[\s*[A-Za-z_][\w.\-\\]*\s*\(/g;
const MADE_UP = /^[ \t>*#]*(?:\*\*)?(?:Observation|API|Result|Response from API)(?:\*\*)?\s*:/im;

interface Span {
  start: number;
  end: number;
}

/** The calls of one `[A(...), B(...)]` list (brackets optional) starting at `at`; returns them with the span. */
function readCallList(text: string, at: number, tools: readonly AgentTool[] | undefined, notes: string[]): Result<{ calls: ParsedCall[]; span: Span }, FormatError> {
  const reader = new LenientReader(text);
  reader.pos = at;
  const read = reader.attempt(() => {
    reader.skipSpace();
    const fence = /^(`{3,})[\w-]*[^\S\n]*\n?/.exec(text.slice(reader.pos));
    let fenced = false;
    if (fence) {
      reader.pos += fence[0].length;
      fenced = true;
    } else if (reader.peek() === "`") {
      reader.pos++;
    }
    reader.skipSpace();
    const bracketed = reader.peek() === "[";
    if (bracketed) reader.pos++;
    else if (reader.atEnd() || !/[A-Za-z_]/.test(reader.peek())) reader.fail(`expected a call like [ApiName(key='value')], ${near(text, reader.pos)}`);
    else notes.push("read a call written without brackets");
    const calls: ParsedCall[] = [];
    for (;;) {
      reader.skipSpace();
      if (bracketed && reader.peek() === "]") {
        reader.pos++;
        break;
      }
      if (reader.peek() === ",") {
        reader.pos++;
        continue;
      }
      if (reader.atEnd()) {
        if (bracketed && calls.length > 0) notes.push("added the missing ']'");
        break;
      }
      if (calls.length > 0 && !/[A-Za-z_]/.test(reader.peek())) {
        if (bracketed) reader.fail(`expected ']' after the call to ${calls[calls.length - 1]?.name}, ${near(text, reader.pos)}`);
        break;
      }
      if (calls.length > 0 && !bracketed) break;
      if (calls.length > 0 && reader.text[reader.pos - 1] !== "," && !/,\s*$/.test(reader.text.slice(0, reader.pos))) notes.push("added missing commas between calls");
      const callStart = reader.pos;
      const c = readCall(reader, tools, notes);
      const resolved = tools ? resolveToolName(c.name, tools) : undefined;
      if (resolved !== undefined && resolved !== c.name) notes.push(`read API name ${c.name} as ${resolved}`);
      calls.push({ name: resolved ?? c.name, arguments: c.args, raw: text.slice(callStart, reader.pos) });
    }
    reader.skipSpace();
    if (fenced && text.startsWith("```", reader.pos)) reader.pos += 3;
    else if (reader.peek() === "`") reader.pos++;
    return calls;
  });
  if (!read.ok) {
    return fail(read.errors.map((e) => ({ code: "bad-request" as const, message: e.message, line: e.line, excerpt: excerpt(text.slice(at, at + 80)) })));
  }
  notes.push(...reader.repairs.filter((r) => !notes.includes(r) && !isNormalApiBank(r)));
  return ok({ calls: read.value, span: { start: at, end: reader.pos } });
}

/**
 * Finds and reads every API request in a model's answer: `API-Request:` lines (markdown and fences allowed)
 * or, without the marker, bracketed calls `[ApiName(...)]`. Requests after a made-up `Observation:` are
 * dropped. Returns the calls and the spans they occupy.
 */
export function parseApiBankCalls(text: string, options: ApiBankParseOptions = {}): Result<{ calls: ParsedCall[]; spans: Span[]; notes: string[]; cut: number }, FormatError> {
  const notes: string[] = [];
  const calls: ParsedCall[] = [];
  const spans: Span[] = [];
  const errors: FormatError[] = [];
  let cut = text.length;
  const markers = [...text.matchAll(MARKER)];
  const starts: Array<{ label: Span | undefined; at: number }> =
    markers.length > 0
      ? markers.map((m) => ({ label: { start: m.index, end: m.index + m[0].length }, at: m.index + m[0].length }))
      : [...text.matchAll(BRACKET_CALL)].map((m) => ({ label: undefined, at: m.index }));
  for (const s of starts) {
    const prevEnd = spans[spans.length - 1]?.end ?? 0;
    if (s.at < prevEnd) continue;
    if (spans.length > 0 && MADE_UP.test(text.slice(prevEnd, s.label?.start ?? s.at))) break;
    if (s.label && text.slice(s.at).replace(/`/g, "").trim() === "") {
      errors.push({ code: "empty-request", message: "\"API-Request:\" is not followed by a call like [ApiName(key='value')]", line: lineOf(text, s.label.start) });
      spans.push({ start: s.label.start, end: text.length });
      continue;
    }
    const read = readCallList(text, s.at, options.tools, notes);
    if (!read.ok) {
      errors.push(...read.errors);
      spans.push({ start: s.label?.start ?? s.at, end: s.at });
      continue;
    }
    if (read.value.calls.length === 0) {
      errors.push({ code: "empty-request", message: "the API request holds no call: write [ApiName(key='value')]", line: lineOf(text, s.at) });
      spans.push({ start: s.label?.start ?? s.at, end: read.value.span.end });
      continue;
    }
    calls.push(...read.value.calls);
    spans.push({ start: s.label?.start ?? s.at, end: read.value.span.end });
  }
  const last = spans[spans.length - 1]?.end;
  if (last !== undefined && calls.length > 0) {
    const madeUp = MADE_UP.exec(text.slice(last));
    if (madeUp) {
      cut = last + madeUp.index;
      notes.push("ignored a made-up observation and everything after it");
    }
  }
  if (errors.length > 0) return fail(errors);
  return ok({ calls, spans, notes, cut });
}

const LEADS = /^[ \t>*#_-]*(?:\*\*|__)?(?:Response|AI|Assistant|Thought|Answer|Final Answer|ChatGPT)(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*/gim;

/** The free text of an answer (requests removed, role labels and fences stripped). */
function freeText(text: string, spans: readonly Span[], cut: number): string {
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start);
    at = s.end;
  }
  out += text.slice(at, Math.max(at, cut));
  return out
    .replace(/^[ \t]*(`{3,}|~{3,})[\w-]*[ \t]*$/gm, "")
    .replace(/^[ \t]*[#*_-]+[ \t]*$/gm, "")
    .replace(LEADS, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Reads one model answer in the API-Bank format: requests become calls (their surrounding text the thought);
 * without a request, the text is the answer, a question (ends with "?") or a give-up (`GIVE UP: ...`).
 * Errors are precise: which request, which line, what was expected.
 */
export function parseApiBank(text: string, options: ApiBankParseOptions = {}): Result<TextDecision, FormatError> {
  if (text.trim() === "") return fail([{ code: "empty", message: "the answer is empty" }]);
  const read = parseApiBankCalls(text, options);
  if (!read.ok) return read;
  const { calls, spans, notes, cut } = read.value;
  const free = freeText(text, spans, cut);
  if (calls.length > 0) return ok({ kind: "calls", ...(free !== "" ? { thought: free } : {}), calls, notes });
  if (free === "") return fail([{ code: "empty", message: "the answer holds neither an API request nor text for the user" }]);
  return ok(classifyText(free, undefined, notes));
}

/** The re-prompt after an unreadable API-Bank answer: what was wrong and the expected form. */
export function apiBankFeedback(errors: readonly FormatError[], tools: readonly AgentTool[]): string {
  return [
    `Your last answer could not be read: ${summarizeErrors(errors)}.`,
    "Answer again. To call an API write exactly one line: API-Request: [ApiName(key1='value1', key2=2)]",
    `Use only these APIs: ${tools.map((t) => t.name).join(", ") || "(none)"}. Or answer the user in plain text without an API-Request.`,
  ].join("\n");
}

/** API-Bank's `[ApiName(key='value')]` format as a text protocol. */
export const apiBankProtocol: TextProtocol = {
  name: "apibank",
  systemPrompt: apiBankSystemPrompt,
  render: renderApiBankDialogue,
  parse: (text, tools) => parseApiBank(text, { tools }),
  feedback: apiBankFeedback,
  stop: ["\nObservation:"],
};
