import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import type { Fixtures } from "../../../specs/respond/resource-store.js";
import { schemaResponder } from "../../../specs/respond/schema-responder.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { apibankResponder } from "./apibank-responder.js";
import { apiBankSchema } from "../../../toolsets/import/import-apibank.js";

/*
 * API-Bank's APIs as a toolsim toolset (a minimal conversion of its own, for evaluation: the bundled importer
 * `toolset import apibank` is separate). Each API becomes `POST /<ApiName>` whose JSON body holds its input
 * parameters; its databases (`init_database/*.json`) become fixtures, one collection `/<Database>` per file, an
 * item per top-level key (`{id: key, ...record}`, or `{id: key, value}` for a record that is not an object);
 * the API-Bank responder implements the APIs over that state.
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

/** Whether a parameter's description marks it optional (`[Optional]`, `Only needed for ...`). */
function isOptional(description: string): boolean {
  return /\boptional\b|only needed/i.test(description);
}

/** The OpenAPI document of a list of API-Bank APIs. */
export function apiBankOpenApi(apis: readonly ApiBankApi[], title = "API-Bank"): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const api of apis) {
    const inputs = Object.entries(api.input_parameters ?? {});
    const outputs = Object.entries(api.output_parameters ?? {});
    const outputObject = { type: "object", properties: Object.fromEntries(outputs.map(([k, p]) => [k, apiBankSchema(p.type, p.description)])) };
    // API-Bank returns a single output raw ("success", 184.5) or as an object ({"token": ...}): both are allowed.
    const single = outputs.length === 1 ? [apiBankSchema((outputs[0] as [string, { type: string }])[1].type)] : [];
    const op: Record<string, unknown> = {
      operationId: api.name,
      summary: api.description.length > 200 ? `${api.description.slice(0, 197)}...` : api.description,
      description: api.description,
      ...(inputs.length > 0
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: Object.fromEntries(inputs.map(([k, p]) => [k, apiBankSchema(p.type, p.description)])),
                    required: inputs.filter(([, p]) => !isOptional(p.description ?? "")).map(([k]) => k),
                    additionalProperties: false,
                  },
                },
              },
            },
          }
        : {}),
      responses: {
        "200": { description: outputs.map(([k, p]) => `${k}: ${p.description}`).join("; ") || "done", content: { "application/json": { schema: { anyOf: [outputObject, ...single] } } } },
        "400": { description: "The API raised an exception", content: { "application/problem+json": { schema: { type: "object" } } } },
      },
    };
    paths[`/${api.name}`] = { post: op };
  }
  return { openapi: "3.0.3", info: { title, version: "1.0.0", description: "API-Bank's APIs (level-1/2 pool) simulated over its databases" }, paths };
}

/** API-Bank's databases as fixtures: `/<Database>` -> one item per top-level key. */
export function apiBankFixtures(databases: Record<string, unknown>): Fixtures {
  const fixtures: Record<string, Array<Record<string, unknown>>> = {};
  for (const [name, data] of Object.entries(databases)) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) continue;
    const items: Array<Record<string, unknown>> = [];
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      if (name === "SearchEngine" && key !== "raw_documents") continue; // the tokenized copy is not state
      items.push(value !== null && typeof value === "object" && !Array.isArray(value) ? { id: key, ...(value as Record<string, unknown>) } : { id: key, value });
    }
    fixtures[`/${name}`] = items;
  }
  return fixtures;
}

/** Options of {@link apiBankToolset}. */
export interface ApiBankToolsetOptions {
  /** Which API set: `apis` (levels 1-2, default) or `lv3_apis`. */
  apiSet?: string;
  /** The toolset's name (default `apibank`). */
  name?: string;
}

/** API-Bank's APIs of one set as a toolset, with its databases as fixtures. */
export async function apiBankToolset(corpus: ApiBankCorpus, options: ApiBankToolsetOptions = {}): Promise<EpisodeToolset> {
  const set = options.apiSet ?? "apis";
  const apis = corpus.apis.filter((a) => (a.api_set ?? "apis") === set && a.name !== "ToolSearcher");
  const doc = apiBankOpenApi(apis);
  const spec = await loadSpec(doc, { label: `${corpus.root}#apibank-${set}`, root: corpus.root });
  if (!spec.ok) throw new ToolsimError("apibank.bad-spec", `the API-Bank conversion does not load: ${spec.errors.map((e) => e.message).join("; ")}`);
  const name = options.name ?? (set === "apis" ? "apibank" : `apibank-${set.replace(/_/g, "-")}`);
  return {
    name,
    title: "API-Bank",
    category: "API-Bank",
    introduction: "API-Bank's evaluation APIs: accounts, schedules, alarms, reminders, meetings, health, bank, smart home and information lookups.",
    description: "API-Bank (Li et al. 2023) evaluation APIs over their initial databases.",
    functions: apis.map((a) => `${a.name}: ${a.description}\nParameters: ${JSON.stringify(Object.fromEntries(Object.entries(a.input_parameters ?? {}).map(([k, p]) => [k, `${p.type}. ${p.description}`])))}`).join("\n"),
    catalog: buildCatalog(spec.value),
    fixtures: apiBankFixtures(corpus.databases),
  };
}

/** The executor of the API-Bank world: the API-Bank responder over the episode's state, then the schema (APIs it does not implement). */
export function apiBankExecutor(): SimulatedExecutor {
  return new SimulatedExecutor({ stages: { responders: [apibankResponder, schemaResponder] } });
}
