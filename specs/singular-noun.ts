import { singular } from "./words.js";

/**
 * A noun as entities are matched by it: singular, lower case, letters and digits only (`books` -> `book`,
 * `categories` -> `category`, `addresses` -> `address`, `People` -> `person`, `user_profiles` -> `userprofile`).
 */
export function singularNoun(word: string): string {
  let hit = nouns.get(word);
  if (hit === undefined) {
    hit = singular(word).toLowerCase().replace(/[^a-z0-9]/g, "");
    if (nouns.size > 10_000) nouns.clear();
    nouns.set(word, hit);
  }
  return hit;
}

const nouns = new Map<string, string>();
