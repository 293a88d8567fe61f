import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The shared corpora beside the repository (`../shared/corpora`, or TOOLSIM_CORPORA); suites over them skip when absent. */
export const CORPORA = path.resolve(fileURLToPath(new URL("../../", import.meta.url)), process.env["TOOLSIM_CORPORA"] ?? "../shared/corpora");

/** The OpenAPI documents of the corpora's folders (default: OpenAPI 3 and Swagger 2), sorted by name; none when absent. */
export function corpusSpecFiles(folders: readonly string[] = ["openapi/oas3", "openapi/swagger2"]): string[] {
  const out: string[] = [];
  for (const folder of folders) {
    const dir = path.join(CORPORA, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => /\.(json|ya?ml)$/i.test(x)).sort()) out.push(path.join(dir, f));
  }
  return out;
}
