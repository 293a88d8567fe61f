import type { ToolResult } from "../../specs/call/tool-result.js";
import { isObject, type Json } from "../../specs/json-object.js";

/*
 * The text side of chat messages, without LangChain: what a tool message says, what a message's text is, and
 * how tool-call arguments travel. The offline assistant uses only this (an offline run never loads
 * @langchain/core); `dialogue-messages.ts` builds LangChain messages on top of it.
 */

/** The text a give-up answer starts with (the offline model writes it; LLM assistants are told to). */
export const GIVE_UP_PREFIX = "GIVE UP:";

/**
 * The argument key that carries tool-call arguments a model sent as unparseable JSON: LangChain tool calls
 * need an object, so `"{bad"` travels as `{__raw_arguments: "{bad"}` and comes back as the string.
 */
export const RAW_ARGUMENTS_KEY = "__raw_arguments";

/** How tool results are written into tool messages. */
export interface ToolResultTextOptions {
  /** Longest text of one tool message (default 4000 characters). */
  maxChars?: number;
  /** Most array items kept at any depth before a note says how many were left out (default 20). */
  maxItems?: number;
  /** Longest string value kept (default 500 characters). */
  maxString?: number;
}

interface Limits {
  items: number;
  chars: number;
  depth: number;
}

/** A copy of `value` with long arrays and strings cut; every cut is noted (path: what was left out). */
function prune(value: unknown, limits: Limits, path: string, notes: string[], depth = 0): unknown {
  if (typeof value === "string") {
    if (value.length <= limits.chars) return value;
    notes.push(`${path || "body"}: string cut to ${limits.chars} of ${value.length} characters`);
    return `${value.slice(0, limits.chars)}…`;
  }
  if (Array.isArray(value)) {
    if (depth >= limits.depth) {
      notes.push(`${path || "body"}: array of ${value.length} items left out (too deep)`);
      return [];
    }
    const kept = value.slice(0, limits.items).map((v, i) => prune(v, limits, `${path}[${i}]`, notes, depth + 1));
    if (value.length > limits.items) notes.push(`${path || "body"}: ${limits.items} of ${value.length} items shown`);
    return kept;
  }
  if (isObject(value)) {
    if (depth >= limits.depth) {
      notes.push(`${path || "body"}: object left out (too deep)`);
      return {};
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) out[k] = prune(v, limits, path ? `${path}.${k}` : k, notes, depth + 1);
    return out;
  }
  return value;
}

/**
 * The text of a tool message: compact JSON `{"status":..,"body":..}` plus request `errors` when the body does
 * not already list them. Long bodies are shortened so the text stays valid JSON, with a `truncated` note
 * saying what was left out; only as a last resort is the text cut, ending with a plain note.
 */
export function toolResultText(result: ToolResult, options: ToolResultTextOptions = {}): string {
  const maxChars = options.maxChars ?? 4000;
  const bodyLists = isObject(result.body) && Array.isArray(result.body["validation"]);
  const errors =
    result.errors.length > 0 && !bodyLists
      ? result.errors.map((e) => ({ location: e.location.join("."), code: e.code, message: e.message }))
      : undefined;
  const attempts: Limits[] = [
    { items: options.maxItems ?? 20, chars: options.maxString ?? 500, depth: 8 },
    { items: 10, chars: 200, depth: 6 },
    { items: 5, chars: 120, depth: 5 },
    { items: 3, chars: 80, depth: 4 },
    { items: 1, chars: 60, depth: 3 },
  ];
  let text = "";
  for (const limits of attempts) {
    const notes: string[] = [];
    const body = result.body === undefined ? null : prune(result.body, limits, "", notes);
    const payload: Json = { status: result.status, body };
    if (errors) payload["errors"] = errors;
    if (notes.length > 0) payload["truncated"] = notes.length > 6 ? [...notes.slice(0, 6), `and ${notes.length - 6} more cuts`] : notes;
    text = JSON.stringify(payload);
    if (text.length <= maxChars) return text;
  }
  const note = ` …(truncated: ${text.length} characters, only the first ${maxChars} shown)`;
  return text.slice(0, Math.max(0, maxChars - note.length)) + note;
}

/** The whole lengths of the lists a tool message shows in part, by path (`hours`; `` for a body that is a list), from its `truncated` notes. */
function listLengths(notes: unknown): Record<string, number> | undefined {
  if (!Array.isArray(notes)) return undefined;
  let out: Record<string, number> | undefined;
  for (const note of notes) {
    const m = typeof note === "string" ? /^(.+): \d+ of (\d+) items shown$/.exec(note) : null;
    if (m) (out ??= {})[m[1] === "body" ? "" : (m[1] as string)] = Number(m[2]);
  }
  return out;
}

/** The text of a message's content (string content, or the text blocks of block content). */
export function messageText(message: { readonly content: unknown }): string {
  const content: unknown = message.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((block: unknown) => {
        if (typeof block === "string") return block;
        if (isObject(block) && block["type"] === "text" && typeof block["text"] === "string") return block["text"];
        return "";
      })
      .join("");
  }
  return "";
}

/** Tool-call arguments as LangChain wants them (an object), keeping unparseable JSON under {@link RAW_ARGUMENTS_KEY}. */
export function argumentsObject(args: Record<string, unknown> | string): Record<string, unknown> {
  if (typeof args !== "string") return args;
  try {
    const parsed: unknown = JSON.parse(args);
    if (isObject(parsed)) return parsed;
  } catch {
    // fall through: keep the raw text
  }
  return { [RAW_ARGUMENTS_KEY]: args };
}

/** The inverse of {@link argumentsObject}: raw text comes back as the string it was. */
export function argumentsFromObject(args: Record<string, unknown>): Record<string, unknown> | string {
  const keys = Object.keys(args);
  const raw = args[RAW_ARGUMENTS_KEY];
  if (keys.length === 1 && typeof raw === "string") return raw;
  return args;
}

/** Reads `{"status":..,"body":..}` tool-message text back; a plain text body when it is not that JSON. */
export function parseToolResultText(text: string): { status: number; body: unknown; errors: unknown[]; lengths?: Record<string, number> } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed) && typeof parsed["status"] === "number") {
      const lengths = listLengths(parsed["truncated"]);
      return { status: parsed["status"], body: parsed["body"] ?? null, errors: Array.isArray(parsed["errors"]) ? parsed["errors"] : [], ...(lengths !== undefined ? { lengths } : {}) };
    }
  } catch {
    // not JSON (or cut): fall through
  }
  const status = /"status"\s*:\s*(\d{3})/.exec(text);
  return { status: status?.[1] !== undefined ? Number(status[1]) : 200, body: text, errors: [] };
}

