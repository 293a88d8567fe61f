import { redactSchemaSecrets, secretValues } from "../../specs/redact-secrets.js";
import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { AIMessage, type BaseMessage, type InvalidToolCall } from "@langchain/core/messages";
import { convertToOpenAITool, isLangChainTool } from "@langchain/core/utils/function_calling";
import { redactSecretsDeep } from "../../specs/secret-redaction.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { truncatePartialLine } from "../parse/partial-line.js";
import { isObject, type Json } from "../../specs/json-object.js";

/*
 * Cassettes: every LLM call of a run as one line of `cassette.jsonl`, so a run can be replayed with no
 * endpoint. A line is `{key, episodeId?, occurrence, role, model, request, response, usage}`:
 *   - `key` hashes the normalized request (model, messages, tools, tool_choice, temperature, max tokens,
 *     response format, stop words), never the API key or the base URL, so a cassette recorded against one
 *     endpoint replays against any other, or none;
 *   - `occurrence` counts earlier calls with the same key in the same episode (0 first), so a model asked the
 *     same thing twice (a retry with the same prompt, k judge votes) replays its answers in order;
 *   - request and response are scrubbed of secrets before they are written (see {@link redactSecretsDeep}).
 */

/** Token counts of one call. */
export interface CassetteUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A message as it enters the cache key and the cassette (OpenAI roles; no ids that vary between runs). */
export interface NormalizedMessage {
  role: string;
  content: unknown;
  name?: string;
  tool_calls?: Array<{ id?: string; name: string; args: unknown }>;
  invalid_tool_calls?: Array<{ id?: string; name?: string; args?: string }>;
  tool_call_id?: string;
}

