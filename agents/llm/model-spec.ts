import { fail, ok, type Result } from "../../specs/result.js";

/** The model providers toolsim knows: the deterministic offline model, or any OpenAI-protocol endpoint. */
export type ModelProvider = "offline" | "openai";

/** OpenAI's own endpoint: the base URL when none is given. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/** The API key sent to local endpoints when none is set (vLLM, Ollama, llama.cpp and LM Studio accept any). */
export const LOCAL_DUMMY_API_KEY = "sk-toolsim-local";

/** Defaults of the call settings of a model. */
export const MODEL_DEFAULTS = { timeoutMs: 60_000, retries: 4, concurrency: 8 } as const;

/** A parsed, resolved model choice: which model, where, with which key and which call settings. */
export interface ModelSpec {
  provider: ModelProvider;
  /** The model name sent to the endpoint (`offline` for the offline model). */
  model: string;
  /** The resolved base URL (`undefined` for the offline model). */
  baseURL?: string;
  /** Where the base URL came from (for messages; never the key). */
  baseURLSource?: "spec" | "--base-url" | "TOOLSIM_BASE_URL" | "OPENAI_BASE_URL" | "default";
  /** The key to send. Never write it anywhere: cassettes and run files scrub it. */
  apiKey?: string;
  /** The environment variable the key came from (`OPENAI_API_KEY` unless told), or undefined for a dummy key. */
  apiKeyEnv?: string;
  /** Whether the base URL is a local endpoint (loopback or private network) that accepts any key. */
  local: boolean;
  temperature?: number;
  maxTokens?: number;
  /** Time allowed for one attempt of one call. */
  timeoutMs: number;
  /** Retries after the first attempt (429, 5xx, timeouts, connection errors). */
  retries: number;
  /** Calls in flight at once against this endpoint. */
  concurrency: number;
  /** Requests started per minute against this endpoint (unlimited when absent). */
  requestsPerMinute?: number;
}

/** Settings that complete a model spec string: CLI flags, config-file fields, the environment. */
export interface ModelSpecOptions {
  /** `--base-url`: overrides `TOOLSIM_BASE_URL` and `OPENAI_BASE_URL` (a `@url` inside the spec wins over it). */
  baseURL?: string;
  /** `--api-key-env NAME`: the variable holding the key (default `OPENAI_API_KEY`). */
  apiKeyEnv?: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs?: number;
  retries?: number;
  concurrency?: number;
  requestsPerMinute?: number;
  /** Require a key for non-local endpoints (default true; false for replay, which never calls the endpoint). */
  requireApiKey?: boolean;
  /** The environment (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Why a model spec was refused. */
export interface ModelSpecProblem {
  code: "model.empty" | "model.unknown-provider" | "model.no-name" | "model.bad-base-url" | "model.missing-key" | "model.bad-setting";
  message: string;
}

const PRIVATE_HOST = [
  /^localhost$/i,
  /\.localhost$/i,
  /\.local$/i,
  /^host\.docker\.internal$/i,
  /^127\.\d+\.\d+\.\d+$/,
  /^10\.\d+\.\d+\.\d+$/,
  /^192\.168\.\d+\.\d+$/,
  /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/,
  /^0\.0\.0\.0$/,
  /^\[?::1?\]?$/,
  /^\[?f[cd][0-9a-f]{2}:/i,
];

/** Whether a base URL points at a local endpoint (loopback or private network), where any key is accepted. */
export function isLocalBaseURL(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return PRIVATE_HOST.some((re) => re.test(host));
  } catch {
    return false;
  }
}

function checkBaseURL(value: string, source: string): Result<string, ModelSpecProblem> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail([{ code: "model.bad-base-url", message: `the base URL from ${source} is not a URL: "${value}" (expected e.g. http://localhost:8000/v1)` }]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail([{ code: "model.bad-base-url", message: `the base URL from ${source} must use http or https, got "${url.protocol}"` }]);
  }
  if (url.username !== "" || url.password !== "") {
    return fail([{ code: "model.bad-base-url", message: `the base URL from ${source} must not hold credentials: pass the key through an environment variable (--api-key-env)` }]);
  }
  return ok(value.replace(/\/+$/, ""));
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v.trim() : undefined;
}

/** Splits `openai:<model>@<baseURL>`: the `@` that starts an http(s) URL; other `@`s stay in the name. */
function splitInlineURL(rest: string): { model: string; url?: string } {
  const m = /^(.*?)@(https?:\/\/.*)$/i.exec(rest);
  if (m && m[1] !== undefined && m[2] !== undefined) return { model: m[1], url: m[2] };
  return { model: rest };
}

