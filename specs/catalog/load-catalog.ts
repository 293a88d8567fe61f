import { buildCatalog, type Catalog } from "./catalog.js";
import type { LoadOptions } from "../load/loaded-spec.js";
import { loadSpec } from "../load/load-spec.js";
import type { Result } from "../result.js";
import type { SpecProblem } from "../load/spec-problem.js";

/** Loads a spec and builds its catalog in one step. */
export async function loadCatalog(source: string | object, options?: LoadOptions): Promise<Result<Catalog, SpecProblem>> {
  const loaded = await loadSpec(source, options);
  if (!loaded.ok) return loaded;
  return { ok: true, value: buildCatalog(loaded.value) };
}