/** A tool as it enters the cache key (OpenAI function form). */
export interface NormalizedTool {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** Everything that decides a model's answer, and nothing that only decides where it is asked. */
export interface NormalizedRequest {
  model: string;
  messages: NormalizedMessage[];
  tools?: NormalizedTool[];
  tool_choice?: unknown;
  temperature?: number;
  maxTokens?: number;
  response_format?: unknown;
  stop?: string[];
}

/** A model answer as stored: what {@link messageFromResponse} rebuilds into an AIMessage. */
export interface CassetteResponse {
  content: unknown;
  tool_calls: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
  invalid_tool_calls?: Array<{ id?: string; name?: string; args?: string; error?: string }>;
  additional_kwargs: Record<string, unknown>;
  finish_reason?: string;
}

/** One line of `cassette.jsonl` (`error` only for calls that failed for good). */
export interface CassetteEntry {
  key: string;
  episodeId?: string;
  occurrence: number;
  role: string;
  model: string;
  request: NormalizedRequest;
  response: CassetteResponse;
  usage: CassetteUsage;
  /**
   * Set when the call failed for good (retries spent, request refused): replay fails the same way, so the
   * episode ends with the same reason. The response is then empty.
   */
  error?: { code: string; message: string };
}

// ------------------------------------------------------------------------------------------------ secrets

// The redaction rules live in specs (one set for every recording); re-exported here for the cassette's users.
export { containsSecret, redactSecretsDeep, redactText } from "../../specs/secret-redaction.js";

// -------------------------------------------------------------------------------------------- normalizing

const ROLE_OF: Record<string, string> = { human: "user", ai: "assistant", system: "system", tool: "tool", function: "function", developer: "developer", generic: "user" };

/** A LangChain message in the form that enters the cache key and the cassette. */
export function normalizeMessage(message: BaseMessage): NormalizedMessage {
  const type = message.getType();
  const out: NormalizedMessage = { role: ROLE_OF[type] ?? type, content: message.content };
  if (typeof message.name === "string" && message.name !== "") out.name = message.name;
  if (AIMessage.isInstance(message)) {
    const calls = message.tool_calls ?? [];
    if (calls.length > 0) out.tool_calls = calls.map((c) => ({ ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, args: c.args }));
    const invalid = message.invalid_tool_calls ?? [];
    if (invalid.length > 0) {
      out.invalid_tool_calls = invalid.map((c) => ({
        ...(c.id !== undefined ? { id: c.id } : {}),
        ...(c.name !== undefined ? { name: c.name } : {}),
        ...(c.args !== undefined ? { args: c.args } : {}),
      }));
    }
  }
  const toolCallId = (message as { tool_call_id?: unknown }).tool_call_id;
  if (type === "tool" && typeof toolCallId === "string") out.tool_call_id = toolCallId;
  return out;
}

/** A tool in any form `bindTools` takes, in OpenAI function form (name, description, parameters). */
export function normalizeTool(tool: unknown): NormalizedTool | undefined {
  if (!isObject(tool)) return undefined;
  let def: unknown = tool;
  try {
    if (isLangChainTool(tool)) def = convertToOpenAITool(tool);
  } catch {
    return undefined;
  }
  if (!isObject(def)) return undefined;
  const fn = isObject(def["function"]) ? def["function"] : def;
  const name = fn["name"];
  if (typeof name !== "string") return undefined;
  return {
    name,
    ...(typeof fn["description"] === "string" ? { description: fn["description"] } : {}),
    ...(fn["parameters"] !== undefined ? { parameters: fn["parameters"] } : fn["input_schema"] !== undefined ? { parameters: fn["input_schema"] } : {}),
  };
}

/** What {@link normalizeRequest} reads. */
export interface RequestParts {
  model: string;
  messages: readonly BaseMessage[];
  tools?: readonly unknown[];
  tool_choice?: unknown;
  temperature?: number;
  maxTokens?: number;
  response_format?: unknown;
  stop?: readonly string[];
}

/** The normalized request: the only input of the cache key. */
export function normalizeRequest(parts: RequestParts): NormalizedRequest {
  const tools = (parts.tools ?? []).map(normalizeTool).filter((t): t is NormalizedTool => t !== undefined);
  return {
    model: parts.model,
    messages: parts.messages.map(normalizeMessage),
    ...(tools.length > 0 ? { tools } : {}),
    ...(parts.tool_choice !== undefined ? { tool_choice: parts.tool_choice } : {}),
    ...(parts.temperature !== undefined ? { temperature: parts.temperature } : {}),
    ...(parts.maxTokens !== undefined ? { maxTokens: parts.maxTokens } : {}),
    ...(parts.response_format !== undefined ? { response_format: parts.response_format } : {}),
    ...(parts.stop !== undefined && parts.stop.length > 0 ? { stop: [...parts.stop] } : {}),
  };
}

/** The cache key of a normalized request: `sha256:<hex>` of its stable JSON. */
export function requestKey(request: NormalizedRequest): string {
  return `sha256:${createHash("sha256").update(stableStringify(request)).digest("hex")}`;
}

/** A model answer in stored form. */
export function responseFromMessage(message: BaseMessage): CassetteResponse {
  const ai = AIMessage.isInstance(message) ? message : undefined;
  const finish = (message.response_metadata as Record<string, unknown>)["finish_reason"];
  const invalid = ai?.invalid_tool_calls ?? [];
  return {
    content: message.content,
    tool_calls: (ai?.tool_calls ?? []).map((c) => ({ ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, args: c.args })),
    ...(invalid.length > 0
      ? {
          invalid_tool_calls: invalid.map((c) => ({
            ...(c.id !== undefined ? { id: c.id } : {}),
            ...(c.name !== undefined ? { name: c.name } : {}),
            ...(c.args !== undefined ? { args: c.args } : {}),
            ...(c.error !== undefined ? { error: c.error } : {}),
          })),
        }
      : {}),
    additional_kwargs: { ...message.additional_kwargs },
    ...(typeof finish === "string" ? { finish_reason: finish } : {}),
  };
}

/** The AIMessage of a stored answer (what both live and replayed calls return, so they cannot differ). */
export function messageFromResponse(response: CassetteResponse, usage: CassetteUsage, model: string): AIMessage {
  const invalid: InvalidToolCall[] = (response.invalid_tool_calls ?? []).map((c) => ({
    type: "invalid_tool_call" as const,
    ...(c.id !== undefined ? { id: c.id } : {}),
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...(c.args !== undefined ? { args: c.args } : {}),
    ...(c.error !== undefined ? { error: c.error } : {}),
  }));
  const content = typeof response.content === "string" || Array.isArray(response.content) ? response.content : "";
  return new AIMessage({
    content: content as string,
    additional_kwargs: { ...response.additional_kwargs },
    tool_calls: response.tool_calls.map((c) => ({ type: "tool_call" as const, ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, args: c.args })),
    invalid_tool_calls: invalid,
    usage_metadata: {
      input_tokens: usage.promptTokens,
      output_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    },
    response_metadata: { model_name: model, ...(response.finish_reason !== undefined ? { finish_reason: response.finish_reason } : {}) },
  });
}

// ------------------------------------------------------------------------------------------------ the file

/** What loading a cassette found besides its entries. */
export interface CassetteLoadStats {
  /** Complete lines read. */
  lines: number;
  /** Lines that were not a cassette entry (kept out, counted). */
  skipped: number;
  /** Whether a last line without its newline (a write cut short) was ignored. */
  partial: boolean;
}

/** Options of {@link Cassette}. */
export interface CassetteOptions {
  /** Secret values scrubbed from every entry written (the API keys of the run). */
  secrets?: readonly string[];
}

function isEntry(v: unknown): v is CassetteEntry {
  return (
    isObject(v) &&
    typeof v["key"] === "string" &&
    typeof v["occurrence"] === "number" &&
    isObject(v["response"]) &&
    Array.isArray((v["response"] as Json)["tool_calls"]) &&
    isObject(v["usage"])
  );
}

function lookupKey(episodeId: string | undefined, key: string, occurrence: number): string {
  return `${episodeId ?? ""}\u0000${key}\u0000${occurrence}`;
}

/**
 * The LLM calls of a run: entries looked up by (episode, key, occurrence), then by (key, occurrence), then by
 * key; new entries appended to `cassette.jsonl` one line per call, written at once, secrets scrubbed.
 */
export class Cassette {
  private readonly exact = new Map<string, CassetteEntry>();
  private readonly byKeyOccurrence = new Map<string, CassetteEntry>();
  private readonly byKey = new Map<string, CassetteEntry>();
  private readonly all: CassetteEntry[] = [];
  private fd: number | undefined;
  private readonly secrets: string[];
  /** What loading found. */
  stats: CassetteLoadStats = { lines: 0, skipped: 0, partial: false };

