import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { SimulatedExecutor, type ExecutorBudget } from "../../../agents/executor/simulated-executor.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { schemaResponder } from "../../../specs/respond/schema-responder.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { behaviourResponders } from "../../../toolsets/apibank/apibank-responder.js";
import { describeFunctions } from "../../../toolsets/build/describe-functions.js";
import { importApiBank as importApiBankToolsets } from "../../../toolsets/import/import-apibank.js";

/*
 * API-Bank's corpus (API descriptions and initial databases) read from its folder, and its evaluation world:
 * one toolset per API set made by `toolset import apibank`, answered by API-Bank's own behaviour.
 */

/** One API of `api_descriptions.json`. */
export interface ApiBankApi {
  name: string;
  description: string;
  input_parameters: Record<string, { type: string; description: string }>;
  output_parameters: Record<string, { type: string; description: string }>;
  database_name?: string | null;
  requires_token?: boolean;
  api_set?: string;
  duplicate_of?: string;
}

/** API-Bank's APIs and databases as read from a corpus folder. */
export interface ApiBankCorpus {
  root: string;
  apis: ApiBankApi[];
  /** Database name -> its JSON. */
  databases: Record<string, unknown>;
}

/** The API-Bank corpus folder: `$TOOLSIM_CORPORA/apibank`, default `../shared/corpora/apibank`. */
export function defaultApiBankRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env["TOOLSIM_CORPORA"] ?? "../shared/corpora", "apibank");
}

/** The folder holding `api_descriptions.json` at or above a path (a dialogue file or folder, or the root itself). */
export function findApiBankRoot(path: string): string | undefined {
  let dir = resolve(path);
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, "api_descriptions.json"))) return dir;
    const up = resolve(dir, "..");
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** Reads `api_descriptions.json` and `init_database/` of an API-Bank corpus folder. */
export function readApiBank(root: string): ApiBankCorpus {
  const file = join(root, "api_descriptions.json");
  if (!existsSync(file)) throw new ToolsimError("apibank.not-found", `no API-Bank API descriptions at ${file}`);
  let apis: ApiBankApi[];
  try {
    const data: unknown = JSON.parse(readFileSync(file, "utf8"));
    apis = (Array.isArray(data) ? data : Object.values(data as Record<string, unknown>)) as ApiBankApi[];
  } catch (e) {
    throw new ToolsimError("apibank.bad-descriptions", `${file}: ${(e as Error).message}`);
  }
  const databases: Record<string, unknown> = {};
  const dbDir = join(root, "init_database");
  if (existsSync(dbDir)) {
    for (const f of readdirSync(dbDir).sort()) {
      if (!f.endsWith(".json")) continue;
      try {
        databases[basename(f, ".json")] = JSON.parse(readFileSync(join(dbDir, f), "utf8"));
      } catch {
        // a database that does not parse is left out (its APIs then raise "not found")
      }
    }
  }
  return { root, apis, databases };
}

/** Options of {@link apiBankToolset}. */
export interface ApiBankToolsetOptions {
  /** Which API set: `apis` (levels 1-2, default) or `lv3_apis`. */
  apiSet?: string;
  /** The toolset's name (default `apibank`, `apibank-lv3-apis` for level 3). */
  name?: string;
}

/**
 * API-Bank's APIs of one set as one toolset (its evaluation world): every API of the set, ToolSearcher
 * included, converted by `toolset import apibank`, with all its databases as fixtures; API-Bank's responder
 * answers its calls (see `toolsets/apibank`).
 */
export async function apiBankToolset(corpus: ApiBankCorpus, options: ApiBankToolsetOptions = {}): Promise<EpisodeToolset> {
  const set = options.apiSet === "lv3_apis" ? "lv3_apis" : "apis";
  const imported = importApiBankToolsets(corpus.apis, { databases: corpus.databases, source: join(corpus.root, "api_descriptions.json"), single: true });
  if (!imported.ok) throw new ToolsimError("apibank.bad-descriptions", imported.errors.map((e) => e.message).join("; "));
  const file = imported.value.toolsets.find((t) => t.slug === (set === "apis" ? "apibank-level-1-2" : "apibank-level-3"));
  if (!file) throw new ToolsimError("apibank.bad-descriptions", `no API of the set ${set} in ${corpus.root}`);
  const spec = await loadSpec(file.toolset.openapi as object, { label: `${corpus.root}#apibank-${set}`, root: corpus.root });
  if (!spec.ok) throw new ToolsimError("apibank.bad-spec", `the API-Bank conversion does not load: ${spec.errors.map((e) => e.message).join("; ")}`);
  const catalog = buildCatalog(spec.value);
  return {
    name: options.name ?? (set === "apis" ? "apibank" : "apibank-lv3-apis"),
    title: "API-Bank",
    category: "API-Bank",
    introduction: file.toolset.introduction,
    description: "API-Bank (Li et al. 2023) evaluation APIs over their initial databases.",
    functions: describeFunctions(catalog),
    catalog,
    ...(file.toolset.fixtures ? { fixtures: file.toolset.fixtures } : {}),
    responders: behaviourResponders(catalog),
  };
}

/** The executor of the API-Bank world: the toolset's API-Bank responder over the episode's state, then the schema (external APIs). */
export function apiBankExecutor(budget: ExecutorBudget = {}): SimulatedExecutor {
  return new SimulatedExecutor({ ...budget, stages: { responders: [schemaResponder] } });
}
