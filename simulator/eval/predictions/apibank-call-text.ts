/*
 * API-Bank's reading of a model's output (`api_call_extraction.py`): the first `[Name(...)]` in the text, its
 * keyword arguments by the authors' pattern (a quoted value, a `[...]` list, or a bare word), every value a
 * string; the ToolManager converts them to the API's types afterwards.
 */

/** `get_api_call`: the first `[Name(...)]` of a text (greedy to the last `)]`), if any. */
export function apiCallOf(text: string): string | undefined {
  return /\[(\w+)\((.*)\)\]/.exec(text)?.[0];
}

/** `parse_api_call`: the name and the keyword arguments (as strings) of a `[Name(k='v', ...)]`. */
export function parseApiCallText(text: string): { name: string; arguments: Record<string, string> } | undefined {
  const m = /\[(\w+)\((.*)\)\]/m.exec(text);
  if (!m) return undefined;
  const args: Record<string, string> = {};
  for (const p of (m[2] as string).matchAll(/(\w+)\s*=\s*['"](.+?)['"]|(\w+)\s*=\s*(\[.*\])|(\w+)\s*=\s*(\w+)/g)) {
    if (p[1] !== undefined) args[p[1]] = p[2] as string;
    else if (p[3] !== undefined) args[p[3]] = p[4] as string;
    else if (p[5] !== undefined) args[p[5]] = p[6] as string;
  }
  return { name: m[1] as string, arguments: args };
}

/** `split_by_uppercase` of API-Bank's level-3 evaluator (ToolSearcher keywords `GetOccupationSalary` -> `Get Occupation Salary`). */
export function splitByUppercase(s: string): string {
  return [...s].map((c) => (c >= "A" && c <= "Z" ? ` ${c}` : c)).join("").trim();
}
