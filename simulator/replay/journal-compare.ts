import { plainPlaceholders } from "../../specs/redact-secrets.js";
import type { SimEvent } from "../core/events.js";
import { isObject } from "../../specs/json-object.js";

/** Where two events differ: the path of the first differing field, and its values in each. */
export interface FieldDifference {
  /** Dotted path (`result.body.items[0].id`); `(event)` when one side has no event at all. */
  path: string;
  old: unknown;
  new: unknown;
}

/** The first difference between a recorded episode and its replay. */
export interface EventDifference extends FieldDifference {
  episodeId: string;
  index: number;
  seq: number;
  /** The type of the recorded event (or of the new one when the recording has none there). */
  type: string;
}

/** Fields that are times and may differ between a run and its replay. */
function isTimeField(event: Record<string, unknown>, key: string): boolean {
  return key === "at" || (event["type"] === "llm.call" && key === "durationMs");
}

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

/** The first difference between two JSON values, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = "", skip?: (key: string) => boolean): FieldDifference | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length || i >= b.length) return { path: join(path, i), old: a[i], new: b[i] };
      const d = firstDifference(a[i], b[i], join(path, i));
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    for (const k of keys) {
      if (skip?.(k)) continue;
      const va = a[k];
      const vb = b[k];
      if (va === undefined && vb === undefined) continue;
      const d = firstDifference(va, vb, join(path, k));
      if (d) return d;
    }
    return undefined;
  }
  if (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) return undefined;
  // Secrets are written as numbered placeholders; which number a secret got is not content (a replay of a
  // redacted journal cannot tell that a recorded placeholder and a value computed again were the same secret).
  if (typeof a === "string" && typeof b === "string" && plainPlaceholders(a) === plainPlaceholders(b)) return undefined;
  return { path: path === "" ? "(value)" : path, old: a, new: b };
}

/** The first difference between two events, times excepted (`at`, and `durationMs` of model calls). */
export function eventDifference(recorded: SimEvent | undefined, replayed: SimEvent | undefined): FieldDifference | undefined {
  if (recorded === undefined && replayed === undefined) return undefined;
  if (recorded === undefined || replayed === undefined) return { path: "(event)", old: recorded, new: replayed };
  const r = recorded as unknown as Record<string, unknown>;
  return firstDifference(recorded, replayed, "", (k) => isTimeField(r, k));
}

/** The first differing event of two versions of one episode (compared in order), if any. */
export function episodeDifference(recorded: readonly SimEvent[], replayed: readonly SimEvent[], upTo = Number.POSITIVE_INFINITY): EventDifference | undefined {
  const n = Math.min(Math.max(recorded.length, replayed.length), upTo);
  for (let i = 0; i < n; i++) {
    const a = recorded[i];
    const b = replayed[i];
    const d = eventDifference(a, b);
    if (d) {
      const e = (a ?? b) as SimEvent;
      const first = recorded[0] ?? replayed[0];
      return { episodeId: e.episodeId, index: first?.type === "episode.started" ? first.index : 0, seq: e.seq, type: e.type, ...d };
    }
  }
  return undefined;
}

/** A value shown in one line, cut to a readable length. */
export function showValue(v: unknown, max = 120): string {
  const text = v === undefined ? "(absent)" : typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line naming an event difference: episode, seq, event type, field path, old vs new. */
export function formatDifference(d: EventDifference): string {
  return `episode ${d.episodeId} (index ${d.index}), seq ${d.seq} (${d.type}), field ${d.path}: old ${showValue(d.old)} vs new ${showValue(d.new)}`;
}
