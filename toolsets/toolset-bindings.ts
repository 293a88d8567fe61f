import type { Catalog } from "../specs/catalog/catalog.js";
import { parsePath } from "../specs/catalog/field-path.js";
import { schemaFields } from "../specs/catalog/schema-fields.js";
import type { SpecProblem } from "../specs/load/spec-problem.js";
import { bindingArgs, bindingFields, bindingProblems, BINDING_KINDS, type Binding, type DeclaredBindings } from "../specs/respond/bindings/bindings.js";
import { selectedResponse } from "../specs/respond/response-cache.js";
import type { WorldSettings } from "../specs/respond/world-settings.js";
import { isObject } from "../specs/json-object.js";

/**
 * A toolset's `bindings:` (what a request says about its response, by tool name or operationId) and
 * `world:` (closed or open collections, state limits): read from the file, and checked against the spec
 * (unknown tools and bad paths are errors; arguments and fields the operation does not have, warnings).
 */

type Json = Record<string, unknown>;

/** The declared bindings of toolset data (entries that are not bindings are left out: validation reports them). */
export function readDeclaredBindings(data: Json): DeclaredBindings | undefined {
  const raw = data["bindings"];
  if (!isObject(raw)) return undefined;
  const out: DeclaredBindings = {};
  for (const [tool, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    out[tool] = list.filter((b): b is Binding => isObject(b) && (BINDING_KINDS as readonly unknown[]).includes(b["kind"]) && bindingProblems(b as unknown as Binding).length === 0);
  }
  return out;
}

/** The world settings of toolset data, if any. */
export function readWorld(data: Json): WorldSettings | undefined {
  const raw = data["world"];
  if (!isObject(raw)) return undefined;
  const limits = isObject(raw["limits"]) ? raw["limits"] : undefined;
  const n = (v: unknown): number | undefined => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined);
  const picked = limits ? { maxItems: n(limits["maxItems"]), maxInvented: n(limits["maxInvented"]), maxObserved: n(limits["maxObserved"]) } : undefined;
  return {
    ...(typeof raw["open"] === "boolean" ? { open: raw["open"] } : {}),
    ...(picked ? { limits: Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) } : {}),
  };
}

/** The argument paths of a tool (its parameters and body fields: `city`, `items[].bookId`). */
function argumentPaths(catalog: Catalog, toolName: string): Set<string> {
  const tool = catalog.get(toolName) ?? catalog.tools.find((t) => t.operation.operationId === toolName);
  const out = new Set<string>();
  if (!tool) return out;
  for (const p of tool.parameters) out.add(p.arg);
  if (tool.body?.schemaPointer !== undefined) {
    const prefix = tool.body.mode === "wrapped" && tool.body.arg !== undefined ? `${tool.body.arg}.` : "";
    if (tool.body.mode === "wrapped" && tool.body.arg !== undefined) out.add(tool.body.arg);
    for (const f of schemaFields(catalog.registry, "request", tool.body.schemaPointer)) out.add(`${prefix}${f.path}`);
  }
  return out;
}

/** Whether a path names a field among known paths, reading `[0]`/`[-1]` as `[]`. */
function known(paths: ReadonlySet<string>, path: string): boolean {
  return paths.has(path.replace(/\[-?\d+\]/g, "[]"));
}

/** Problems of a toolset's `bindings:` against its spec. */
export function checkDeclaredBindings(data: Json, catalog: Catalog, file: string): SpecProblem[] {
  const raw = data["bindings"];
  if (!isObject(raw)) return [];
  const out: SpecProblem[] = [];
  const problem = (pointer: string, severity: "error" | "warning", message: string): void => {
    out.push({ file, pointer, severity, code: severity === "error" ? "binding-invalid" : "binding-unknown-name", message });
  };
  for (const [toolName, list] of Object.entries(raw)) {
    const base = `/bindings/${toolName.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const tool = catalog.get(toolName) ?? catalog.tools.find((t) => t.operation.operationId === toolName);
    if (!tool) {
      problem(base, "error", `bindings for "${toolName}": no tool or operationId of that name`);
      continue;
    }
    if (!Array.isArray(list)) continue;
    const args = argumentPaths(catalog, toolName);
    const selected = selectedResponse(catalog, tool);
    const fields = new Set(selected.schemaPointer !== undefined ? schemaFields(catalog.registry, "response", selected.schemaPointer).map((f) => f.path) : []);
    list.forEach((b, i) => {
      if (!isObject(b)) return;
      const binding = b as unknown as Binding;
      for (const m of bindingProblems(binding)) problem(`${base}/${i}`, "error", `${toolName}: ${m}`);
      for (const a of bindingArgs(binding)) if (parsePath(a) && !known(args, a)) problem(`${base}/${i}/arg`, "warning", `${toolName}: argument "${a}" is not one of the operation's (${[...args].slice(0, 8).join(", ")})`);
      const responseFields = binding.kind === "stock" ? [] : bindingFields(binding);
      for (const f of responseFields) if (parsePath(f) && fields.size > 0 && !known(fields, f) && !known(fields, f.replace(/\[\]$/, ""))) problem(`${base}/${i}/field`, "warning", `${toolName}: field "${f}" is not in the ${selected.key ?? "success"} response`);
      if ((binding.kind === "reference" || binding.kind === "stock") && !catalog.tools.some((t) => t.operation.path.startsWith(`${binding.collection}/`) || t.operation.path === binding.collection)) {
        problem(`${base}/${i}/collection`, "warning", `${toolName}: no operation of the spec works on the collection ${binding.collection}`);
      }
    });
  }
  return out;
}
