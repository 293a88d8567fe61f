/** `books` -> `book`, `categories` -> `category`, `addresses` -> `address`, `user_profile` -> `userprofile`: lower case, letters and digits only. */
export function singularNoun(word: string): string {
  let hit = singulars.get(word);
  if (hit === undefined) {
    hit = computeSingular(word);
    if (singulars.size > 10_000) singulars.clear();
    singulars.set(word, hit);
  }
  return hit;
}

const singulars = new Map<string, string>();

function computeSingular(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (/ies$/.test(w)) return w.slice(0, -3) + "y";
  if (/(ss|sh|ch|x)es$/.test(w)) return w.slice(0, -2);
  if (/s$/.test(w) && !/ss$/.test(w)) return w.slice(0, -1);
  return w;
}
