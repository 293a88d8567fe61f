import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Catalog } from "../../specs/catalog/catalog.js";
import { loadCatalog } from "../../specs/catalog/load-catalog.js";
import { formatProblem } from "../../specs/load/spec-problem.js";

/** The folder of the core spec fixtures (`petstore.yaml`, `responses.yaml`...). */
export const CORE_SPECS = fileURLToPath(new URL("../fixtures/specs/core", import.meta.url));

/** The catalog of a core spec fixture; throws with the load problems when it does not load. */
export async function coreCatalog(name: string): Promise<Catalog> {
  const loaded = await loadCatalog(path.join(CORE_SPECS, name));
  if (!loaded.ok) throw new Error(`${name} does not load:\n${loaded.errors.map(formatProblem).join("\n")}`);
  return loaded.value;
}
