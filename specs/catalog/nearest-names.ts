/** Edit distance between two strings (case-insensitive). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[t.length] ?? 0;
}

function words(name: string): Set<string> {
  return new Set(
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0),
  );
}

/** The names closest to `name` (by shared words, then edit distance), best first. */
export function nearestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const target = words(name);
  return candidates
    .map((c) => {
      const w = words(c);
      let shared = 0;
      for (const x of w) if (target.has(x)) shared++;
      return { c, shared, dist: editDistance(name, c) };
    })
    .sort((x, y) => y.shared - x.shared || x.dist - y.dist || x.c.localeCompare(y.c))
    .slice(0, limit)
    .map((x) => x.c);
}
