import type { Catalog } from "../specs/catalog/catalog.js";
import type { Fixtures } from "../specs/respond/resource-store.js";
import type { Responder } from "../specs/respond/responder.js";
import type { DeclaredBindings } from "../specs/respond/bindings/bindings.js";
import type { WorldSettings } from "../specs/respond/world-settings.js";

/** Credentials a simulated API requires and accepts. */
export interface ToolsetAuth {
  type: "apiKey" | "bearer";
  in?: "header" | "query";
  name?: string;
  credentials: string[];
  /**
   * apiKey only: further key parameters the API takes beside `name`, each with the value it accepts (ToolAlpaca's
   * `Authentication` with an app id and an app key). The harness passes them all, as it passes `name`.
   */
  keys?: Record<string, string>;
  /**
   * `api`: the API's own behaviour checks the credential (API-Bank's tokens, issued at run time by GetUserToken or
   * RegisterUser): `serve` does not check it against `credentials`, and the harness does not pass it (the assistant
   * obtains it, as in API-Bank). Absent: the simulator checks it, and the harness passes it where the spec takes it
   * as an ordinary argument.
   */
  checkedBy?: "api";
}

/** One call of a task's reference solution. */
export interface ToolsetTaskCall {
  /** The tool (operationId) called. */
  tool: string;
  /** The arguments; placeholders of the source (`${id from search}`) are kept as strings. */
  arguments: Record<string, unknown>;
  /** The arguments as the source wrote them, when they were not plain JSON. */
  raw?: string;
  /** A step the solution may skip (ToolAlpaca's `[Optional]` actions). */
  optional?: boolean;
}

/**
 * An evaluation task kept with a toolset: an instruction and the calls of a reference solution
 * (ToolAlpaca's golden answers).
 */
export interface ToolsetTask {
  instruction: string;
  calls?: ToolsetTaskCall[];
  /** What the assistant has to ask the user first (ToolAlpaca's `getDetails` steps). */
  questions?: string[];
  /** Where the task came from, e.g. `toolalpaca:eval_simulated.json#Axolotl/3`. */
  source?: string;
}

/**
 * A toolset file: ToolAlpaca's quintuple (name, introduction, description, functions, openapi) plus
 * optional category, link, auth and fixtures (initial state, as API-Bank's databases).
 */
export interface ToolsetFile {
  name: string;
  introduction: string;
  description: string;
  /**
   * Natural-language function documentation. Part of the quintuple; toolsim's writers always fill it, but a
   * file may leave it out: the loader then derives it from the spec and `toolset validate` warns
   * (`functions-missing`).
   */
  functions: string;
  /** The OpenAPI document inline, or a path relative to the toolset file. */
  openapi: Record<string, unknown> | string;
  category?: string;
  link?: string;
  auth?: ToolsetAuth;
  fixtures?: Fixtures;
  /** Evaluation tasks (instructions with reference calls), kept in the file rather than in a sidecar. */
  tasks?: ToolsetTask[];
  /** Bindings declared per tool name or operationId (they override the inferred ones). */
  bindings?: DeclaredBindings;
  /** How the simulated world behaves: closed or open collections, state limits. */
  world?: WorldSettings;
}

/** A loaded toolset: its file, a unique slug and the catalog of its spec. */
export interface LoadedToolset {
  /** Unique slug (`bookstore`), from the file name. */
  name: string;
  /** Display name from the file. */
  title: string;
  category?: string;
  introduction: string;
  description: string;
  /** The function documentation: the file's, or derived from the spec when the file has none. */
  functions: string;
  /** True when the file has no function documentation and `functions` was derived from the spec. */
  functionsDerived?: boolean;
  link?: string;
  auth?: ToolsetAuth;
  fixtures?: Fixtures;
  tasks?: ToolsetTask[];
  /** Bindings the file declares (already attached to the catalog). */
  bindings?: DeclaredBindings;
  /** World settings the file declares (already attached to the catalog). */
  world?: WorldSettings;
  catalog: Catalog;
  /** Responders of the toolset's own behaviour (API-Bank's APIs for a toolset imported from API-Bank). */
  responders?: readonly Responder[];
  /** Where it was loaded from. */
  file: string;
}
