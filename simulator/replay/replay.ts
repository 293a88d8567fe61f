import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Level } from "../../agents/roles/agent-context.js";
import { Cassette } from "../../agents/llm/cassette.js";
import type { LlmRole } from "../../agents/llm/llm-gateway.js";
import type { RunInstruction } from "../../agents/llm/llm-run-instructions.js";
import { OfflineAssistant } from "../../agents/assistant/offline/offline-assistant.js";
import { RuleTester } from "../../agents/tester/offline-tester.js";
import { OfflineUser } from "../../agents/user/offline-user.js";
import type { AssistantAgent, UserAgent } from "../../agents/roles/roles.js";
import { SimulatedExecutor } from "../../agents/executor/simulated-executor.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { redactEvents, secretPolicyOf } from "../runs/secret-policy.js";
import type { SecretPolicy } from "../../specs/redact-secrets.js";
import { loadToolsets } from "../../toolsets/load-toolset.js";
import { EventBus, type Clock } from "../core/event-bus.js";
import type { SimEvent } from "../core/events.js";
import { JournalAgents } from "./journal-agents.js";
import { episodeDifference, type EventDifference } from "./journal-compare.js";
import { scriptOf, type EpisodeScript } from "./journal-script.js";
import type { LlmRunOptions } from "../core/llm-agents.js";
import { createRoleAgents, type RoleAgents } from "./replay-agents.js";
import { runEpisode, type EpisodeAgents } from "../core/run-episode.js";
import { synthesisSettingsOf, workOf, type LlmSettings, type SynthesisSettings } from "../core/run-config.js";
import { readJournal } from "../runs/read-journal.js";
import { RunStore } from "../runs/run-store.js";
import { RUN_FILES, type RunInfo } from "../runs/run-info.js";
import type { EpisodeBinding } from "../core/simulation.js";

/** Where a replayed run's tool results and verdicts come from. */
export type ReplayResults = "recompute" | "journal";

/** A fork: from which episode(s) and turn the new agents take over. */
export interface ForkPoint {
  /** The episode index to fork, or `all` (every episode at the same turn). */
  episode: number | "all";
  /** The first turn played by the new agents (turns: user instructions and replies, assistant steps; from 0). */
  turn: number;
  /**
   * The new user and assistant, made per forked episode. Absent (or a role left out): the role's model of
   * `ReplayOptions.llm` when it has one (recorded calls answered from the cassette, new ones from the endpoint),
   * else the offline agent.
   */
  agents?: (binding: EpisodeBinding) => { user?: UserAgent; assistant?: AssistantAgent };
}

/** Options of {@link replayRun}. */
export interface ReplayOptions {
  /** The recorded run folder. */
  source: string;
  /** Where to write the new run (absent: compare only). */
  out?: string;
  /**
   * `recompute` (default): the executor and the tester run again (offline, or from the cassette for LLM roles)
   * and their results are compared with the journal's. `journal`: results and verdicts are taken from the
   * journal (a strict re-publication that checks the loop alone; no executor runs).
   */
  results?: ReplayResults;
  /** Toolsets to use instead of the files recorded in run.json. */
  toolsets?: EpisodeToolset[];
  /** Go on when a toolset's spec hash differs from the recorded one (divergences will show it). */
  allowSpecChange?: boolean;
  fork?: ForkPoint;
  /**
   * The models of the run's roles (from run.json's settings, with keys and endpoints from the environment):
   * the executor and tester of LLM runs answer from the recorded cassette; in a fork, the user and assistant
   * models play the new turns. Absent: every role offline.
   */
  llm?: Omit<LlmRunOptions, "cassette">;
  clock?: Clock;
  /** Sees every episode once written. */
  onEpisode?: (index: number, difference: EventDifference | undefined) => void;
  /** Differences kept in the report (the first of each diverged episode); default 50. */
  maxDifferences?: number;
  /** Synthesis caps and per-call time budget replacing the recorded ones, key by key (absent: as recorded). */
  synthesis?: SynthesisSettings;
}

/** The outcome of a replay. */
export interface ReplayReport {
  source: string;
  out?: string;
  mode: ReplayResults;
  episodes: number;
  /** No event differs except times (for a fork: within the kept prefixes). */
  equal: boolean;
  diverged: number;
  /** The first differing event of the run. */
  first?: EventDifference;
  /** The first differing event of each diverged episode. */
  differences: EventDifference[];
  fork?: { episode: number | "all"; turn: number; forked: number; prefixEvents: number; newEvents: number };
}

