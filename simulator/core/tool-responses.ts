import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { fail, ok, type Result } from "../../specs/result.js";
import { HttpCassette } from "../../specs/respond/http-cassette.js";
import { HttpResponder } from "../../specs/respond/http-responder.js";
import { recordedApiFor, replayResponder } from "../../specs/respond/replay-responder.js";
import type { Responder } from "../../specs/respond/responder.js";
import type { UpstreamCredentials } from "../../specs/respond/upstream-credentials.js";
import { displayUrl } from "../../specs/respond/upstream.js";
import { isObject } from "../../specs/json-object.js";

/*
 * Where a run's tool calls are answered besides the simulator (opt-in; offline by default): recorded responses
 * (a `toolsim serve --record` cassette) and the real API. Both come before the toolset's own behaviour and the
 * executor's responders (state, LLM, schema), recordings first: an unrecorded call goes to the real API when
 * there is one, else it is simulated.
 */

/** A setting for every toolset (`toolset` absent), or for one toolset by name (`name=value` on the command line). */
export interface PerToolset {
  toolset?: string;
  value: string;
}

/** The credentials file of `--upstream-credentials`: credentials for every toolset, and per toolset. */
export interface CredentialsFile {
  all?: UpstreamCredentials;
  byToolset: Map<string, UpstreamCredentials>;
}

/** Where a run's tool calls are answered besides the simulator. */
export interface ToolResponseSettings {
  /** Cassette files of recorded responses. */
  replay?: PerToolset[];
  /** Base URLs of the real APIs. */
  upstream?: PerToolset[];
  credentials?: CredentialsFile;
  /** The credentials file's path (recorded in run.json; never its content). */
  credentialsFile?: string;
  /** Time allowed to one real-API request, in ms. */
  timeoutMs?: number;
  /** Ends real-API requests in flight. */
  signal?: AbortSignal;
}

/** The toolsets with their recordings and real APIs attached. */
export interface ToolResponses {
  toolsets: EpisodeToolset[];
  /** The real-API responder of each toolset that has one, by toolset name (their statistics tell what happened). */
  http: Map<string, HttpResponder>;
  /** The cassettes read: file, recordings, unreadable lines. */
  cassettes: Array<{ file: string; recordings: number; skipped: number }>;
  /** What run.json records (file names and URLs without credentials), absent when nothing is attached. */
  config?: Record<string, unknown>;
  /** What will not work as the user may think (a cassette with no recording of a toolset). */
  warnings: string[];
}

function stringMap(value: unknown, where: string, errors: string[]): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === "string")) {
    errors.push(`${where} must be a mapping of names to strings`);
    return undefined;
  }
  return value as Record<string, string>;
}

function credentialsOf(raw: unknown, where: string, errors: string[]): UpstreamCredentials | undefined {
  if (!isObject(raw)) {
    errors.push(`${where} must be a mapping (default, schemes, headers)`);
    return undefined;
  }
  const out: UpstreamCredentials = {};
  for (const key of Object.keys(raw)) if (!["default", "schemes", "headers", "toolsets"].includes(key)) errors.push(`${where}: unknown key "${key}" (expected default, schemes, headers, toolsets)`);
  const value = raw["default"] ?? undefined;
  if (value !== undefined) {
    if (typeof value !== "string" || value === "") errors.push(`${where}.default must be a non-empty string`);
    else out.default = value;
  }
  const schemes = stringMap(raw["schemes"], `${where}.schemes`, errors);
  if (schemes) out.schemes = schemes;
  const headers = stringMap(raw["headers"], `${where}.headers`, errors);
  if (headers) out.headers = headers;
  return out;
}

/**
 * Reads an `--upstream-credentials` file (YAML or JSON): `default` (an API key or token for any scheme), `schemes`
 * (by security scheme name), `headers` (sent with every request), and `toolsets: {name: {...}}` for one toolset.
 * Values are never echoed in messages.
 */
export async function loadUpstreamCredentials(path: string): Promise<Result<CredentialsFile, string>> {
  let data: unknown;
  try {
    data = parseYaml(await readFile(path, "utf8"));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return fail([err.code === "ENOENT" ? `no credentials file at ${path}` : `cannot read credentials ${path}: ${err.message.split("\n")[0] ?? ""}`]);
  }
  const errors: string[] = [];
  if (!isObject(data)) return fail([`${path}: expected a mapping with default, schemes, headers or toolsets`]);
  const out: CredentialsFile = { byToolset: new Map() };
  const all = credentialsOf(data, path, errors);
  if (all && (all.default !== undefined || all.schemes || all.headers)) out.all = all;
  const toolsets = data["toolsets"];
  if (toolsets !== undefined) {
    if (!isObject(toolsets)) errors.push(`${path}: toolsets must be a mapping of toolset names to credentials`);
    else {
      for (const [name, raw] of Object.entries(toolsets)) {
        const c = credentialsOf(raw, `${path}: toolsets.${name}`, errors);
        if (c) out.byToolset.set(name, c);
      }
    }
  }
  return errors.length > 0 ? fail(errors) : ok(out);
}

/** The value of a per-toolset setting for a toolset: its own, else the one for all. */
function valueFor(settings: readonly PerToolset[] | undefined, toolset: string): string | undefined {
  return settings?.find((s) => s.toolset === toolset)?.value ?? settings?.find((s) => s.toolset === undefined)?.value;
}

