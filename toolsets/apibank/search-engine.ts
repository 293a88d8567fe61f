/*
 * API-Bank's SearchEngine (`apis/search_engine.py`): rank_bm25's BM25Okapi (k1 1.5, b 0.75, epsilon 0.25:
 * negative idfs replaced by a quarter of the mean idf) over the database's tokenized documents, the query
 * lower-cased and split as NLTK's word_tokenize does, the two best documents returned. Ties keep the
 * documents' order.
 */

/** NLTK word_tokenize, closely enough for queries: punctuation split off, `'s` and `n't` their own tokens. */
export function wordTokenize(text: string): string[] {
  let t = ` ${text} `;
  t = t.replace(/^(\s*)"/, "$1 `` ").replace(/(``)/g, " $1 ").replace(/([ ([{<])"/g, "$1 `` ");
  t = t.replace(/([:,])([^\d])/g, " $1 $2").replace(/([:,])$/g, " $1 ");
  t = t.replace(/\.\.\./g, " ... ").replace(/[;@#$%&]/g, " $& ");
  t = t.replace(/([^.])(\.)([\]\)}>"']*)\s*$/g, "$1 $2$3 ");
  t = t.replace(/[?!]/g, " $& ").replace(/([^'])' /g, "$1 ' ");
  t = t.replace(/[\]\[\(\)\{\}<>]/g, " $& ").replace(/--/g, " -- ");
  t = t.replace(/"/g, " '' ");
  t = t.replace(/([^' ])('[sS]|'[mM]|'[dD]|') /g, "$1 $2 ").replace(/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /g, "$1 $2 ");
  return t.split(/\s+/).filter((w) => w !== "");
}

/** BM25Okapi scores of a query against tokenized documents (rank_bm25's formula and idf floor). */
export function bm25Scores(docs: readonly (readonly string[])[], query: readonly string[], k1 = 1.5, b = 0.75, epsilon = 0.25): number[] {
  const n = docs.length;
  if (n === 0) return [];
  const freqs = docs.map((d) => {
    const m = new Map<string, number>();
    for (const w of d) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  });
  const df = new Map<string, number>();
  for (const f of freqs) for (const w of f.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / n;
  const idf = new Map<string, number>();
  let idfSum = 0;
  const negative: string[] = [];
  for (const [w, f] of df) {
    const v = Math.log(n - f + 0.5) - Math.log(f + 0.5);
    idf.set(w, v);
    idfSum += v;
    if (v < 0) negative.push(w);
  }
  const eps = epsilon * (idf.size === 0 ? 0 : idfSum / idf.size);
  for (const w of negative) idf.set(w, eps);
  const scores = new Array<number>(n).fill(0);
  for (const q of query) {
    const w = idf.get(q) ?? 0;
    freqs.forEach((f, i) => {
      const tf = f.get(q) ?? 0;
      const dl = (docs[i] as readonly string[]).length;
      scores[i] = (scores[i] as number) + (w * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * dl) / avgdl));
    });
  }
  return scores;
}

/** The indexes of the best documents for a keyword, best first (at most `limit`). */
export function searchRanking(docs: readonly (readonly string[])[], keyword: string, limit = 2): number[] {
  const scores = bm25Scores(docs, wordTokenize(keyword.trim().toLowerCase()));
  return scores
    .map((s, i) => ({ s, i }))
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .slice(0, limit)
    .map((x) => x.i);
}
