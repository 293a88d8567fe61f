import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "commander";
import { createChatModel, endpointUrl } from "../../agents/llm/chat-model-factory.js";
import { describeModelSpec, DEFAULT_OPENAI_BASE_URL, parseModelSpec, REDACTED_URL_VALUE, redactUrl, urlSecrets, type ModelSpec } from "../../agents/llm/model-spec.js";
import { UsageError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** The outcome of one doctor check. */
export interface DoctorCheck {
  name: "reachable" | "authorised" | "model" | "chat" | "tools" | "json";
  status: "ok" | "FAIL" | "skip";
  /** What was seen. */
  detail: string;
  /** What to change when it failed. */
  fix?: string;
}

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** Time allowed per request (default 30 s). */
  timeoutMs?: number;
  /** Set when `--model` named no model: the first model the endpoint lists is used. */
  pickModel?: boolean;
}

const ENDPOINT_HINT =
  "start the server, or check --base-url (it usually ends in /v1: vLLM http://localhost:8000/v1, Ollama http://localhost:11434/v1, " +
  "llama.cpp http://localhost:8080/v1, LM Studio http://localhost:1234/v1)";
const KEY_HINT = "set OPENAI_API_KEY, or name the variable holding the key with --api-key-env NAME";
const TOOLS_HINT =
  "the server does not return tool calls: vLLM needs --enable-auto-tool-choice --tool-call-parser <hermes|llama3_json|mistral|pythonic|...> " +
  "(the parser of your model family); llama.cpp needs --jinja; with Ollama or LM Studio pick a model with tool support; " +
  "or use a text-format assistant strategy (ReAct or API-Bank) instead of native function calling";
const JSON_HINT =
  "the server does not honour response_format json_object: upgrade it or enable structured output (vLLM guided decoding, Ollama format json); " +
  "toolsim still parses JSON from plain answers, with repair prompts";

const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "The city name, e.g. Paris" } },
      required: ["city"],
    },
  },
};

function statusOf(e: unknown): number | undefined {
  return isObject(e) && typeof e["status"] === "number" ? e["status"] : undefined;
}

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text.split("\n\nTroubleshooting URL")[0] ?? text).replace(/\s+/g, " ").trim().slice(0, 200);
}

function textOf(message: BaseMessage): string {
  const c = message.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b) => (typeof b === "string" ? b : isObject(b) && typeof b["text"] === "string" ? b["text"] : "")).join("");
  return "";
}

function short(text: string, n = 60): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

