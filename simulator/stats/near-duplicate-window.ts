import { jaccard, normalizedTokens, shingles } from "../../agents/language/near-duplicates.js";

/** Options of {@link NearDuplicateWindow}. */
export interface NearDuplicateWindowOptions {
  /** Similarity at or above which two texts are near-duplicates (default 0.8). */
  threshold?: number;
  /** How many of the most recent texts are kept to compare with (default 20000). */
  window?: number;
}

const BANDS = 8;
const ROWS = 4;
const HASHES = BANDS * ROWS;
/** Per-hash seeds of the MinHash family (odd constants, fixed: the index is deterministic). */
const SEEDS = Array.from({ length: HASHES }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) | 1) >>> 0);

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mix(h: number, seed: number): number {
  let x = (h ^ seed) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The band keys of a set's MinHash signature (8 bands of 4 rows: pairs at Jaccard 0.8 collide in a band 98.5% of the time). */
function bandKeys(set: ReadonlySet<string>, prefix: string): string[] {
  if (set.size === 0) return [`${prefix}:empty`];
  const mins = new Array<number>(HASHES).fill(0xffffffff);
  for (const item of set) {
    const h = fnv1a(item);
    for (let k = 0; k < HASHES; k++) {
      const v = mix(h, SEEDS[k] as number);
      if (v < (mins[k] as number)) mins[k] = v;
    }
  }
  const keys: string[] = [];
  for (let b = 0; b < BANDS; b++) keys.push(`${prefix}${b}:${mins.slice(b * ROWS, b * ROWS + ROWS).join(",")}`);
  return keys;
}

interface Entry {
  text: string;
  tokens: Set<string>;
  shingles: Set<string>;
  keys: string[];
}

/**
 * The most recent texts of a stream, for near-duplicate checks in bounded time and memory: candidates come
 * from MinHash bands (locality-sensitive hashing) over the texts' word sets and word-bigram sets, and are then
 * compared exactly with the similarity of `agents/near-duplicates.ts` (the larger of the two Jaccards).
 * Near-duplicates below the threshold's band are found with high probability, not certainty.
 */
export class NearDuplicateWindow {
  readonly threshold: number;
  readonly window: number;
  private readonly entries = new Map<number, Entry>();
  private readonly buckets = new Map<string, Set<number>>();
  private next = 0;

  constructor(options: NearDuplicateWindowOptions = {}) {
    this.threshold = options.threshold ?? 0.8;
    this.window = Math.max(1, options.window ?? 20_000);
  }

  /**
   * Checks a text against the window, then adds it. Returns the most similar earlier text when it is a
   * near-duplicate.
   */
  check(text: string): { text: string; similarity: number } | undefined {
    const tokens = new Set(normalizedTokens(text));
    const sh = shingles(text);
    const keys = [...bandKeys(tokens, "t"), ...bandKeys(sh, "s")];
    const candidates = new Set<number>();
    for (const k of keys) for (const id of this.buckets.get(k) ?? []) candidates.add(id);
    let best: { text: string; similarity: number } | undefined;
    for (const id of candidates) {
      const e = this.entries.get(id);
      if (!e) continue;
      const s = Math.max(jaccard(tokens, e.tokens), jaccard(sh, e.shingles));
      if (s >= this.threshold && (!best || s > best.similarity)) best = { text: e.text, similarity: s };
    }
    this.add({ text, tokens, shingles: sh, keys });
    return best;
  }

  private add(entry: Entry): void {
    const id = this.next++;
    this.entries.set(id, entry);
    for (const k of entry.keys) {
      let ids = this.buckets.get(k);
      if (!ids) this.buckets.set(k, (ids = new Set()));
      ids.add(id);
    }
    const old = this.entries.get(id - this.window);
    if (old) {
      this.entries.delete(id - this.window);
      for (const k of old.keys) {
        const ids = this.buckets.get(k);
        ids?.delete(id - this.window);
        if (ids && ids.size === 0) this.buckets.delete(k);
      }
    }
  }
}
