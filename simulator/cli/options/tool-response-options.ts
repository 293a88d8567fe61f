import type { Command } from "commander";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from "../../../specs/respond/http-responder.js";
import { loadUpstreamCredentials, upstreamStats, withToolResponses, type PerToolset, type ToolResponses, type ToolResponseSettings } from "../../core/tool-responses.js";
import { UsageError, UserError, type CliIO } from "../cli-io.js";
import { parseInteger } from "./parse-options.js";

/** The flags of recorded and real-API answers (`generate`, `call`) as commander gives them. */
export interface ToolResponseFlags {
  toolCassette?: string[];
  upstream?: string[];
  upstreamCredentials?: string;
  upstreamTimeout?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Adds `--tool-cassette`, `--upstream`, `--upstream-credentials` and `--upstream-timeout` (`perToolset`: `name=VALUE` forms too). */
export function addToolResponseOptions(cmd: Command, perToolset: boolean): Command {
  const named = perToolset ? " (name=FILE for one toolset; repeatable)" : "";
  const namedUrl = perToolset ? " (name=URL for one toolset; repeatable)" : "";
  return cmd
    .option("--tool-cassette <file>", `answer tool calls from recorded responses first (a \`serve --record\` cassette); unrecorded calls fall through${named}`, collect)
    .option("--upstream <url>", `answer tool calls from the real API at this base URL (opt-in: the network is used)${namedUrl}`, collect)
    .option("--upstream-credentials <file>", "credentials for the real API (YAML/JSON: default, schemes, headers, toolsets); never written anywhere")
    .option("--upstream-timeout <ms>", `time allowed to one real-API request (default ${DEFAULT_UPSTREAM_TIMEOUT_MS})`);
}

/** `VALUE` (every toolset) or `name=VALUE` (one toolset); a value that is an existing file is never split. */
function perToolsetValue(value: string, isUrl: boolean): PerToolset {
  const eq = value.indexOf("=");
  if (eq <= 0 || (!isUrl && existsSync(value))) return { value };
  const name = value.slice(0, eq);
  if (name.includes("/") || name.includes(":")) return { value };
  return { toolset: name, value: value.slice(eq + 1) };
}

/** What run.json recorded of a run's recorded and real-API answers (for `--resume` without the flags). */
function recordedSettings(out: string): { replay?: PerToolset[]; upstream?: PerToolset[]; credentials?: string } | undefined {
  const path = join(out, "run.json");
  if (!existsSync(path)) return undefined;
  try {
    const info = JSON.parse(readFileSync(path, "utf8")) as { config?: { responses?: { replay?: Array<{ toolset?: string; file: string }>; upstream?: Array<{ toolset?: string; url: string }>; authFile?: string } } };
    const r = info.config?.responses;
    if (!r) return undefined;
    return {
      ...(r.replay ? { replay: r.replay.map((x) => ({ ...(x.toolset ? { toolset: x.toolset } : {}), value: x.file })) } : {}),
      ...(r.upstream ? { upstream: r.upstream.map((x) => ({ ...(x.toolset ? { toolset: x.toolset } : {}), value: x.url })) } : {}),
      ...(r.authFile !== undefined ? { credentials: r.authFile } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * The settings of recorded and real-API answers from the flags (with `--resume` and no such flags: from the run
 * being resumed). Undefined when none is asked for: the offline default.
 */
export async function toolResponseSettings(flags: ToolResponseFlags, resume?: { out: string }): Promise<ToolResponseSettings | undefined> {
  let replay = (flags.toolCassette ?? []).map((v) => perToolsetValue(v, false));
  let upstream = (flags.upstream ?? []).map((v) => perToolsetValue(v, true));
  let credentialsFile = flags.upstreamCredentials;
  if (resume && replay.length === 0 && upstream.length === 0 && credentialsFile === undefined) {
    const recorded = recordedSettings(resume.out);
    if (recorded) {
      const hidden = recorded.upstream?.find((u) => u.value.includes("…"));
      if (hidden) throw new UsageError(`the run's real API URL had query values, which run.json keeps hidden (${hidden.value}): give it again with --upstream`);
      replay = recorded.replay ?? [];
      upstream = recorded.upstream ?? [];
      credentialsFile = recorded.credentials;
    }
  }
  if (replay.length === 0 && upstream.length === 0 && credentialsFile === undefined) {
    if (flags.upstreamTimeout !== undefined) throw new UsageError("--upstream-timeout goes with --upstream URL");
    return undefined;
  }
  const timeoutMs = parseInteger("--upstream-timeout", flags.upstreamTimeout, 1);
  if (timeoutMs !== undefined && upstream.length === 0) throw new UsageError("--upstream-timeout goes with --upstream URL");
  const settings: ToolResponseSettings = {
    ...(replay.length > 0 ? { replay } : {}),
    ...(upstream.length > 0 ? { upstream } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
  if (credentialsFile !== undefined) {
    const read = await loadUpstreamCredentials(credentialsFile);
    if (!read.ok) throw new UserError(read.errors.join("\n"));
    settings.credentials = read.value;
    settings.credentialsFile = credentialsFile;
  }
  return settings;
}

/** Attaches recordings and real APIs to toolsets, or fails with a user error naming what is wrong. */
export async function attachToolResponses(toolsets: readonly EpisodeToolset[], settings: ToolResponseSettings, io: CliIO): Promise<ToolResponses> {
  const attached = await withToolResponses(toolsets, settings);
  if (!attached.ok) {
    // A missing or unreadable file is the user's to fix (exit 1); a flag that does not fit the run is a usage error (exit 2).
    const files = attached.errors.some((e) => /no cassette at|cannot read/.test(e));
    const message = attached.errors.join("\n");
    throw files ? new UserError(message) : new UsageError(message);
  }
  for (const c of attached.value.cassettes) {
    io.err(`toolsim: tool answers: ${c.recordings} recording${c.recordings === 1 ? "" : "s"} from ${c.file}${c.skipped > 0 ? ` (${c.skipped} line(s) skipped: not recordings)` : ""}\n`);
  }
  for (const [name, r] of attached.value.http) io.err(`toolsim: tool answers: ${name} from the real API at ${r.shownUrl}\n`);
  for (const w of attached.value.warnings) io.err(`toolsim: warning: ${w}\n`);
  return attached.value;
}

/**
 * Reports the real-API calls of a run; returns false when there were some and none was answered (a dead
 * endpoint: the run did not do what was asked).
 */
export function reportUpstream(responses: ToolResponses | undefined, io: CliIO): boolean {
  if (!responses || responses.http.size === 0) return true;
  const s = upstreamStats(responses.http);
  if (s.calls === 0) return true;
  if (s.failures === s.calls) {
    io.err(`toolsim: the real API answered none of ${s.calls} call${s.calls === 1 ? "" : "s"}: ${s.lastFailure ?? "unreachable"}\n`);
    return false;
  }
  if (s.failures > 0) io.err(`toolsim: warning: ${s.failures} of ${s.calls} real-API calls failed (502/504), last: ${s.lastFailure ?? ""}\n`);
  return true;
}