function checkNumber(
  problems: ModelSpecProblem[],
  name: string,
  value: number | undefined,
  rule: { min: number; max?: number; integer?: boolean; exclusiveMin?: boolean },
): void {
  if (value === undefined) return;
  const bad =
    !Number.isFinite(value) ||
    (rule.integer === true && !Number.isInteger(value)) ||
    (rule.exclusiveMin === true ? value <= rule.min : value < rule.min) ||
    (rule.max !== undefined && value > rule.max);
  if (bad) {
    const range = `${rule.exclusiveMin ? "greater than" : "at least"} ${rule.min}${rule.max !== undefined ? ` and at most ${rule.max}` : ""}`;
    problems.push({ code: "model.bad-setting", message: `${name} must be ${rule.integer ? "an integer " : "a number "}${range}, got ${value}` });
  }
}

/**
 * Parses a model choice: `offline`, `openai:<model>` or `openai:<model>@<baseURL>`, completed by the options
 * and the environment. Base URL precedence: `@url` in the spec > `--base-url` > `TOOLSIM_BASE_URL` >
 * `OPENAI_BASE_URL` > OpenAI's. The key comes from `--api-key-env NAME` or `OPENAI_API_KEY`; local endpoints
 * get a dummy key when none is set.
 */
export function parseModelSpec(text: string, options: ModelSpecOptions = {}): Result<ModelSpec, ModelSpecProblem> {
  const env = options.env ?? process.env;
  const problems: ModelSpecProblem[] = [];
  checkNumber(problems, "temperature", options.temperature, { min: 0, max: 2 });
  checkNumber(problems, "max tokens", options.maxTokens, { min: 1, integer: true });
  checkNumber(problems, "timeout", options.timeoutMs, { min: 1, integer: true });
  checkNumber(problems, "retries", options.retries, { min: 0, max: 100, integer: true });
  checkNumber(problems, "concurrency", options.concurrency, { min: 1, max: 4096, integer: true });
  checkNumber(problems, "requests per minute", options.requestsPerMinute, { min: 0, exclusiveMin: true });
  const settings = {
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    timeoutMs: options.timeoutMs ?? MODEL_DEFAULTS.timeoutMs,
    retries: options.retries ?? MODEL_DEFAULTS.retries,
    concurrency: options.concurrency ?? MODEL_DEFAULTS.concurrency,
    ...(options.requestsPerMinute !== undefined ? { requestsPerMinute: options.requestsPerMinute } : {}),
  };

  const spec = text.trim();
  if (spec === "") return fail([{ code: "model.empty", message: "the model is empty: use offline or openai:<model> (e.g. openai:gpt-4o-mini)" }]);
  if (spec.toLowerCase() === "offline") {
    if (problems.length > 0) return fail(problems);
    return ok({ provider: "offline", model: "offline", local: true, ...settings });
  }
  const colon = spec.indexOf(":");
  if (colon < 0) {
    return fail([
      {
        code: "model.unknown-provider",
        message: `"${spec}" names no provider: use offline or openai:${spec} (OpenAI-compatible endpoints such as vLLM, Ollama, llama.cpp and LM Studio also use openai:)`,
      },
    ]);
  }
  const provider = spec.slice(0, colon).toLowerCase();
  if (provider !== "openai") {
    return fail([
      {
        code: "model.unknown-provider",
        message: `unknown model provider "${spec.slice(0, colon)}" in "${spec}": use offline or openai:<model>; any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio) works as openai:<model> with --base-url`,
      },
    ]);
  }
  const { model, url: inlineURL } = splitInlineURL(spec.slice(colon + 1));
  if (model.trim() === "") return fail([{ code: "model.no-name", message: `"${spec}" names no model: use openai:<model>, e.g. openai:gpt-4o-mini` }]);

  const sources: Array<[NonNullable<ModelSpec["baseURLSource"]>, string | undefined]> = [
    ["spec", nonEmpty(inlineURL)],
    ["--base-url", nonEmpty(options.baseURL)],
    ["TOOLSIM_BASE_URL", nonEmpty(env["TOOLSIM_BASE_URL"])],
    ["OPENAI_BASE_URL", nonEmpty(env["OPENAI_BASE_URL"])],
    ["default", DEFAULT_OPENAI_BASE_URL],
  ];
  const [source, raw] = sources.find(([, v]) => v !== undefined) ?? ["default", DEFAULT_OPENAI_BASE_URL];
  const checked = checkBaseURL(raw ?? DEFAULT_OPENAI_BASE_URL, source === "spec" ? `"${spec}"` : source);
  if (!checked.ok) problems.push(...checked.errors);
  const baseURL = checked.ok ? checked.value : DEFAULT_OPENAI_BASE_URL;
  const local = checked.ok && isLocalBaseURL(baseURL);

  const keyEnv = nonEmpty(options.apiKeyEnv);
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) {
    // Never echo the value: it may be the key itself, pasted by mistake.
    problems.push({ code: "model.bad-setting", message: "--api-key-env takes the NAME of an environment variable (e.g. MY_API_KEY), not a key" });
    return fail(problems);
  }
  const envName = keyEnv ?? "OPENAI_API_KEY";
  let apiKey = nonEmpty(env[envName]);
  let apiKeyEnv: string | undefined = envName;
  const requireKey = options.requireApiKey ?? true;
  if (apiKey === undefined) {
    if (keyEnv !== undefined && requireKey) {
      problems.push({ code: "model.missing-key", message: `the environment variable ${keyEnv} (from --api-key-env) is not set or empty` });
    } else if (!local && requireKey) {
      problems.push({
        code: "model.missing-key",
        message: `no API key for ${baseURL}: set OPENAI_API_KEY or name another variable with --api-key-env NAME (local endpoints such as vLLM or Ollama on localhost need none)`,
      });
    } else {
      apiKey = LOCAL_DUMMY_API_KEY;
      apiKeyEnv = undefined;
    }
  }
  if (problems.length > 0) return fail(problems);
  return ok({
    provider: "openai",
    model: model.trim(),
    baseURL,
    baseURLSource: source,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
    local,
    ...settings,
  });
}

