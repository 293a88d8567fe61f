import { fail, ok, type Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { isObject } from "../../specs/json-object.js";

/** One API of the public-apis list, the input of toolset construction (ToolAlpaca section 3.1). */
export interface PublicApi {
  /** The API's name. */
  name: string;
  /** Its one-line description (the toolset's introduction). */
  introduction: string;
  /** Auth the real API uses: `apiKey`, `OAuth`, `X-Mashape-Key`, `User-Agent`, or empty. */
  auth: string;
  link: string;
  category: string;
}

const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

/**
 * Reads a public-apis list: `{count, entries: [{API, Description, Auth, HTTPS, Cors, Link, Category}]}` or a
 * bare array of entries. Entries without a name or a description are reported and left out.
 */
export function readPublicApis(data: unknown, file: string): Result<{ apis: PublicApi[]; skipped: SpecProblem[] }, SpecProblem> {
  const entries = Array.isArray(data) ? data : isObject(data) && Array.isArray(data["entries"]) ? data["entries"] : undefined;
  if (entries === undefined) {
    return fail([{ file, pointer: "", severity: "error", code: "not-public-apis", message: 'a public-apis list is {"entries": [{"API", "Description", "Auth", "Link", "Category"}, ...]} or an array of entries' }]);
  }
  const apis: PublicApi[] = [];
  const skipped: SpecProblem[] = [];
  entries.forEach((e, i) => {
    const name = isObject(e) ? str(e["API"] ?? e["name"]) : "";
    const introduction = isObject(e) ? str(e["Description"] ?? e["introduction"]) : "";
    if (!isObject(e) || name === "" || introduction === "") {
      skipped.push({ file, pointer: Array.isArray(data) ? `/${i}` : `/entries/${i}`, severity: "warning", code: "public-api-entry", message: "an entry needs API and Description" });
      return;
    }
    apis.push({ name, introduction, auth: str(e["Auth"]), link: str(e["Link"]), category: str(e["Category"]) });
  });
  return ok({ apis, skipped });
}

/** The APIs of a category (case-insensitive), then the first `limit`. */
export function selectApis(apis: readonly PublicApi[], options: { category?: string; limit?: number }): PublicApi[] {
  const category = options.category?.trim().toLowerCase();
  const picked = category === undefined || category === "" ? [...apis] : apis.filter((a) => a.category.toLowerCase() === category);
  return options.limit !== undefined ? picked.slice(0, options.limit) : picked;
}