  constructor(
    entries: readonly CassetteEntry[] = [],
    options: CassetteOptions & { path?: string; fd?: number } = {},
  ) {
    this.secrets = [...(options.secrets ?? [])];
    this.path = options.path;
    this.fd = options.fd;
    for (const e of entries) this.index(e);
  }

  /** The file the cassette appends to (undefined for an in-memory or read-only cassette). */
  readonly path: string | undefined;

  /** Reads a cassette file for replay (read-only). A missing file is an error; a cut last line is ignored. */
  static async load(path: string, options: CassetteOptions = {}): Promise<Cassette> {
    if (!existsSync(path)) throw new ToolsimError("cassette.not-found", `no cassette at ${path}: every run with a model records one (its run folder's cassette.jsonl); give that file or folder`);
    const { entries, stats } = await readEntries(path);
    const cassette = new Cassette(entries, options);
    cassette.stats = stats;
    return cassette;
  }

  /**
   * Opens a cassette file for recording: existing entries are loaded (a resumed run), a cut last line is
   * removed so the next line starts clean, and new entries are appended.
   */
  static async open(path: string, options: CassetteOptions = {}): Promise<Cassette> {
    mkdirSync(dirname(path), { recursive: true });
    let entries: CassetteEntry[] = [];
    let stats: CassetteLoadStats = { lines: 0, skipped: 0, partial: false };
    if (existsSync(path)) {
      ({ entries, stats } = await readEntries(path));
      truncatePartialLine(path);
    }
    const fd = openSync(path, "a", 0o600);
    const cassette = new Cassette(entries, { ...options, path, fd });
    cassette.stats = stats;
    return cassette;
  }

  /** All entries, in file order. */
  get entries(): readonly CassetteEntry[] {
    return this.all;
  }

  /** Lower-case names whose values are secrets besides the usual ones (security schemes' parameter names). */
  private readonly secretNames = new Set<string>();

