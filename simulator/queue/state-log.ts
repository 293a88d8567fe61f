/**
 * The state log of a distributed run: one Redis stream per epoch holding, in one total order, every decision that
 * later episodes depend on (see README.md). The coordinator writes `enter` (episodes in index order) and `load`
 * (what a resumed run remembers); workers write their episodes' decisions through {@link FENCED_WRITE}, which
 * accepts a write only from the worker holding the episode's job lock, in the run's current epoch.
 */
import type { RunCacheRecord } from "../../agents/llm/llm-run-cache.js";
import type { RunInstruction } from "../../agents/llm/llm-run-instructions.js";
import type { ResponderAnswer } from "../../specs/respond/responder.js";

/** One entry of the state log. `w` is the writer: the job token of the episode attempt that made the decision. */
export type LogEntry =
  | { k: "enter"; i: number }
  | { k: "load"; instructions?: RunInstruction[]; cache?: RunCacheRecord[] }
  | { k: "add"; i: number; r: number; text: string; last: boolean; w: string }
  | { k: "ipass"; i: number; r: number; last: boolean; w: string }
  | { k: "decl"; i: number; n: number; key: string; w: string }
  | { k: "settle"; i: number; n: number; answer?: ResponderAnswer; error?: string; w: string }
  | { k: "finish"; i: number; w: string };

/** The field of a stream entry that holds the JSON of a {@link LogEntry}. */
export const LOG_FIELD = "e";

/** Reads a stream entry's fields (`[field, value, ...]`) as a log entry; undefined for anything else. */
export function decodeEntry(fields: readonly string[]): LogEntry | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] !== LOG_FIELD) continue;
    try {
      const e = JSON.parse(fields[i + 1] as string) as LogEntry;
      return typeof e === "object" && e !== null && typeof e.k === "string" ? e : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Compares two stream ids (`<ms>-<seq>`): negative when `a` comes first. */
export function compareIds(a: string, b: string): number {
  const [am = "0", as = "0"] = a.split("-");
  const [bm = "0", bs = "0"] = b.split("-");
  if (am.length !== bm.length) return am.length - bm.length;
  if (am !== bm) return am < bm ? -1 : 1;
  return Number(as) - Number(bs);
}

/**
 * A write of a worker, accepted only while it holds the episode's job lock and the run is in its epoch (a worker
 * that lost its lock, or a run the coordinator restarted, can change nothing):
 *
 *   KEYS: lock, run hash, target (the log stream or the episode's tape list), spend hash
 *   ARGV: token, epoch, mode (`x`: XADD the payload, `l`: RPUSH it and add calls and cost to the spend), payload, calls, cost
 *
 * Returns the new stream id (`x`) or 1 (`l`); 0 when the lock is not the writer's, -1 when the epoch has changed.
 */
export const FENCED_WRITE = {
  numberOfKeys: 4,
  lua: `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[2], 'epoch') ~= ARGV[2] then return -1 end
if ARGV[3] == 'x' then
  return redis.call('XADD', KEYS[3], '*', '${LOG_FIELD}', ARGV[4])
end
redis.call('RPUSH', KEYS[3], ARGV[4])
if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[4], 'calls', ARGV[5]) end
if tonumber(ARGV[6]) > 0 then redis.call('HINCRBYFLOAT', KEYS[4], 'cost', ARGV[6]) end
return 1
`,
} as const;
