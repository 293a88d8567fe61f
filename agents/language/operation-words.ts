import { lemma } from "./inflect.js";
import { CONCEPTS } from "./lexicon/concepts.js";
import { OPERATION_VERBS, type VerbKind } from "./lexicon/verbs.js";

/*
 * Words by what they say about an operation, keyed by lemma: the kinds of operation a verb asks for ("finding",
 * "finds" -> search) and the everyday concepts a word belongs to ("warm" -> weather). Built once from the lexicon
 * tables; the tool index adds a group term (`xsearch`, `xweather`) to every word of a group, so words of one group
 * meet.
 */

function index<K extends string>(groups: Readonly<Record<K, readonly string[]>>): ReadonlyMap<string, readonly K[]> {
  const out = new Map<string, K[]>();
  for (const [group, words] of Object.entries(groups) as Array<[K, readonly string[]]>) {
    for (const w of words) {
      const l = lemma(w);
      // Every listed form adds its group once more: a word listed in several forms ("holiday", "holidays") weighs more
      // in the index, as the ranking's weights were tuned with.
      const list = out.get(l) ?? [];
      list.push(group);
      out.set(l, list);
    }
  }
  return out;
}

const VERB_KINDS = index(OPERATION_VERBS);
const CONCEPT_GROUPS = index(CONCEPTS);

const NONE: readonly never[] = [];

/** The kinds of operation a lemma asks for (`find` -> search; `schedule` -> create). */
export function verbKindsOf(lemmaOfWord: string): readonly VerbKind[] {
  return VERB_KINDS.get(lemmaOfWord) ?? NONE;
}

/** Whether a lemma is an operation verb or an everyday concept word (it names no resource). */
export function isGroupWord(lemmaOfWord: string): boolean {
  return VERB_KINDS.has(lemmaOfWord) || CONCEPT_GROUPS.has(lemmaOfWord);
}

/** The index term of a verb kind (`xsearch`). */
export function verbTerm(kind: VerbKind): string {
  return `x${kind}`;
}

/** The group terms a lemma adds to an index or a query: its verb kinds unless `past` (a past form describes), and its concepts. */
export function groupTerms(lemmaOfWord: string, past = false): string[] {
  const out: string[] = [];
  if (!past) for (const k of VERB_KINDS.get(lemmaOfWord) ?? NONE) out.push(`x${k}`);
  for (const c of CONCEPT_GROUPS.get(lemmaOfWord) ?? NONE) out.push(`x${c}`);
  return out;
}