/** The credentials of a toolset: the file's for all, overridden by its own section, with the toolset's auth as the fallback place. */
function credentialsFor(file: CredentialsFile | undefined, toolset: EpisodeToolset): UpstreamCredentials | undefined {
  if (!file) return undefined;
  const own = file.byToolset.get(toolset.name);
  const merged: UpstreamCredentials = {
    ...file.all,
    ...own,
    ...(file.all?.schemes || own?.schemes ? { schemes: { ...file.all?.schemes, ...own?.schemes } } : {}),
    ...(file.all?.headers || own?.headers ? { headers: { ...file.all?.headers, ...own?.headers } } : {}),
  };
  if (toolset.auth) merged.fallback = { type: toolset.auth.type, ...(toolset.auth.in ? { in: toolset.auth.in } : {}), ...(toolset.auth.name ? { name: toolset.auth.name } : {}) };
  return merged;
}

/**
 * Attaches recordings and real APIs to toolsets (before their own responders). Names in per-toolset settings
 * and in the credentials file must be toolsets of the run; cassette files must be readable.
 */
export async function withToolResponses(toolsets: readonly EpisodeToolset[], settings: ToolResponseSettings): Promise<Result<ToolResponses, string>> {
  const names = toolsets.map((t) => t.name);
  const errors: string[] = [];
  const known = (what: string, name: string | undefined): void => {
    if (name !== undefined && !names.includes(name)) errors.push(`${what} ${name}=...: no toolset of the run is named ${name} (toolsets: ${names.join(", ")})`);
  };
  for (const r of settings.replay ?? []) known("--tool-cassette", r.toolset);
  for (const u of settings.upstream ?? []) known("--upstream", u.toolset);
  for (const name of settings.credentials?.byToolset.keys() ?? []) {
    if (!names.includes(name)) errors.push(`--upstream-credentials: toolsets.${name}: no toolset of the run is named ${name} (toolsets: ${names.join(", ")})`);
  }
  if (settings.credentials && (settings.upstream ?? []).length === 0) errors.push("--upstream-credentials goes with --upstream URL: the credentials are for the real API");
  const cassettes = new Map<string, HttpCassette>();
  const read: ToolResponses["cassettes"] = [];
  for (const { value: file } of settings.replay ?? []) {
    if (cassettes.has(file)) continue;
    try {
      const loaded = await HttpCassette.load(file);
      cassettes.set(file, loaded.cassette);
      read.push({ file, recordings: loaded.cassette.size, skipped: loaded.skipped });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      errors.push(err.code === "ENOENT" ? `--tool-cassette: no cassette at ${file}` : `--tool-cassette: cannot read ${file}: ${err.message}`);
    }
  }
  for (const u of settings.upstream ?? []) {
    try {
      const url = new URL(u.value);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
    } catch {
      errors.push(`--upstream must be an http(s) URL (or name=URL), got "${displayUrl(u.value)}"`);
    }
  }
  if (errors.length > 0) return fail(errors);
  const http = new Map<string, HttpResponder>();
  const warnings: string[] = [];
  const out = toolsets.map((toolset) => {
    const extra: Responder[] = [];
    const file = valueFor(settings.replay, toolset.name);
    const cassette = file !== undefined ? cassettes.get(file) : undefined;
    if (cassette && file !== undefined) {
      extra.push(replayResponder(cassette, { api: toolset.name, file }));
      if (cassette.size > 0 && recordedApiFor(cassette, toolset.name) === undefined) {
        warnings.push(`${file} has no recordings of ${toolset.name} (recorded: ${cassette.apis().join(", ")}): its calls are simulated`);
      }
    }
    const base = valueFor(settings.upstream, toolset.name);
    if (base !== undefined) {
      const credentials = credentialsFor(settings.credentials, toolset);
      const responder = new HttpResponder({
        baseUrl: base,
        ...(credentials ? { credentials } : {}),
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
        ...(settings.signal ? { signal: settings.signal } : {}),
      });
      http.set(toolset.name, responder);
      extra.push(responder);
    }
    return extra.length === 0 ? toolset : { ...toolset, responders: [...extra, ...(toolset.responders ?? [])] };
  });
  const attached = (settings.replay ?? []).length > 0 || (settings.upstream ?? []).length > 0;
  const config = attached
    ? {
        ...(settings.replay && settings.replay.length > 0 ? { replay: settings.replay.map((r) => ({ ...(r.toolset ? { toolset: r.toolset } : {}), file: r.value })) } : {}),
        ...(settings.upstream && settings.upstream.length > 0 ? { upstream: settings.upstream.map((u) => ({ ...(u.toolset ? { toolset: u.toolset } : {}), url: displayUrl(u.value) })) } : {}),
        ...(settings.credentialsFile !== undefined ? { authFile: settings.credentialsFile } : {}),
      }
    : undefined;
  return ok({ toolsets: out, http, cassettes: read, warnings, ...(config ? { config } : {}) });
}

/** The real-API calls of a run, summed over toolsets: calls, failures (502/504) and the last failure. */
export function upstreamStats(http: ReadonlyMap<string, HttpResponder>): { calls: number; failures: number; lastFailure?: string } {
  let calls = 0;
  let failures = 0;
  let lastFailure: string | undefined;
  for (const r of http.values()) {
    calls += r.stats.calls;
    failures += r.stats.failures;
    lastFailure = r.stats.lastFailure ?? lastFailure;
  }
  return { calls, failures, ...(lastFailure !== undefined ? { lastFailure } : {}) };
}
