import { STOP_WORDS } from "../../language/lexicon/function-words.js";
import type { VerbKind } from "../../language/lexicon/verbs.js";
import { verbKindsOf } from "../../language/operation-words.js";
import { rewritePhrasal } from "../../language/phrasal.js";
import { tokenize } from "../../language/tokenize.js";
import type { OfflineToolbox } from "./offline-types.js";
import type { OfflineToolSpec } from "./offline-types.js";
import type { ToolTraits } from "./offline-types.js";
import { LIST_NAME_WORDS, LISTER_VERBS } from "../../language/lexicon/verbs.js";
import { anyWord } from "../../language/word-patterns.js";

export type { ToolTraits };

/*
 * What planning reads of a tool's name and description: the words and stems of its name, whether it lists or
 * searches, whether it is a ToolSearcher (API-Bank's retrieval tool), and the kinds of operation it does.
 */


const LIST_WORDS: ReadonlySet<string> = new Set(LIST_NAME_WORDS);
const LISTER_NAME = /^(list|search|find|query|browse|lookup|filter|get(?:all|many)?[A-Z_]\w*s$)|(?:^|_)(search|list|find)(?:_|$)/;
const LISTER_DESCRIPTION = anyWord(LISTER_VERBS);
const SEARCHER_NAME = /tool[_-]?search|search[_-]?tools?|tool[_-]?retriev|find[_-]?tools?/i;

/** Whether a tool is a ToolSearcher: a tool that finds other tools (API-Bank's retrieve and plan levels). */
export function isToolSearcherName(name: string): boolean {
  return SEARCHER_NAME.test(name);
}

/** What planning reads of a tool (remembered per tool object by the toolbox). */
export function toolTraits(box: OfflineToolbox, t: OfflineToolSpec): ToolTraits {
  const hit = box.toolTraits.get(t);
  if (hit && hit.name === t.name && hit.description === t.description) return hit;
  const nameWords = box.lowerTokens(t.name);
  const traits = {
    name: t.name,
    description: t.description,
    nameWords,
    nameStems: nameWords.map((w) => box.stem(w)),
    lister: isLister(box, t),
    searcher: isToolSearcherName(t.name),
    verbKind: verbKindOf(box, t),
    verbKinds: verbKindsOfTool(box, t),
  };
  box.toolTraits.set(t, traits);
  return traits;
}

function isLister(box: OfflineToolbox, t: OfflineToolSpec): boolean {
  const words = box.lowerTokens(t.name);
  if (LIST_WORDS.has(words[0] ?? "")) return true;
  if (words.some((w) => w === "search" || w === "list")) return true;
  return LISTER_NAME.test(t.name) || LISTER_DESCRIPTION.test(t.description.split(/[.;]/)[0] ?? "");
}

function verbKindsOfTool(box: OfflineToolbox, t: OfflineToolSpec): Set<VerbKind> {
  const out = new Set<VerbKind>();
  const add = (word: string): void => {
    for (const k of verbKindsOf(box.stem(word))) out.add(k);
  };
  add(tokenize(t.name)[0] ?? "");
  for (const sentence of rewritePhrasal(t.description).split(/(?<=[.;])\s+/).slice(0, 2)) add(tokenize(sentence)[0] ?? "");
  return out;
}

function verbKindOf(box: OfflineToolbox, t: OfflineToolSpec): VerbKind | undefined {
  const first = verbKindsOf(box.stem(tokenize(t.name)[0] ?? ""));
  if (first.length > 0) return first[0];
  return verbKindsOf(box.stem(tokenize(t.description)[0] ?? ""))[0];
}

/** The verbs of a catalogue: the first word of each tool name (`refresh`, `activate`, `apply`). */
export function catalogVerbs(tools: readonly OfflineToolSpec[]): string[] {
  const out = new Set<string>();
  for (const t of tools) {
    const first = (tokenize(t.name)[0] ?? "").toLowerCase();
    if (first.length >= 3 && /^[a-z]+$/.test(first) && !STOP_WORDS.has(first)) out.add(first);
  }
  return [...out].sort();
}