/** The run.json of a run folder. */
export function readRunInfo(dir: string): RunInfo {
  const path = join(dir, RUN_FILES.run);
  if (!existsSync(path)) throw new ToolsimError("run.not-a-run", `${dir} is not a toolsim run: it has no ${RUN_FILES.run}`);
  try {
    return JSON.parse(readFileSync(path, "utf8")) as RunInfo;
  } catch (e) {
    throw new ToolsimError("run.corrupt", `${path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The LLM settings recorded in a run's config (absent: every role offline). */
export function recordedLlmSettings(info: RunInfo): LlmSettings | undefined {
  const llm = info.config["llm"];
  return llm !== null && typeof llm === "object" && !Array.isArray(llm) ? (llm as LlmSettings) : undefined;
}

/**
 * The toolsets of a recorded run, from the files run.json names (or the ones given), each checked against the
 * spec hash recorded for it. A missing file or a changed spec is an error unless `allowSpecChange`.
 */
export async function loadRunToolsets(info: RunInfo, options: { toolsets?: EpisodeToolset[]; allowSpecChange?: boolean } = {}): Promise<{ toolsets: Map<string, EpisodeToolset>; warnings: string[] }> {
  const warnings: string[] = [];
  let list = options.toolsets;
  if (!list) {
    const files = info.toolsetFiles;
    if (!files || files.length === 0) throw new ToolsimError("replay.no-toolsets", `run ${info.id} does not record its toolset files (run.json toolsetFiles): give them with --toolsets`);
    const missing = files.filter((f) => !existsSync(f));
    if (missing.length > 0) throw new ToolsimError("replay.no-toolsets", `the toolset files of run ${info.id} are gone: ${missing.join(", ")} (give them with --toolsets)`);
    const loaded = await loadToolsets(files);
    if (loaded.problems.length > 0) throw new ToolsimError("replay.bad-toolset", `the toolsets of run ${info.id} do not load: ${loaded.problems.map((p) => `${p.file}${p.pointer}: ${p.message}`).join("; ")}`);
    list = loaded.toolsets;
  }
  const toolsets = new Map(list.map((t) => [t.name, t]));
  const changed: string[] = [];
  for (const [name, hash] of Object.entries(info.specHashes ?? {})) {
    const t = toolsets.get(name);
    if (!t) {
      warnings.push(`toolset ${name} of the recording is not loaded`);
      continue;
    }
    if (t.catalog.spec.hash !== hash) changed.push(`${name} (recorded ${hash.slice(0, 19)}…, now ${t.catalog.spec.hash.slice(0, 19)}…)`);
  }
  if (changed.length > 0) {
    const message = `the spec of ${changed.join(", ")} changed since the run was recorded`;
    if (!options.allowSpecChange) throw new ToolsimError("replay.spec-changed", `${message}; replay anyway with --allow-spec-change`);
    warnings.push(message);
  }
  return { toolsets, warnings };
}

/** The seq where turn `turn` of a script starts (the end of the episode when it has fewer turns). */
export function forkSeq(script: EpisodeScript, turn: number): number {
  const t = script.turns[turn];
  if (t) return t.seq;
  return Number.POSITIVE_INFINITY;
}

/**
 * Checks a fork point against the recorded run before anything is written: the episode must exist and the turn
 * must be one the episode (with `all`: at least one episode) recorded, so that the fork plays something new.
 * Throws `replay.fork-range` naming the valid range.
 */
export async function checkForkPoint(source: string, fork: Pick<ForkPoint, "episode" | "turn">): Promise<void> {
  const turns = new Map<number, number>();
  for await (const recorded of readJournal(source)) {
    const script = scriptOf(recorded);
    turns.set(script.index, script.turns.length);
  }
  const count = turns.size;
  if (count === 0) throw new ToolsimError("replay.fork-range", `${source} holds no episodes to fork`);
  if (fork.episode !== "all") {
    const n = turns.get(fork.episode);
    if (n === undefined) {
      const indices = [...turns.keys()].sort((a, b) => a - b);
      throw new ToolsimError("replay.fork-range", `--from-episode ${fork.episode}: the run has ${count} episode${count === 1 ? "" : "s"} (${indices[0]}-${indices[indices.length - 1]}), or give all`);
    }
    if (fork.turn >= n) {
      throw new ToolsimError("replay.fork-range", `--from-turn ${fork.turn}: episode ${fork.episode} has ${n} turn${n === 1 ? "" : "s"} (0-${n - 1}); a fork from turn ${n} or later would play nothing new`);
    }
    return;
  }
  const longest = Math.max(...turns.values());
  if (fork.turn >= longest) {
    throw new ToolsimError("replay.fork-range", `--from-turn ${fork.turn}: no episode has that many turns (the longest has ${longest}: 0-${longest - 1}); a fork there would play nothing new`);
  }
}

/** Creates the replay's run folder; a folder that is not empty is refused with a hint that fits replay (which does not resume). */
async function createReplayStore(out: string, source: string, info: RunInfo, secrets: SecretPolicy): Promise<RunStore> {
  try {
    return await RunStore.create(out, info, { command: "replay --out", secrets });
  } catch (e) {
    if (e instanceof ToolsimError && e.code === "run.exists") {
      const same = resolve(out) === resolve(source);
      throw new ToolsimError(
        "run.exists",
        same
          ? `--out ${out} is the run being replayed: a replay writes a new run; choose another folder with --out (or leave --out out to compare only)`
          : `the folder ${out} is not empty: a replay writes a new run; choose another folder with --out (or remove ${out} first)`,
      );
    }
    throw e;
  }
}

/**
 * Replays a recorded run: every episode goes through the episode loop again with journal agents that say what
 * the journal recorded, the executor and tester run again (or answer from the journal), and the new events are
 * compared with the recorded ones. With `fork`, the chosen episodes keep their recorded prefix (written byte for
 * byte) up to a turn and the new agents play the rest, with the episode's state restored by re-running the
 * prefix's tool calls on a fresh state.
 */
export async function replayRun(options: ReplayOptions): Promise<ReplayReport> {
  const info = readRunInfo(options.source);
  // Tool answers that came from recordings or the real API (generate --tool-cassette, --upstream) are not the
  // simulator's to recompute: a replay takes them, and the verdicts, from the journal unless told otherwise.
  const mode = options.results ?? (info.config["responses"] !== undefined && !options.fork ? "journal" : "recompute");
  if (options.fork && mode === "journal") throw new ToolsimError("replay.fork-journal", "a fork re-runs the recorded tool calls to restore the state: it cannot take results from the journal");
  const { toolsets } = await loadRunToolsets(info, { ...(options.toolsets ? { toolsets: options.toolsets } : {}), ...(options.allowSpecChange ? { allowSpecChange: true } : {}) });
  const config = info.config;
  const level = (config["level"] === "retrieve" || config["level"] === "plan" ? config["level"] : "call") as Level;
  const maxSteps = Number.isSafeInteger(config["maxSteps"]) ? (config["maxSteps"] as number) : 8;
  // The executor runs with the run's caps and time budget, except those the options replace (then recorded so).
  const changed = options.synthesis !== undefined && Object.keys(options.synthesis).length > 0;
  const synthesis = changed ? { ...synthesisSettingsOf(config), ...options.synthesis } : synthesisSettingsOf(config);
  const work = workOf(synthesis);
  const written = {
    ...info.config,
    ...(changed ? { synthesis } : {}),
    ...(options.fork ? { fork: { of: options.source, episode: options.fork.episode, turn: options.fork.turn } } : {}),
  };

  if (options.fork) await checkForkPoint(options.source, options.fork);
  // The journal holds secrets redacted: the replayed events are compared (and written) redacted the same way (the
  // executor takes a recorded call's placeholders for the secrets they stand for).
  const secrets = secretPolicyOf([...toolsets.values()]);
  const store = options.out !== undefined ? await createReplayStore(options.out, options.source, { ...info, createdAt: (options.clock ?? (() => new Date()))().toISOString(), config: written }, secrets) : undefined;
  const sourceCassette = join(options.source, "cassette.jsonl");
  let cassette: Cassette | undefined;
  let roleAgents: RoleAgents | undefined;
  try {
    // The executor and tester of LLM runs answer from the recorded cassette (a fork records its new calls beside it).
    const llm = options.llm;
    const recomputeRoles: LlmRole[] = mode === "recompute" ? ["executor", "tester"] : [];
    const forkRoles: LlmRole[] = options.fork ? ["user", "assistant"] : [];
    const needed = llm ? [...recomputeRoles, ...forkRoles].filter((r) => llm.models[r] !== undefined) : [];
    if (needed.length > 0 || options.fork) {
      if (store && existsSync(sourceCassette)) copyFileSync(sourceCassette, join(store.dir, "cassette.jsonl"));
      if (store) cassette = await Cassette.open(join(store.dir, "cassette.jsonl"));
      else if (existsSync(sourceCassette)) cassette = await Cassette.load(sourceCassette);
      else cassette = new Cassette();
      if (llm && needed.length > 0) roleAgents = createRoleAgents({ llm, roles: needed, cassette, fallback: options.fork !== undefined });
    } else if (store && existsSync(sourceCassette)) copyFileSync(sourceCassette, join(store.dir, "cassette.jsonl"));

    const report: ReplayReport = {
      source: options.source,
      ...(options.out !== undefined ? { out: options.out } : {}),
      mode,
      episodes: 0,
      equal: true,
      diverged: 0,
      differences: [],
      ...(options.fork ? { fork: { episode: options.fork.episode, turn: options.fork.turn, forked: 0, prefixEvents: 0, newEvents: 0 } } : {}),
    };
    const maxDifferences = options.maxDifferences ?? 50;
    for await (const recorded of readJournal(options.source)) {
      const script = scriptOf(recorded);
      const index = script.index;
      const forkHere = options.fork !== undefined && (options.fork.episode === "all" || options.fork.episode === index);
      const cut = forkHere && options.fork ? forkSeq(script, options.fork.turn) : Number.POSITIVE_INFINITY;
      const bus = new EventBus(options.clock);
      const published: SimEvent[] = [];
      bus.on("*", (e) => void published.push(e));
      const cleanups: Array<() => void> = [];
      const binding: EpisodeBinding = {
        onFinish: (cleanup) => void cleanups.push(cleanup),
        runId: info.id,
        episodeId: script.episodeId,
        index,
        reportLlmCall: (payload) =>
          void bus.publish("llm.call", { runId: info.id, episodeId: script.episodeId, from: payload.role, to: "simulator" }, payload),
      };
      // A fork's new user sees the instructions kept as recorded (earlier episodes', and this one's prefix), as the run's user did.
      if (options.fork && roleAgents) roleAgents.keep(keptInstructions(recorded, index, cut));
      const role = roleAgents?.factory(binding) ?? {};
      const live = forkHere && options.fork ? (options.fork.agents?.(binding) ?? {}) : undefined;
      const journal = new JournalAgents(script, {
        publishLlm: (c) => void bus.publish("llm.call", { runId: info.id, episodeId: script.episodeId, from: c.from, to: c.to }, c.payload),
        ...(forkHere && options.fork
          ? { fromTurn: options.fork.turn, live: { user: live?.user ?? role.user ?? new OfflineUser(), assistant: live?.assistant ?? role.assistant ?? new OfflineAssistant() } }
          : {}),
      });
      const agents: EpisodeAgents = {
        user: journal.user,
        assistant: journal.assistant,
        executor: mode === "journal" ? journal.executor : (role.executor ?? new SimulatedExecutor()),
        tester: mode === "journal" ? journal.tester : (role.tester ?? new RuleTester()),
      };
      const sets: EpisodeToolset[] = [];
      const missing = script.toolsets.filter((n) => !toolsets.has(n));
      for (const n of script.toolsets) {
        const t = toolsets.get(n);
        if (t) sets.push(t);
      }
      if (missing.length > 0 || sets.length === 0) {
        throw new ToolsimError("replay.no-toolsets", `episode ${script.episodeId} plays in toolsets that are not loaded: ${missing.join(", ") || "(none recorded)"}`);
      }
      await runEpisode({ runId: info.id, index, runSeed: info.seed, level, toolsets: sets, maxSteps, ...(work ? { work } : {}) }, agents, bus);
      for (const cleanup of cleanups) cleanup();
      const replayed = [...redactEvents(published, secrets)];
      let out: SimEvent[] = replayed;
      const difference = episodeDifference(recorded, replayed, forkHere ? prefixLength(recorded, cut) : Number.POSITIVE_INFINITY);
      if (forkHere && report.fork) {
        report.fork.forked++;
        // The kept prefix is written as recorded, byte for byte (times included), when it replayed equal.
        const keep = prefixLength(recorded, cut);
        if (!difference) out = [...recorded.slice(0, keep), ...replayed.slice(keep)];
        report.fork.prefixEvents += keep;
        report.fork.newEvents += Math.max(0, replayed.length - keep);
      }
      if (difference) {
        report.equal = false;
        report.diverged++;
        report.first ??= difference;
        if (report.differences.length < maxDifferences) report.differences.push(difference);
      }
      report.episodes++;
      store?.appendEpisode(out);
      options.onEpisode?.(index, difference);
    }
    if (store) writeFileSync(join(store.dir, "replay.json"), `${JSON.stringify(report, null, 2)}\n`);
    return report;
  } finally {
    cassette?.close();
    store?.close();
  }
}

/** The instructions of a recorded episode given before the seq `cut`. */
function keptInstructions(events: readonly SimEvent[], index: number, cut: number): RunInstruction[] {
  const kept: RunInstruction[] = [];
  for (const e of events) if (e.type === "user.instruction" && e.seq < cut) kept.push({ episode: index, request: e.request, text: e.text });
  return kept;
}

/** How many recorded events come before the seq `cut`. */
function prefixLength(events: readonly SimEvent[], cut: number): number {
  let n = 0;
  while (n < events.length && (events[n] as SimEvent).seq < cut) n++;
  return n;
}
