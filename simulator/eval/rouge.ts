/** The tokens ROUGE compares: lower-cased runs of letters and digits (punctuation and spaces separate them). */
export function rougeTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The length of the longest common subsequence of two token lists (O(n·m) time, O(m) memory). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, cur[j - 1] as number);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/** ROUGE-L of a candidate against a reference: LCS precision, recall and F1 over tokens. */
export interface RougeL {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * ROUGE-L (Lin 2004) on tokens: precision = LCS / candidate length, recall = LCS / reference length,
 * F1 = 2PR / (P + R). Empty texts score 0 (both empty: 1).
 */
export function rougeL(candidate: string, reference: string): RougeL {
  const c = rougeTokens(candidate);
  const r = rougeTokens(reference);
  if (c.length === 0 && r.length === 0) return { precision: 1, recall: 1, f1: 1 };
  const lcs = lcsLength(c, r);
  if (lcs === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = lcs / c.length;
  const recall = lcs / r.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}
