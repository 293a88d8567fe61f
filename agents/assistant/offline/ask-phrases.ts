import { DESCRIPTION_VERBS, VERB_OBJECT_STARTS } from "../../language/lexicon/verbs.js";
import { verbKindsOf } from "../../language/operation-words.js";
import { tokenize } from "../../language/tokenize.js";
import { baseForm, joinList } from "../../language/words.js";
import type { OfflineToolbox } from "./offline-types.js";
import type { OfflineToolSpec, Param } from "./offline-types.js";

/*
 * How the offline assistant speaks of a tool and its parameters when it asks or gives up: "To get a book, I need
 * the book id", "I cannot get the price history".
 */

const QUESTION_VERBS = ["is", "are", "does", "do", "can", "has", "have", "was", "were"];
const QUESTION = new RegExp(`^(${QUESTION_VERBS.join("|")})\\s+((?:(?:the|a|an|my|this|your)\\s+)?\\S+)\\s+(.+?)\\??$`, "i");
const DESCRIPTION_VERB = new Set(DESCRIPTION_VERBS);
const OBJECT_START = new Set(VERB_OBJECT_STARTS);

/** "To get a book" / "For the price history": the tool's purpose, from the first sentence of its description. */
export function purposeOf(box: OfflineToolbox, tool: OfflineToolSpec): string {
  const first = (tool.description.split(/(?<=[.;?])\s|\n/)[0] ?? "").replace(/[.;]\s*$/, "").trim();
  if (first === "" || first.length > 80) return "To do that";
  // "Is the market open?" -> "To find out whether the market is open".
  const question = QUESTION.exec(first);
  if (question && /\?$/.test(first)) return `To find out whether ${(question[2] ?? "").toLowerCase()} ${(question[1] ?? "").toLowerCase()} ${question[3] ?? ""}`.replace(/\s+/g, " ").trim();
  // Descriptions speak as the user ("Change my password"); the assistant says "your".
  const lower = (first.charAt(0).toLowerCase() + first.slice(1)).replace(/\bmy\b/g, "your").replace(/\bme\b/g, "you");
  const words = tokenize(first);
  const verb = words[0] ?? "";
  const second = (words[1] ?? "").toLowerCase();
  const isVerb = verbKindsOf(box.stem(verb)).length > 0 || DESCRIPTION_VERB.has(verb.toLowerCase()) || OBJECT_START.has(second);
  // "Returns a list of admins" -> "To return a list of admins".
  const thirdPerson = /^[A-Z][a-z]+[^s]s$/.test(verb) && !/^(is|has|was|does)$/i.test(verb) && (verbKindsOf(box.stem(verb)).length > 0 || DESCRIPTION_VERB.has(baseForm(verb)));
  const base = thirdPerson ? baseForm(verb) : verb.toLowerCase();
  return isVerb ? `To ${base}${lower.slice(verb.length)}` : `For the ${lower.replace(/^(the|a|an) /, "")}`;
}

/** What a tool does, as the rest of "I cannot ...": "get a book", "get the price history". */
export function goalOf(box: OfflineToolbox, tool: OfflineToolSpec): string {
  const purpose = purposeOf(box, tool);
  if (purpose.startsWith("To ")) return purpose.slice(3);
  if (purpose.startsWith("For ")) return `get ${purpose.slice(4)}`;
  return "do that";
}

/** "the book id", "the from currency code and the amount". */
export function listPhrases(params: readonly Param[]): string {
  return joinList(params.map((p) => `the ${p.phrase}`));
}
