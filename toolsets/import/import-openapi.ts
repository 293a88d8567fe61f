import { relative, resolve } from "node:path";
import { buildCatalog } from "../../specs/catalog/catalog.js";
import { loadSpec } from "../../specs/load/load-spec.js";
import { fail, ok, type Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { authFromSpec } from "./auth-from-spec.js";
import { describeFunctions, featureList } from "../build/describe-functions.js";
import { joinSentences, plainText } from "../plain-text.js";
import type { ImportedToolset } from "./import-toolalpaca.js";
import { slugify } from "../slug.js";
import type { ToolsetFile } from "../toolset.js";
import { isObject, type Json } from "../../specs/json-object.js";

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** Markdown and HTML of spec descriptions as plain text on one line (see `plain-text.ts`). */
export { plainText } from "../plain-text.js";

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
  return end > max / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, max - 1)}…`;
}

/** Options of {@link importOpenApi}. */
export interface OpenApiImportOptions {
  /** Refer to the spec file (relative to this folder, where the toolset will be written) instead of inlining it. */
  referenceFrom?: string;
}

/**
 * Makes a toolset from an OpenAPI 3.x or Swagger 2.0 file without a model: name and introduction from
 * `info`, a description from `info.description` and the operations' summaries (as ToolAlpaca's
 * introductions list features), function documentation derived from the operations (ToolAlpaca's
 * NLDocumentation notation), category and link from the APIs.guru extensions or `externalDocs`, and auth
 * from the security schemes. Texts are plain (Markdown links as their text, HTML stripped) and sentences are
 * joined with their punctuation. The spec is inlined (loaded, bundled and, for 2.0, converted) unless referenced.
 */
export async function importOpenApi(path: string, options: OpenApiImportOptions = {}): Promise<Result<ImportedToolset, SpecProblem>> {
  const spec = await loadSpec(path);
  if (!spec.ok) return spec;
  const catalog = buildCatalog(spec.value);
  if (catalog.tools.length === 0) return fail([{ file: spec.value.file, pointer: "/paths", severity: "error", code: "no-operations", message: "the spec has no operations: a toolset needs at least one" }]);
  const doc = spec.value.document as unknown as Json;
  const info = isObject(doc["info"]) ? doc["info"] : {};
  const title = str(info["title"]) ?? "API";
  const about = plainText(str(info["description"]) ?? "");
  const firstSentence = /^(.{10,200}?[.!?])(\s|$)/.exec(about)?.[1];
  const introduction = clip(firstSentence ?? (about !== "" ? about : `${title}: ${catalog.tools.length} operation${catalog.tools.length === 1 ? "" : "s"}.`), 200);
  const features = `It provides the following functions: ${featureList(catalog)}`;
  const description = joinSentences(about !== "" ? clip(about, 1200) : `The ${title} offers ${catalog.tools.length} operation${catalog.tools.length === 1 ? "" : "s"}`, features);
  const categories = info["x-apisguru-categories"];
  const category = Array.isArray(categories) && typeof categories[0] === "string" ? categories[0] : undefined;
  const external = isObject(doc["externalDocs"]) ? str(doc["externalDocs"]["url"]) : undefined;
  const servers = Array.isArray(doc["servers"]) && isObject(doc["servers"][0]) ? str(doc["servers"][0]["url"]) : undefined;
  const link = external ?? (isObject(info["contact"]) ? str(info["contact"]["url"]) : undefined) ?? (servers !== undefined && /^https?:/.test(servers) ? servers : undefined);
  const slug = slugify(title);
  const auth = authFromSpec(catalog, slug);
  const toolset: ToolsetFile = {
    name: title,
    ...(category !== undefined ? { category } : {}),
    introduction,
    description,
    ...(link !== undefined ? { link } : {}),
    functions: describeFunctions(catalog),
    ...(auth !== undefined ? { auth } : {}),
    openapi: options.referenceFrom !== undefined ? relative(resolve(options.referenceFrom), resolve(path)) : (spec.value.document as unknown as Json),
  };
  return ok({ slug, toolset });
}
