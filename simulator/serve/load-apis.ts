import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { loadCatalog } from "../../specs/catalog/load-catalog.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { loadToolset } from "../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../toolsets/toolset.js";
import type { ServedApi } from "./serve-app.js";

/** `petstore.openapi.yaml` -> `petstore`: a spec file's name as a URL prefix. */
export function apiNameOf(file: string): string {
  let name = basename(file, extname(file));
  name = name.replace(/\.(openapi|swagger|spec|oas3?)$/i, "");
  return name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "api";
}

/**
 * Loads what `serve` serves: each path is an OpenAPI spec or a toolset file (whose fixtures seed the state
 * and whose auth credentials are accepted). Names are made unique (`weather`, `weather-2`).
 */
export async function loadServedApis(paths: readonly string[]): Promise<{ ok: true; apis: ServedApi[] } | { ok: false; problems: SpecProblem[] }> {
  const apis: ServedApi[] = [];
  const problems: SpecProblem[] = [];
  const taken = new Set<string>();
  const unique = (name: string): string => {
    let candidate = name;
    for (let i = 2; taken.has(candidate) || candidate === "__toolsim"; i++) candidate = `${name}-${i}`;
    taken.add(candidate);
    return candidate;
  };
  for (const path of paths) {
    if (await looksLikeToolset(path)) {
      const toolset = await loadToolset(path);
      if (toolset.ok) {
        apis.push({ ...servedApiOf(toolset.value), name: unique(toolset.value.name), source: path });
        continue;
      }
      problems.push(...toolset.errors);
      continue;
    }
    const loaded = await loadCatalog(path);
    if (loaded.ok) apis.push({ name: unique(apiNameOf(path)), catalog: loaded.value, source: path });
    else problems.push(...loaded.errors.filter((p) => p.severity === "error"));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, apis };
}

/** Whether a file is a toolset (a mapping with `introduction` and `openapi`) rather than a spec. */
async function looksLikeToolset(path: string): Promise<boolean> {
  if (!/\.(ya?ml|json)$/i.test(path)) return false;
  try {
    const data: unknown = parseYaml(await readFile(path, "utf8"));
    return typeof data === "object" && data !== null && "introduction" in data && "openapi" in data && !("paths" in data);
  } catch {
    return false;
  }
}

/** A loaded toolset as a served API: its catalog, fixtures (initial state) and auth, under its name. */
export function servedApiOf(toolset: LoadedToolset): ServedApi {
  return {
    name: toolset.name,
    catalog: toolset.catalog,
    ...(toolset.fixtures ? { fixtures: toolset.fixtures } : {}),
    ...(toolset.auth ? { auth: toolset.auth } : {}),
    source: toolset.file,
    toolset,
  };
}
