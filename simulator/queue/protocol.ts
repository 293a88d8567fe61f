/**
 * The protocol between a distributed run's coordinator (`generate --queue`) and its workers (`toolsim worker`):
 * the Redis keys, the BullMQ job of an episode and its result. See README.md in this folder for the design.
 */
import type { RunCacheRecord } from "../../agents/llm/llm-run-cache.js";
import type { SimEvent } from "../core/events.js";

/** Version of the protocol: a worker refuses a run described with another one. */
export const PROTOCOL_VERSION = 1;

/** BullMQ's key prefix: a run's queue lives under `toolsim:bull:<queue>:*`. */
export const BULL_PREFIX = "toolsim:bull";

/** The Redis keys of toolsim's own data (beside BullMQ's). */
export const KEYS = {
  /** SET of the queues of the runs in progress (what workers discover). */
  runs: "toolsim:runs",
  /** HASH worker id -> {@link WorkerBeat} (JSON). */
  workers: "toolsim:workers",
  /** HASH of a run: `description` ({@link RunDescription} JSON), `epoch`, `committed`, `entered`, `coordinator`. */
  run: (queue: string) => `toolsim:run:${queue}`,
  /** STREAM of the run's order-dependent decisions in one epoch (see `state-log.ts`). */
  log: (queue: string, epoch: number) => `toolsim:run:${queue}:log:${epoch}`,
  /** LIST of the model calls an episode made (cassette entries, JSON): a retried episode replays them first. */
  tape: (queue: string, index: number) => `toolsim:run:${queue}:tape:${index}`,
  /** HASH `calls`, `cost`: what the run's model calls cost so far, over all workers (budgets). */
  spend: (queue: string) => `toolsim:run:${queue}:spend`,
  /** The lock BullMQ keeps on a job while a worker holds it (value: the worker's token). */
  lock: (queue: string, jobId: string) => `${BULL_PREFIX}:${queue}:${jobId}:lock`,
} as const;

/** The BullMQ job id of episode `index` in an epoch (a new epoch never reuses an earlier one's ids). */
export function jobIdOf(epoch: number, index: number): string {
  return `e${epoch}-${index}`;
}

/** The epoch and index of a job id made by {@link jobIdOf}, or undefined. */
export function parseJobId(id: string | undefined): { epoch: number; index: number } | undefined {
  const m = id === undefined ? null : /^e(\d+)-(\d+)$/.exec(id);
  return m ? { epoch: Number(m[1]), index: Number(m[2]) } : undefined;
}

/** What a worker needs to run a run's episodes, written by the coordinator to `KEYS.run(queue)` (field `description`). */
export interface RunDescription {
  v: number;
  queue: string;
  runId: string;
  /** The toolsim version of the coordinator (a worker with another one warns). */
  toolsim: string;
  seed: number;
  episodes: number;
  level: "call" | "retrieve" | "plan";
  maxSteps: number;
  /** The run's extra settings as in run.json (`llm`: the model settings that decide the content). */
  config: Record<string, unknown>;
  /** The run's toolsets in order: the name in the run, the content hash, and the file the coordinator loaded. */
  toolsets: { name: string; hash: string; file?: string }[];
  /** True for `generate --replay`: workers answer model calls from the recording shipped in each episode's tape, never an endpoint. */
  replay: boolean;
  /** Which run-wide memories the episodes share (their decisions go through the state log). */
  shared: { instructions: boolean; cache: boolean };
}

/** The data of an episode's BullMQ job. */
export interface EpisodeJob {
  epoch: number;
  index: number;
  /** The id of the episode's `enter` entry in the state log (a worker first reads the log up to it). */
  log?: string;
}

/** What a worker returns for an episode (the job's return value). */
export interface EpisodeResult {
  epoch: number;
  index: number;
  /** The worker's name (per-worker counts). */
  worker: string;
  /** The episode's events, from `episode.started` to `episode.finished`. */
  events: SimEvent[];
  /** The episode's model calls for the run's cassette, as its lines (those replayed from its tape included). */
  cassette?: string[];
  /** The executor's run-cache answers the episode got (`executor-cache.jsonl`). */
  cache?: RunCacheRecord[];
  /** Model calls made against an endpoint, and answered from the tape (a retried episode, or `--replay`). */
  calls?: { live: number; replayed: number };
}

/** A worker's heartbeat in `KEYS.workers`. */
export interface WorkerBeat {
  name: string;
  host: string;
  pid: number;
  concurrency: number;
  /** Episodes running now, and episodes waiting for an earlier episode's decision (they do not count against the concurrency). */
  running: number;
  blocked: number;
  /** Queues served, and refused with the reason. */
  serving: string[];
  refused: Record<string, string>;
  /** Increases with every beat (liveness is judged by its change, whatever the machines' clocks say). */
  beat: number;
  toolsim: string;
}