/** Parses a JSON object from an answer, also inside a ```json fence; undefined when there is none. */
function jsonObjectOf(text: string): { value: Json; fenced: boolean } | undefined {
  const tryParse = (s: string): Json | undefined => {
    try {
      const v: unknown = JSON.parse(s);
      return isObject(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const direct = tryParse(text.trim());
  if (direct) return { value: direct, fenced: false };
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const inner = fence?.[1] !== undefined ? tryParse(fence[1].trim()) : undefined;
  return inner ? { value: inner, fenced: true } : undefined;
}

/** A failure of a model call as a check line (401/403 also fail `authorised`). */
function callFailure(name: DoctorCheck["name"], e: unknown, spec: ModelSpec, authFailed: { value: boolean }): DoctorCheck {
  const status = statusOf(e);
  if (status === 401 || status === 403) {
    authFailed.value = true;
    return { name, status: "FAIL", detail: `the endpoint refused the key (${status}): see authorised` };
  }
  if (status === 404) return { name, status: "FAIL", detail: `404: ${errorText(e)}`, fix: `check that the server serves ${spec.model} and that --base-url ends where /chat/completions starts (usually /v1)` };
  if (isObject(e) && (e["name"] === "TimeoutError" || e.constructor?.name === "APIConnectionTimeoutError")) {
    return { name, status: "FAIL", detail: `no answer within the timeout`, fix: "the model may be loading or too slow: retry, or raise --timeout" };
  }
  return { name, status: "FAIL", detail: status !== undefined ? `HTTP ${status}: ${errorText(e)}` : errorText(e) };
}

/**
 * Checks an OpenAI-protocol endpoint for toolsim: reachable (GET /models), authorised, the model served, a
 * chat completion, a forced tool call with valid JSON arguments (and tool_choice auto), and JSON output.
 */
export async function runDoctor(spec: ModelSpec, options: DoctorOptions = {}): Promise<{ spec: ModelSpec; checks: DoctorCheck[] }> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const baseURL = spec.baseURL ?? DEFAULT_OPENAI_BASE_URL;
  const checks: DoctorCheck[] = [];
  const authFailed = { value: false };

  // reachable + the model list
  let modelsStatus: number | undefined;
  let served: string[] | undefined;
  const started = Date.now();
  // The base URL's query (Azure-style ?api-version=..., or a key) goes after the path; only its redacted form is shown.
  const modelsUrl = endpointUrl(baseURL, "/models");
  try {
    const res = await fetch(modelsUrl, {
      headers: { accept: "application/json", ...(spec.apiKey !== undefined ? { authorization: `Bearer ${spec.apiKey}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    modelsStatus = res.status;
    const text = await res.text();
    if (res.ok) {
      try {
        const body: unknown = JSON.parse(text);
        const data = isObject(body) ? body["data"] : undefined;
        if (Array.isArray(data)) served = data.map((m) => (isObject(m) && typeof m["id"] === "string" ? m["id"] : "")).filter((id) => id !== "");
      } catch {
        // a reachable server with an unexpected /models body: the chat checks decide
      }
    }
    const note = res.status === 404 ? " (no /models route: check that --base-url ends in /v1)" : "";
    checks.push({ name: "reachable", status: "ok", detail: `GET ${redactUrl(modelsUrl)} answered ${res.status} in ${Date.now() - started} ms${note}` });
  } catch (e) {
    const cause = isObject(e) && isObject(e["cause"]) && typeof e["cause"]["code"] === "string" ? ` (${e["cause"]["code"]})` : "";
    checks.push({ name: "reachable", status: "FAIL", detail: `cannot reach ${redactUrl(baseURL)}: ${errorText(e)}${cause}`, fix: ENDPOINT_HINT });
    for (const name of ["authorised", "model", "chat", "tools", "json"] as const) checks.push({ name, status: "skip", detail: "not run: the endpoint is unreachable" });
    return { spec, checks };
  }

  let model = spec.model;
  if (options.pickModel) {
    const first = served?.[0];
    if (first === undefined) {
      checks.push({ name: "authorised", status: modelsStatus === 401 || modelsStatus === 403 ? "FAIL" : "skip", detail: `GET /models answered ${modelsStatus}`, ...(modelsStatus === 401 || modelsStatus === 403 ? { fix: KEY_HINT } : {}) });
      checks.push({ name: "model", status: "FAIL", detail: "no --model given and the endpoint lists no models", fix: "pass --model openai:<model>" });
      for (const name of ["chat", "tools", "json"] as const) checks.push({ name, status: "skip", detail: "not run: no model" });
      return { spec, checks };
    }
    model = first;
  }
  const effective: ModelSpec = { ...spec, model };

  const modelCheck: DoctorCheck =
    served === undefined || served.length === 0
      ? { name: "model", status: "skip", detail: "the endpoint lists no models; the chat check tells whether it serves " + model }
      : served.includes(model)
        ? { name: "model", status: "ok", detail: `${model} is served${options.pickModel ? " (the first model listed; choose with --model)" : ""}` }
        : {
            name: "model",
            status: "FAIL",
            detail: `${model} is not among the ${served.length} models listed (${served.slice(0, 5).join(", ")}${served.length > 5 ? ", ..." : ""})`,
            fix: `use --model openai:${served[0]} or another listed model`,
          };

  const noKey = spec.apiKey === undefined;
  if (modelsStatus === 401 || modelsStatus === 403 || noKey) {
    const detail = noKey ? "no API key is set for a remote endpoint" : `GET /models answered ${modelsStatus}: the endpoint refused the key`;
    checks.push({ name: "authorised", status: "FAIL", detail, fix: KEY_HINT });
    checks.push(modelCheck.status === "ok" ? modelCheck : { name: "model", status: "skip", detail: "not run: not authorised" });
    for (const name of ["chat", "tools", "json"] as const) checks.push({ name, status: "skip", detail: "not run: not authorised" });
    return { spec: effective, checks };
  }

  let chat: BaseChatModel;
  try {
    chat = createChatModel({ ...effective, timeoutMs, retries: 0 });
  } catch (e) {
    checks.push({ name: "authorised", status: "FAIL", detail: errorText(e), fix: KEY_HINT });
    return { spec: effective, checks };
  }

  // chat
  const late: DoctorCheck[] = [];
  let chatOk = false;
  try {
    const t0 = Date.now();
    const answer = await chat.invoke([new SystemMessage("You are a health check. Answer briefly."), new HumanMessage("Reply with the single word: ok")]);
    const text = textOf(answer);
    const usage = (answer as AIMessage).usage_metadata;
    const tokens = usage ? `, ${usage.input_tokens} prompt + ${usage.output_tokens} completion tokens` : ", no token usage reported";
    if (text.trim() === "" && ((answer as AIMessage).tool_calls ?? []).length === 0) {
      late.push({ name: "chat", status: "FAIL", detail: "the answer was empty", fix: "check the model's chat template, or raise the max tokens (reasoning models spend tokens before answering)" });
    } else {
      chatOk = true;
      late.push({ name: "chat", status: "ok", detail: `answered "${short(text)}" in ${Date.now() - t0} ms${tokens}` });
    }
  } catch (e) {
    late.push(callFailure("chat", e, effective, authFailed));
  }

  // tools: a forced call, then tool_choice auto
  if (authFailed.value) {
    late.push({ name: "tools", status: "skip", detail: "not run: not authorised" });
  } else {
    try {
      const forced = await chat.bindTools!([WEATHER_TOOL], { tool_choice: { type: "function", function: { name: "get_weather" } } }).invoke([
        new HumanMessage("What is the weather in Paris right now? Use the get_weather tool."),
      ]);
      const calls = (forced as AIMessage).tool_calls ?? [];
      const invalid = (forced as AIMessage).invalid_tool_calls ?? [];
      const call = calls[0];
      if (call === undefined && invalid.length > 0) {
        late.push({
          name: "tools",
          status: "FAIL",
          detail: `the tool call's arguments are not valid JSON: ${short(String(invalid[0]?.args ?? ""))}`,
          fix: "use the tool-call parser that matches the model (vLLM --tool-call-parser), or a model that calls tools reliably",
        });
      } else if (call === undefined) {
        late.push({ name: "tools", status: "FAIL", detail: `a forced tool call came back as text: "${short(textOf(forced))}"`, fix: TOOLS_HINT });
      } else if (call.name !== "get_weather" || !isObject(call.args) || typeof call.args["city"] !== "string") {
        late.push({ name: "tools", status: "FAIL", detail: `the forced call was ${call.name}(${short(JSON.stringify(call.args))}), not get_weather({city})`, fix: "use a model that follows tool schemas" });
      } else {
        let auto = "tool_choice auto works";
        try {
          const a = await chat.bindTools!([WEATHER_TOOL], { tool_choice: "auto" }).invoke([new HumanMessage("What is the weather in Lyon? Use the tool.")]);
          if (((a as AIMessage).tool_calls ?? []).length === 0) auto = "with tool_choice auto the model answered in text";
        } catch (e) {
          late.push({ name: "tools", status: "FAIL", detail: `a forced call works, but tool_choice auto failed: ${errorText(e)}`, fix: TOOLS_HINT });
          auto = "";
        }
        if (auto !== "") late.push({ name: "tools", status: "ok", detail: `a forced call came back as get_weather(${JSON.stringify(call.args)}); ${auto}` });
      }
    } catch (e) {
      const f = callFailure("tools", e, effective, authFailed);
      if (statusOf(e) === 400 || statusOf(e) === 422 || /tool/i.test(errorText(e))) f.fix = TOOLS_HINT;
      late.push(f);
    }
  }

  // json
  if (authFailed.value) {
    late.push({ name: "json", status: "skip", detail: "not run: not authorised" });
  } else {
    try {
      const answer = await chat.invoke(
        [new SystemMessage("You answer with JSON only."), new HumanMessage('Return a JSON object with the keys "ok" (the boolean true) and "n" (the number 2).')],
        { response_format: { type: "json_object" } } as Record<string, unknown>,
      );
      const text = textOf(answer);
      const parsed = jsonObjectOf(text);
      if (parsed === undefined) late.push({ name: "json", status: "FAIL", detail: `the answer is not a JSON object: "${short(text)}"`, fix: JSON_HINT });
      else late.push({ name: "json", status: "ok", detail: `response_format json_object gave ${short(JSON.stringify(parsed.value))}${parsed.fenced ? " (inside a code fence)" : ""}` });
    } catch (e) {
      const f = callFailure("json", e, effective, authFailed);
      if (statusOf(e) === 400 || statusOf(e) === 422) f.fix = JSON_HINT;
      late.push(f);
    }
  }

  checks.push(
    authFailed.value
      ? { name: "authorised", status: "FAIL", detail: "the endpoint refused the key on chat completions", fix: KEY_HINT }
      : { name: "authorised", status: "ok", detail: spec.apiKeyEnv === undefined ? "no key needed (local endpoint)" : `the key from ${spec.apiKeyEnv} is accepted${chatOk ? "" : " by /models"}` },
  );
  checks.push(modelCheck);
  checks.push(...late);
  return { spec: effective, checks };
}

/** One line of the doctor's report. */
export function formatDoctorCheck(check: DoctorCheck): string {
  const fix = check.fix !== undefined && check.status === "FAIL" ? `; fix: ${check.fix}` : "";
  return `${check.status.padEnd(4)} ${check.name.padEnd(10)} ${check.detail}${fix}\n`;
}

interface DoctorFlags {
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  timeout?: string;
}

/** `toolsim doctor`: checks an endpoint and says what works and what to change; exit 0 when every check passes. */
export function doctorCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command("doctor")
    .description("check an OpenAI-compatible endpoint: reachable, authorised, chat, tool calling, JSON output")
    .option("--model <spec>", "openai:<model> (default: the first model the endpoint lists)")
    .option("--base-url <url>", "the endpoint's base URL (default TOOLSIM_BASE_URL, OPENAI_BASE_URL, then OpenAI)")
    .option("--api-key-env <name>", "the environment variable holding the API key (default OPENAI_API_KEY)")
    .option("--timeout <ms>", "time allowed per request", "30000")
    .action(async (flags: DoctorFlags) => {
      const timeoutMs = parseInteger("--timeout", flags.timeout, 1) ?? 30_000;
      const given = flags.model?.trim();
      if (given !== undefined && given.toLowerCase() === "offline") {
        io.out("ok   offline    the offline model needs no endpoint\n");
        setExit(0);
        return;
      }
      const parsed = parseModelSpec(given ?? "openai:?", {
        ...(flags.baseUrl !== undefined ? { baseURL: flags.baseUrl } : {}),
        ...(flags.apiKeyEnv !== undefined ? { apiKeyEnv: flags.apiKeyEnv } : {}),
        requireApiKey: false,
        timeoutMs,
      });
      if (!parsed.ok) throw new UsageError(parsed.errors.map((p) => p.message).join("\n"));
      let spec = parsed.value;
      // requireApiKey false gives remote endpoints a dummy key; the doctor reports the missing key instead.
      const keyEnv = flags.apiKeyEnv ?? "OPENAI_API_KEY";
      const keySet = (process.env[keyEnv] ?? "").trim() !== "";
      if (!keySet && !spec.local) {
        const { apiKey: _dummy, apiKeyEnv: _env, ...rest } = spec;
        spec = rest;
      }
      const { spec: used, checks } = await runDoctor(spec, { timeoutMs, pickModel: given === undefined });
      // Details quote the endpoint's own messages, which may echo the URL: its secret query values and the key are scrubbed.
      const secrets = [...urlSecrets(spec.baseURL), ...(spec.apiKey !== undefined && spec.apiKeyEnv !== undefined ? [spec.apiKey] : [])];
      const scrub = (text: string): string => secrets.reduce((t, secret) => t.split(secret).join(REDACTED_URL_VALUE), text);
      io.out(`toolsim doctor: ${describeModelSpec(used)}\n`);
      for (const c of checks) io.out(scrub(formatDoctorCheck(c)));
      const failed = checks.filter((c) => c.status === "FAIL").length;
      io.out(failed === 0 ? `all checks passed${checks.some((c) => c.status === "skip") ? " (some skipped)" : ""}\n` : `${failed} check${failed === 1 ? "" : "s"} failed\n`);
      setExit(failed === 0 ? 0 : 1);
    });
}
