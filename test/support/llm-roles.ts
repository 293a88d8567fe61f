/**
 * A local OpenAI-protocol server that plays every LLM role plausibly (told apart by their prompts), with a
 * latency scripted per request so that concurrent episodes finish in another order than they start; and
 * helpers to compare the runs it produces. Shared by the tests of LLM runs whose result must not depend on
 * completion order (generate, replay, fork).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";
import type { CliIO } from "../../simulator/cli/cli-io.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "./openai-server.js";

/** A CLI io that keeps what was written. */
export function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

type Msg = { role: string; content: unknown };
const messagesOf = (r: ReceivedRequest): Msg[] => (r.body["messages"] ?? []) as Msg[];
const textOf = (m: Msg | undefined): string => (m && typeof m.content === "string" ? m.content : "");

/** A small deterministic hash of a text (latencies and variants that depend on the request only). */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

type Schema = { [k: string]: unknown };

/**
 * A string matching a simple pattern (anchors, literals, `[A-Z0-9]` classes, `\d`, `{n}` / `{n,m}` / `+` / `?`
 * quantifiers), its characters picked by `tag`; undefined for patterns beyond that.
 */
function fromPattern(pattern: string, tag: string): string | undefined {
  const body = pattern.replace(/^\^/, "").replace(/\$$/, "");
  let out = "";
  let seed = hash(tag);
  let i = 0;
  while (i < body.length) {
    let chars: string[];
    const c = body[i] as string;
    if (c === "[") {
      const end = body.indexOf("]", i);
      if (end < 0) return undefined;
      const set = body.slice(i + 1, end);
      chars = [];
      for (let j = 0; j < set.length; j++) {
        const from = set.charCodeAt(j);
        if (set[j + 1] === "-" && j + 2 < set.length) {
          for (let x = from; x <= set.charCodeAt(j + 2); x++) chars.push(String.fromCharCode(x));
          j += 2;
        } else chars.push(set[j] as string);
      }
      i = end + 1;
    } else if (c === "\\") {
      if (body[i + 1] !== "d") return undefined;
      chars = [..."0123456789"];
      i += 2;
    } else if (/[A-Za-z0-9_:.@ -]/.test(c)) {
      chars = [c];
      i++;
    } else return undefined;
    let count = 1;
    const q = /^\{(\d+)(?:,\d*)?\}|^[+?*]/.exec(body.slice(i));
    if (q) {
      count = q[1] !== undefined ? Number(q[1]) : q[0] === "+" ? 1 : 0;
      i += q[0].length;
    }
    for (let k = 0; k < count; k++) {
      out += chars[seed % chars.length];
      seed = Math.imul(seed ^ 0x9e3779b9, 16777619) >>> 0;
    }
  }
  return out;
}

/** A value valid for simple schemas: examples, enums, types and formats. */
function synth(s: unknown, tag: string, depth = 0): unknown {
  if (typeof s !== "object" || s === null || depth > 6) return tag;
  const schema = s as Schema;
  if (schema["example"] !== undefined) return schema["example"];
  if (Array.isArray(schema["enum"])) return schema["enum"][0];
  const alt = (schema["oneOf"] ?? schema["anyOf"]) as unknown[] | undefined;
  if (Array.isArray(alt)) return synth(alt[0], tag, depth + 1);
  if (Array.isArray(schema["allOf"])) return Object.assign({}, ...(schema["allOf"] as unknown[]).map((x) => synth(x, tag, depth + 1)));
  const type = Array.isArray(schema["type"]) ? (schema["type"] as string[]).find((t) => t !== "null") : schema["type"];
  if (type === "object" || schema["properties"] !== undefined) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries((schema["properties"] ?? {}) as Record<string, unknown>)) o[k] = synth(v, tag, depth + 1);
    return o;
  }
  if (type === "array") return [synth(schema["items"], tag, depth + 1)];
  if (type === "integer") return (schema["minimum"] as number | undefined) ?? 1;
  if (type === "number") return (schema["minimum"] as number | undefined) ?? 1.5;
  if (type === "boolean") return true;
  if (schema["format"] === "date") return "2024-05-01";
  if (schema["format"] === "date-time") return "2024-05-01T10:00:00Z";
  if (schema["format"] === "email") return "someone@example.com";
  if (schema["format"] === "uri") return "https://example.com/x";
  if (typeof schema["pattern"] === "string") return fromPattern(schema["pattern"], tag) ?? tag;
  return tag;
}

