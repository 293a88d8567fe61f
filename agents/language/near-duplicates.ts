/**
 * Near-duplicate detection for generated texts (instructions): normalized token Jaccard and word
 * shingle Jaccard, with an inverted index so a check compares only texts that share a word.
 */

const STOP = new Set(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "me", "my", "i", "you", "your", "please", "can", "could", "would", "is", "are", "it", "this", "that", "with", "at", "by", "be", "do", "what", "some"]);

/** Lower-case word tokens of a text without punctuation and common function words. */
export function normalizedTokens(text: string): string[] {
  const plain = text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/n['\u2019]t\b/g, " not")
    .replace(/['\u2019](s|re|ll|m|d|ve)\b/g, "");
  const words = plain.match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = words.filter((w) => !STOP.has(w));
  return kept.length > 0 ? kept : words;
}

/** Word n-grams (shingles) of a text's normalized tokens. */
export function shingles(text: string, n = 2): Set<string> {
  const t = normalizedTokens(text);
  const out = new Set<string>();
  if (t.length < n) {
    if (t.length > 0) out.add(t.join(" "));
    return out;
  }
  for (let i = 0; i + n <= t.length; i++) out.add(t.slice(i, i + n).join(" "));
  return out;
}

/** Jaccard similarity of two sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** How similar two texts are: the larger of token-set Jaccard and word-bigram Jaccard, in [0, 1]. */
export function textSimilarity(a: string, b: string): number {
  return Math.max(jaccard(new Set(normalizedTokens(a)), new Set(normalizedTokens(b))), jaccard(shingles(a), shingles(b)));
}

interface Entry {
  text: string;
  tokens: Set<string>;
  shingles: Set<string>;
}

/** Options of {@link NearDuplicateIndex}. */
export interface NearDuplicateOptions {
  /** Similarity at or above which two texts are near-duplicates (default 0.8). */
  threshold?: number;
  /** Most texts kept; the oldest are forgotten beyond it (default 20000). */
  capacity?: number;
}

/** The texts generated so far in a run, for dropping near-duplicates of them. */
export class NearDuplicateIndex {
  readonly threshold: number;
  private readonly capacity: number;
  private readonly entries = new Map<number, Entry>();
  private readonly byToken = new Map<string, Set<number>>();
  private next = 0;

  constructor(options: NearDuplicateOptions = {}) {
    this.threshold = options.threshold ?? 0.8;
    this.capacity = options.capacity ?? 20_000;
  }

  /** How many texts the index holds. */
  get size(): number {
    return this.entries.size;
  }

  /** The most similar text held and its similarity (similarity 0 and no text when nothing shares a word). */
  nearest(text: string): { similarity: number; text?: string } {
    const tokens = new Set(normalizedTokens(text));
    const sh = shingles(text);
    const candidates = new Set<number>();
    for (const t of tokens) for (const id of this.byToken.get(t) ?? []) candidates.add(id);
    let best: { similarity: number; text?: string } = { similarity: 0 };
    for (const id of candidates) {
      const e = this.entries.get(id);
      if (!e) continue;
      const s = Math.max(jaccard(tokens, e.tokens), jaccard(sh, e.shingles));
      if (s > best.similarity) best = { similarity: s, text: e.text };
    }
    return best;
  }

  /** Whether a text is a near-duplicate of one held. */
  isNearDuplicate(text: string): boolean {
    return this.nearest(text).similarity >= this.threshold;
  }

  /** Holds a text. */
  add(text: string): void {
    const id = this.next++;
    const entry: Entry = { text, tokens: new Set(normalizedTokens(text)), shingles: shingles(text) };
    this.entries.set(id, entry);
    for (const t of entry.tokens) {
      let ids = this.byToken.get(t);
      if (!ids) this.byToken.set(t, (ids = new Set()));
      ids.add(id);
    }
    if (this.entries.size > this.capacity) this.forget(id - this.capacity);
  }

  private forget(id: number): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    for (const t of e.tokens) {
      const ids = this.byToken.get(t);
      ids?.delete(id);
      if (ids && ids.size === 0) this.byToken.delete(t);
    }
  }
}
