import type { Catalog } from "../../catalog/catalog.js";
import type { Tool } from "../../catalog/tool.js";
import { parsePath } from "../../catalog/field-path.js";
import { inferBindings } from "./infer-bindings.js";
export type { BindingMatch, EqualsBinding, FilterBinding, RangeBinding, TodayBinding, SearchBinding, RouteBinding, ReferenceBinding, EffectBinding, TotalBinding, StockBinding, NoBinding, Binding, DeclaredBindings } from "./binding-types.js";
export { BINDING_KINDS } from "./binding-types.js";
import { BINDING_KINDS } from "./binding-types.js";
import type { Binding, DeclaredBindings } from "./binding-types.js";

/**
 * Bindings: what a request says about its response, as data. Inferred for every operation when first
 * needed (`infer-bindings.ts`), declared or overridden by a toolset (`bindings:`), shown by `toolset show`
 * and `spec tools --with-operations`, obeyed by every responder (`obey-bindings.ts`) and checked by the
 * tester (`binding-check.ts`). Arguments and fields are field paths (`location.name`, `items[].bookId`,
 * `[].region`, `offers[].outbound.segments[-1].to`).
 */


const declaredByCatalog = new WeakMap<Catalog, DeclaredBindings>();
const resolvedByCatalog = new WeakMap<Catalog, Map<string, readonly Binding[]>>();

/** Attaches a toolset's declared bindings to its catalog (they override the inferred ones). */
export function declareBindings(catalog: Catalog, declared: DeclaredBindings | undefined): void {
  if (declared === undefined) return;
  declaredByCatalog.set(catalog, declared);
  resolvedByCatalog.delete(catalog);
}

/** The bindings declared for a catalog's tools, if any. */
export function declaredBindings(catalog: Catalog): DeclaredBindings | undefined {
  return declaredByCatalog.get(catalog);
}

/** The arguments a binding reads (paths into the arguments). */
export function bindingArgs(b: Binding): string[] {
  return "arg" in b && b.arg !== undefined ? [b.arg] : [];
}

/** The response fields a binding constrains. */
export function bindingFields(b: Binding): string[] {
  switch (b.kind) {
    case "search":
      return b.fields;
    case "reference":
      return Object.keys(b.fields);
    case "stock":
      return [];
    case "none":
      return b.field !== undefined ? [b.field] : [];
    default:
      return [b.field];
  }
}

/**
 * Inferred bindings merged with declared ones: a declared binding replaces the inferred ones on the same
 * field (or, for a search, the same argument); `none` removes the inferred ones of its argument or field.
 */
export function mergeBindings(inferred: readonly Binding[], declared: readonly Binding[] | undefined): Binding[] {
  if (!declared || declared.length === 0) return [...inferred];
  const removedArgs = new Set<string>();
  const removedFields = new Set<string>();
  for (const d of declared) {
    if (d.kind === "none") {
      if (d.arg !== undefined) removedArgs.add(d.arg);
      if (d.field !== undefined) removedFields.add(d.field);
      continue;
    }
    for (const f of bindingFields(d)) removedFields.add(f);
    if (d.kind === "search" || d.kind === "stock") removedArgs.add(`${d.kind}:${d.arg}`);
    if (d.kind === "effect" || d.kind === "total") removedFields.add(d.field);
  }
  const kept = inferred.filter((b) => {
    if (bindingArgs(b).some((a) => removedArgs.has(a) || removedArgs.has(`${b.kind}:${a}`))) return false;
    return !bindingFields(b).some((f) => removedFields.has(f));
  });
  return [...kept, ...declared.filter((d) => d.kind !== "none").map((d) => ({ ...d, source: "declared" as const }))];
}

/** The bindings of a tool: inferred from the spec (once per catalog), merged with the toolset's declared ones. */
export function bindingsOf(catalog: Catalog, tool: Tool): readonly Binding[] {
  let byTool = resolvedByCatalog.get(catalog);
  if (!byTool) {
    byTool = new Map();
    resolvedByCatalog.set(catalog, byTool);
  }
  let hit = byTool.get(tool.name);
  if (hit === undefined) {
    const declared = declaredByCatalog.get(catalog);
    const mine = declared?.[tool.name] ?? (tool.operation.operationId !== undefined ? declared?.[tool.operation.operationId] : undefined);
    hit = mergeBindings(inferBindings(catalog, tool), mine);
    byTool.set(tool.name, hit);
  }
  return hit;
}

/** A binding in words, for listings: `city -> location.name (equals)`. */
export function describeBinding(b: Binding): string {
  const src = b.source === "declared" ? ", declared" : "";
  switch (b.kind) {
    case "equals":
    case "filter":
      return `${b.arg} -> ${b.field} (${b.kind}${b.match !== undefined && b.match !== "exact" ? ` ${b.match}` : ""}${src})`;
    case "range":
      return `${b.arg} -> ${b.field} (${b.bound === "min" ? "at least" : "at most"}${src})`;
    case "today":
      return `${b.field} ${b.bound === "equals" ? "is" : b.starts === true ? "starts" : b.bound === "min" ? "on or after" : "on or before"} today${b.arg !== undefined ? ` unless ${b.arg} is given` : ""} (today${src})`;
    case "span":
      return b.unit === "item" ? `${b.arg} -> length of ${b.field} (span${src})` : `${b.arg} -> length of ${b.field}, one ${b.unit} apart (span${src})`;
    case "search":
      return `${b.arg} -> ${b.fields.join(" | ")} (search${src})`;
    case "route":
      return `${b.arg} -> ${b.field} (route${src})`;
    case "reference":
      return `${b.arg} -> ${b.collection}: ${Object.entries(b.fields)
        .map(([f, r]) => `${f} = ${r}`)
        .join(", ")} (reference${src})`;
    case "effect":
      return `${b.field} = ${JSON.stringify(b.value)} (effect${src})`;
    case "total":
      return b.items !== undefined
        ? `${b.field} = sum of ${b.items}${b.price !== undefined ? `.${b.price}` : ""}${b.quantity !== undefined ? ` x ${b.quantity}` : ""} (total${src})`
        : `${b.field} = ${(b.add ?? []).join(" + ")}${(b.subtract ?? []).map((s) => ` - ${s}`).join("")} (total${src})`;
    case "stock":
      return `${b.arg} -> ${b.collection}.${b.field} covers ${b.quantity ?? "1"} (stock${src})`;
    case "none":
      return `no binding on ${b.arg ?? b.field ?? "?"}`;
  }
}

/** Problems of a declared binding (bad paths, missing fields), as messages; empty when it is fine. */
export function bindingProblems(b: Binding): string[] {
  const out: string[] = [];
  if (!(BINDING_KINDS as readonly string[]).includes(b.kind)) return [`unknown kind ${JSON.stringify(b.kind)}`];
  for (const a of bindingArgs(b)) if (!parsePath(a)) out.push(`arg ${JSON.stringify(a)} is not a field path`);
  for (const f of bindingFields(b)) if (!parsePath(f)) out.push(`field ${JSON.stringify(f)} is not a field path`);
  if (b.kind === "none" && b.arg === undefined && b.field === undefined) out.push("a `none` binding names an arg or a field");
  if (b.kind === "total" && b.items === undefined && (b.add ?? []).length === 0) out.push("a total names `items` (with `price` and `quantity`) or `add`");
  return out;
}
