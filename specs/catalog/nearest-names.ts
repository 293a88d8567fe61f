import { editDistance } from "../words.js";

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