const words = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();

/**
 * The assistant's pick: the tool whose required parameters the instruction names most (the user states
 * `<parameter in words> <value>`), with the values read after their names; else the first tool.
 */
function pickCall(tools: { function: { name: string; parameters?: unknown } }[], instruction: string): { name: string; args: Record<string, unknown> } {
  let best: { name: string; args: Record<string, unknown>; score: number } | undefined;
  for (const t of tools) {
    const p = (t.function.parameters ?? {}) as { required?: string[]; properties?: Record<string, { type?: string }> };
    const args: Record<string, unknown> = {};
    let score = 0;
    for (const k of p.required ?? []) {
      const m = new RegExp(`${words(k)} (.+?)(?: and |[?,]| please| for me|\\. |$)`, "i").exec(instruction);
      if (!m || m[1] === undefined) continue;
      const type = p.properties?.[k]?.type;
      args[k] = type === "integer" || type === "number" ? Number(m[1]) : m[1];
      score++;
    }
    if ((p.required ?? []).length === score && (best === undefined || score > best.score)) best = { name: t.function.name, args, score };
  }
  return best ?? { name: tools[0]?.function.name ?? "none", args: {} };
}

/**
 * Long, distinct preambles for `chatty` user candidates: they outweigh the values in the near-duplicate
 * measure, so a candidate is like (often a near-duplicate of) any earlier instruction with its preamble.
 */
const PREAMBLES = Array.from({ length: 6 }, (_, k) => `Context ${Array.from({ length: 36 }, (_, j) => `note${k}w${j}`).join(" ")}:`);

/** Options of {@link roleScript}. */
export interface RoleScriptOptions {
  /**
   * The user's candidates start with one of a few long preambles (three of six per call, chosen by the
   * request): which candidate is least like the run's earlier instructions, and which are near-duplicates,
   * then depends on which instructions the check sees.
   */
  chatty?: boolean;
}

/**
 * A model for every role, told apart by their prompts. `variant` makes answers differ from call to call (a
 * sampling model: what a recording captures), else they are a function of the request only.
 */
export function roleScript(variant: (r: ReceivedRequest) => string, options: RoleScriptOptions = {}): (r: ReceivedRequest) => ScriptedReply {
  return (r) => {
    const m = messagesOf(r);
    const sys = textOf(m[0]);
    const first = textOf(m[1]);
    const last = m[m.length - 1];
    const v = variant(r);
    if (sys.startsWith("You simulate one operation")) {
      const schema = /^Schema: (.*)$/m.exec(first)?.[1];
      const status = Number(/^Response (\d{3})/m.exec(first)?.[1] ?? 200);
      let body: unknown = { note: `simulated ${v}` };
      try {
        if (schema) body = synth(JSON.parse(schema), `Lisbon ${v}`);
      } catch {
        // keep the note
      }
      return { kind: "text", content: JSON.stringify({ status, body }) };
    }
    if (sys.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}' };
    if (sys.startsWith("You play the user in a conversation")) {
      const give = /Give: (.*)$/m.exec(textOf(last))?.[1] ?? "what I said";
      return { kind: "text", content: `Sure: ${give}` };
    }
    if (sys.startsWith("You play a user")) {
      // Candidates that state every value to say; their wording overlaps between episodes, so which one is
      // least like the run's earlier instructions (and which are near-duplicates) depends on them.
      const says = [...first.matchAll(/Say: (.*?)(?: \(.*\))? = (.*)$/gm)].map((x) => `${x[1]} ${String(JSON.parse(x[2] ?? '""'))}`);
      const what = says.length > 0 ? says.join(" and ") : "the usual";
      if (options.chatty) {
        // A retry (the refusals appended to the messages) gets other preambles.
        const start = hash(first + String(m.length) + v) % PREAMBLES.length;
        const pick = [0, 1, 2].map((k) => `${PREAMBLES[(start + k) % PREAMBLES.length]} I need ${what}, please.`);
        return { kind: "text", content: JSON.stringify({ instructions: pick }) };
      }
      const forms = [
        `Could you help me with ${what}?`,
        `I need ${what}, please.`,
        `Please look up ${what} for me.`,
        `What do you find for ${what}? Thanks ${v}`,
      ];
      const start = hash(first + v) % forms.length;
      return { kind: "text", content: JSON.stringify({ instructions: [forms[start], forms[(start + 1) % forms.length], forms[(start + 2) % forms.length]] }) };
    }
    const tools = r.body["tools"] as { function: { name: string; parameters?: unknown } }[] | undefined;
    if (tools && tools.length > 0) {
      if (last?.role === "tool") return { kind: "text", content: `Here is what the service returned. ${v}` };
      const call = pickCall(tools, m.filter((x) => x.role === "user").map(textOf).join(" and "));
      // Ids too are a function of the request (the test server's default numbers them in arrival order).
      const id = `call_${hash(JSON.stringify(m) + v).toString(36)}`;
      return { kind: "tool-calls", calls: [{ id, name: call.name, arguments: JSON.stringify(call.args) }] };
    }
    return { kind: "text", content: "OK." };
  };
}