/** A one-line description of a spec for logs and `run.json`: model, endpoint and settings, never the key. */
export function describeModelSpec(spec: ModelSpec): string {
  if (spec.provider === "offline") return "offline";
  const parts = [`openai:${spec.model}`, `at ${redactUrl(spec.baseURL ?? DEFAULT_OPENAI_BASE_URL)}`];
  if (spec.apiKeyEnv) parts.push(`key from ${spec.apiKeyEnv}`);
  else parts.push(spec.local ? "no key (local endpoint)" : "no key");
  return parts.join(" ");
}

/** The spec as plain data safe to write (`run.json`, summaries): everything but the key, the base URL's query values redacted. */
export function publicModelSpec(spec: ModelSpec): Omit<ModelSpec, "apiKey"> {
  const { apiKey: _key, ...rest } = spec;
  return rest.baseURL !== undefined ? { ...rest, baseURL: redactUrl(rest.baseURL) } : rest;
}

/** The endpoint a spec's calls are limited against (its base URL; `offline` for the offline model). */
export function endpointOf(spec: ModelSpec): string {
  return spec.provider === "offline" ? "offline" : (spec.baseURL ?? DEFAULT_OPENAI_BASE_URL);
}

/** What stands for a secret removed from a URL. */
export const REDACTED_URL_VALUE = "[redacted]";

/**
 * A URL with the values of its query parameters (and any user info) replaced by `[redacted]`: some
 * endpoints take the key in the query (`?api-key=...`), and a base URL is written to run.json and logs.
 * Texts that are not URLs are returned as they are.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const hash = url.indexOf("#", q < 0 ? 0 : q);
  const head = q < 0 ? (hash < 0 ? url : url.slice(0, hash)) : url.slice(0, q);
  const withoutUser = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, `$1${REDACTED_URL_VALUE}@`);
  if (q < 0) return withoutUser + (hash < 0 ? "" : url.slice(hash));
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split("&").map((p) => {
    const eq = p.indexOf("=");
    return eq < 0 || eq === p.length - 1 ? p : `${p.slice(0, eq)}=${REDACTED_URL_VALUE}`;
  });
  return `${withoutUser}?${parts.join("&")}${hash < 0 ? "" : url.slice(hash)}`;
}

/** Query parameter names that carry credentials (`api-key`, `key`, `token`, `sig`, `code`...). */
const SECRET_PARAM = /key|token|secret|sig|auth|pass|credential|session|^code$/i;

/**
 * The secret values of a URL (values of credential-like query parameters, raw and decoded), to scrub from
 * everything written. Other values (`api-version=2024-06-01`) are not secrets: scrubbing them from prompts
 * and answers would change the data.
 */
export function urlSecrets(url: string | undefined): string[] {
  if (url === undefined) return [];
  const q = url.indexOf("?");
  if (q < 0) return [];
  const out = new Set<string>();
  for (const p of url.slice(q + 1).split("#")[0]?.split("&") ?? []) {
    const eq = p.indexOf("=");
    if (eq < 0 || !SECRET_PARAM.test(p.slice(0, eq))) continue;
    const raw = p.slice(eq + 1);
    if (raw.length >= 4) out.add(raw);
    try {
      const decoded = decodeURIComponent(raw.replace(/\+/g, " "));
      if (decoded.length >= 4) out.add(decoded);
    } catch {
      // a malformed escape: the raw value is scrubbed
    }
  }
  return [...out];
}

/** Whether a URL (or a model spec string holding one) has been through {@link redactUrl}. */
export function isRedactedUrl(text: string): boolean {
  return text.includes(`=${REDACTED_URL_VALUE}`) || text.includes(`${REDACTED_URL_VALUE}@`);
}

/** A model spec string (`openai:<model>@<base-url>`) with its inline base URL redacted. */
export function redactModelText(text: string): string {
  const m = /^(.*?@)(https?:\/\/.*)$/i.exec(text);
  return m && m[1] !== undefined && m[2] !== undefined ? `${m[1]}${redactUrl(m[2])}` : text;
}
