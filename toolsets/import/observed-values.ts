import { isIdName } from "../id-chains.js";
import { isObject } from "../../specs/json-object.js";


function norm(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /(ses|xes|zes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** `issue_id` -> `issue`, `bookId` -> `book`, `id` -> ``. */
function stemOf(idArgument: string): string {
  return norm(idArgument.replace(/(_|-)?(id|uuid|guid)$/i, ""));
}

/** One scalar seen in an answer: its key, and the words around it (the tool, the enclosing keys). */
interface Observed {
  key: string;
  value: string | number;
  context: string;
}

/**
 * Values seen in the answers of tools already called (while recording an MCP server), to give later calls
 * arguments that exist: `getIssue(issue_id)` after `listIssues` answered `{issues: [{id: 7}]}` gets 7 instead of
 * an invented id the server would not know.
 */
export class ObservedValues {
  private readonly seen: Observed[] = [];

  /** Remembers the scalars of an answer of a tool (at most a few hundred per answer). */
  add(tool: string, answer: unknown): void {
    let budget = 500;
    const walk = (node: unknown, context: string, depth: number): void => {
      if (depth > 8 || budget <= 0) return;
      if (Array.isArray(node)) {
        for (const item of node.slice(0, 20)) walk(item, context, depth + 1);
        return;
      }
      if (!isObject(node)) return;
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === "string" || typeof v === "number") {
          if (typeof v === "string" && (v === "" || v.length > 200)) continue;
          this.seen.push({ key: norm(k), value: v, context });
          budget--;
        } else walk(v, `${context} ${singular(norm(k))}`, depth + 1);
      }
    };
    walk(answer, singular(norm(tool)), 0);
  }

  /**
   * A seen value for an argument: the same key (`email` for `email`), else for an id-like argument (`bookId`) an
   * `id` seen in an answer about that thing (a `book` tool or a `books` list); undefined when none fits.
   */
  valueFor(argument: string, type: "string" | "number" | "integer" | undefined): string | number | undefined {
    const fits = (o: Observed): boolean =>
      type === undefined || (type === "string" ? typeof o.value === "string" : typeof o.value === "number" && (type === "number" || Number.isInteger(o.value)));
    const key = norm(argument);
    const same = this.seen.find((o) => o.key === key && fits(o));
    if (same) return same.value;
    if (!isIdName(argument)) return undefined;
    const stem = stemOf(argument);
    const ids = this.seen.filter((o) => (o.key === "id" || o.key === "uuid") && fits(o));
    const about = stem === "" ? ids[0] : ids.find((o) => o.context.split(" ").some((w) => w !== "" && (w.includes(stem) || stem.includes(w))));
    return about?.value;
  }
}