  /** Adds names (a security scheme's header or query parameter) whose values are scrubbed from everything written. */
  addSecretNames(names: Iterable<string>): void {
    for (const n of names) this.secretNames.add(n.toLowerCase());
  }

  /** Secret values seen in each episode's events so far (a token the user gave), scrubbed from its entries. */
  private readonly episodeSecrets = new Map<string, Set<string>>();

  /** Notes secret values that an episode's events hold (see {@link append}); forgotten at {@link endEpisode}. */
  noteEpisodeSecrets(episodeId: string, values: Iterable<string>): void {
    let set = this.episodeSecrets.get(episodeId);
    for (const v of values) {
      if (v.length < 6) continue;
      if (!set) this.episodeSecrets.set(episodeId, (set = new Set()));
      set.add(v);
    }
  }

  /** Forgets the secrets noted for an episode (it has finished). */
  endEpisode(episodeId: string): void {
    this.episodeSecrets.delete(episodeId);
  }

  /** Adds a secret value to scrub from everything written from now on. */
  addSecret(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= 4 && !this.secrets.includes(secret)) this.secrets.push(secret);
  }

  /** The recorded answer for a call: same episode, key and occurrence; else same key and occurrence; else same key. */
  lookup(key: string, episodeId: string | undefined, occurrence: number): CassetteEntry | undefined {
    return this.exact.get(lookupKey(episodeId, key, occurrence)) ?? this.byKeyOccurrence.get(`${key}\u0000${occurrence}`) ?? this.byKey.get(key);
  }

  /** Scrubs an entry, writes it as one line (when the cassette has a file) and indexes it; returns what was written. */
  append(entry: CassetteEntry, secrets: readonly string[] = []): CassetteEntry {
    // A value under a secret name (a token passed as a tool argument) is scrubbed from the prompts' text too.
    const found = [...secretValues({ request: entry.request, response: entry.response }, new Set(), this.secretNames)].filter((v) => v.length >= 6);
    // The example values of secret fields in the tools (and wherever the prompts quote them) are dropped too.
    let written = entry;
    if (entry.request.tools !== undefined) {
      const tools = redactSchemaSecrets(entry.request.tools, this.secretNames);
      found.push(...[...tools.secrets].filter((v) => v.length >= 6));
      written = { ...entry, request: { ...entry.request, tools: tools.value } };
    }
    const noted = entry.episodeId !== undefined ? (this.episodeSecrets.get(entry.episodeId) ?? []) : [];
    const clean = redactSecretsDeep(written, [...this.secrets, ...secrets, ...found, ...noted]) as CassetteEntry;
    clean.key = entry.key;
    if (this.fd !== undefined) {
      const buf = Buffer.from(`${JSON.stringify(clean)}\n`, "utf8");
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    }
    this.index(clean);
    return clean;
  }

  /** Closes the file (entries stay readable). */
  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private index(e: CassetteEntry): void {
    this.all.push(e);
    const exact = lookupKey(e.episodeId, e.key, e.occurrence);
    if (!this.exact.has(exact)) this.exact.set(exact, e);
    const ko = `${e.key}\u0000${e.occurrence}`;
    if (!this.byKeyOccurrence.has(ko)) this.byKeyOccurrence.set(ko, e);
    if (!this.byKey.has(e.key)) this.byKey.set(e.key, e);
  }
}

/** Reads complete lines of a JSONL file as a stream; a last line without its newline is ignored. */
async function readEntries(path: string): Promise<{ entries: CassetteEntry[]; stats: CassetteLoadStats }> {
  const entries: CassetteEntry[] = [];
  const stats: CassetteLoadStats = { lines: 0, skipped: 0, partial: false };
  let rest = "";
  const take = (line: string): void => {
    if (line.trim() === "") return;
    stats.lines++;
    try {
      const v: unknown = JSON.parse(line);
      if (isEntry(v)) entries.push(v);
      else stats.skipped++;
    } catch {
      stats.skipped++;
    }
  };
  for await (const chunk of createReadStream(path, { encoding: "utf8" })) {
    const text = rest + (chunk as string);
    const lines = text.split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) take(line);
  }
  if (rest.trim() !== "") stats.partial = true;
  return { entries, stats };
}