/** Latency scripted per request (0-60 ms), so that completion order differs from start order. */
export function latencyOf(r: ReceivedRequest, index: number): number {
  return (hash(JSON.stringify(r.body["messages"])) + index * 7919) % 61;
}

/** A server with scripted latency; `flaky` adds 429s and 500s (retried) by request count; `chatty` as in {@link roleScript}. */
export async function startRoleServer(options: { sampling: boolean; flaky?: boolean; chatty?: boolean }): Promise<OpenAIServer> {
  // A sampled variant in letters (a number in a final answer would fail the tester's grounding rule).
  const letters = (n: number): string => n.toString(26).replace(/[0-9a-p]/g, (c) => String.fromCharCode(97 + parseInt(c, 26)));
  const script = roleScript((r) => (options.sampling ? `(${letters(hash(JSON.stringify(r.body["messages"]) + String(Math.random())))})` : ""), { chatty: options.chatty === true });
  return startOpenAIServer(async (r, index) => {
    await new Promise((resolve) => setTimeout(resolve, latencyOf(r, index)));
    if (options.flaky && index % 9 === 4) return { kind: "status", status: 429, headers: { "retry-after": "0" } };
    if (options.flaky && index % 13 === 7) return { kind: "status", status: 500 };
    return script(r);
  });
}

/** The journal without times: `at` on every event, `durationMs` on llm.call. */
export function journalWithoutTimes(dir: string): string[] {
  return readFileSync(join(dir, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const e = JSON.parse(line) as Record<string, unknown>;
      delete e["at"];
      if (e["type"] === "llm.call") delete e["durationMs"];
      return JSON.stringify(e);
    });
}

export function summaryOf(dir: string): { episodes: number; errors: number; accepted: number; llm: { calls: number; byRole: Record<string, { calls: number }> } } {
  return JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as ReturnType<typeof summaryOf>;
}

export function countIn(dir: string, needle: string): number {
  return readFileSync(join(dir, "events.jsonl"), "utf8").split(needle).length - 1;
}

/** What {@link llmRunScope} gives the tests of a `describe`. */
export interface LlmRunScope {
  /** A fresh temporary folder (removed after all the tests). */
  tmp(): string;
  /** The role server of the test in progress (closed after each test). */
  server: OpenAIServer | undefined;
}

/**
 * Called inside a `describe` of LLM runs: temporary folders named `prefix...` removed after all its tests, the
 * role server closed after each test, and `OPENAI_API_KEY` put back as it was.
 */
export function llmRunScope(prefix: string): LlmRunScope {
  const dirs: string[] = [];
  const savedKey = process.env["OPENAI_API_KEY"];
  const scope: LlmRunScope = {
    server: undefined,
    tmp: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
  };
  afterEach(async () => {
    await scope.server?.close();
    scope.server = undefined;
    if (savedKey === undefined) delete process.env["OPENAI_API_KEY"];
    else process.env["OPENAI_API_KEY"] = savedKey;
  });
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return scope;
}
