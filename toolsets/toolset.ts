import type { Catalog } from "../specs/catalog.js";
import type { Fixtures } from "../specs/resource-store.js";

/** Credentials a simulated API requires and accepts. */
export interface ToolsetAuth {
  type: "apiKey" | "bearer";
  in?: "header" | "query";
  name?: string;
  credentials: string[];
}

/**
 * A toolset file: ToolAlpaca's quintuple (name, introduction, description, functions, openapi) plus
 * optional category, link, auth and fixtures (initial state, as API-Bank's databases).
 */
export interface ToolsetFile {
  name: string;
  introduction: string;
  description: string;
  /** Natural-language function documentation. */
  functions: string;
  /** The OpenAPI document inline, or a path relative to the toolset file. */
  openapi: Record<string, unknown> | string;
  category?: string;
  link?: string;
  auth?: ToolsetAuth;
  fixtures?: Fixtures;
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
  functions: string;
  link?: string;
  auth?: ToolsetAuth;
  fixtures?: Fixtures;
  catalog: Catalog;
  /** Where it was loaded from. */
  file: string;
}
