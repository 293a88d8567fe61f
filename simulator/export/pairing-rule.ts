import type { CorpusRecord } from "../runs/corpus-projection.js";
import { contentHash } from "../runs/run-info.js";
import { stableStringify } from "../../specs/stable-stringify.js";

/** Why two episodes were paired: the same instruction text, or the same plan. */
export type PairingRule = "instruction" | "plan";

/** An episode as the pairing sees it: where it is, how it ended, and its keys. */
export interface PairCandidate {
  /** Which run of the pool (0: the exported run; then `--pair-with` runs in order). */
  run: number;
  index: number;
  episodeId: string;
  outcome: "accepted" | "rejected" | "error";
  /** Hash of the normalized instruction texts; undefined without instructions. */
  instructionKey?: string;
  /** Hash of the plan's steps (toolset, tool, arguments); undefined without a plan. */
  planKey?: string;
}

/** Two episodes to pair: an accepted one (chosen) and a rejected one. */
export interface PlannedPair {
  chosen: PairCandidate;
  rejected: PairCandidate;
  rule: PairingRule;
}

const hash = (text: string): string => contentHash(text).slice("sha256:".length, "sha256:".length + 24);

/** The key of an episode's instructions: their texts lower-cased, whitespace collapsed, in request order. */
export function instructionKey(record: Pick<CorpusRecord, "instructions">): string | undefined {
  if (record.instructions.length === 0) return undefined;
  return hash(record.instructions.map((i) => i.text.toLowerCase().replace(/\s+/g, " ").trim()).join("\n"));
}

/** The key of an episode's plan: each request's steps as toolset, tool and arguments (phrasing and style aside). */
export function planKey(record: Pick<CorpusRecord, "plan">): string | undefined {
  const requests = record.plan?.requests ?? [];
  if (requests.length === 0 || requests.every((r) => r.steps.length === 0)) return undefined;
  return hash(stableStringify(requests.map((r) => r.steps.map((s) => [s.toolset, s.tool, s.args]))));
}

/** The pairing view of an episode. */
export function pairCandidate(run: number, record: CorpusRecord): PairCandidate {
  const ik = instructionKey(record);
  const pk = planKey(record);
  return {
    run,
    index: record.meta.index,
    episodeId: record.meta.episodeId,
    outcome: record.meta.outcome,
    ...(ik !== undefined ? { instructionKey: ik } : {}),
    ...(pk !== undefined ? { planKey: pk } : {}),
  };
}

/**
 * The pairing rule of `export --format dpo`. Every episode the tester rejected (episodes that broke off with an
 * error are not the assistant's doing and are left out) is paired with at most one accepted episode: one with
 * the same instructions (lower-cased, whitespace collapsed) if there is any, otherwise one with the same plan
 * (the same steps with the same arguments, however worded). When several accepted episodes match, the rejected
 * ones of that key take them in turn (round robin, in pool order), so pairs spread over the accepted episodes.
 * Pairs come out in the order of their rejected episode.
 */
export function planPairs(candidates: readonly PairCandidate[]): PlannedPair[] {
  const accepted = { instruction: new Map<string, PairCandidate[]>(), plan: new Map<string, PairCandidate[]>() };
  for (const c of candidates) {
    if (c.outcome !== "accepted") continue;
    if (c.instructionKey !== undefined) pushTo(accepted.instruction, c.instructionKey, c);
    if (c.planKey !== undefined) pushTo(accepted.plan, c.planKey, c);
  }
  const turns = new Map<string, number>();
  const pairs: PlannedPair[] = [];
  for (const r of candidates) {
    if (r.outcome !== "rejected") continue;
    for (const rule of ["instruction", "plan"] as const) {
      const key = rule === "instruction" ? r.instructionKey : r.planKey;
      const group = key !== undefined ? accepted[rule].get(key) : undefined;
      if (!group || group.length === 0) continue;
      const slot = `${rule}:${key}`;
      const k = turns.get(slot) ?? 0;
      turns.set(slot, k + 1);
      pairs.push({ chosen: group[k % group.length]!, rejected: r, rule });
      break;
    }
  }
  return pairs;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
