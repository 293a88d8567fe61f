import { toolArgumentsSchema } from "../specs/catalog/tool-schema.js";
import { bindingsOf, describeBinding, type Binding } from "../specs/respond/bindings/bindings.js";
import type { LoadedToolset } from "./toolset.js";

/** A toolset's documentation as the agents get it: the texts, and each tool as a model sees it. */
export interface ToolsetDocumentation {
  name: string;
  title: string;
  category?: string;
  link?: string;
  introduction: string;
  description: string;
  functions: string;
  /** True when the toolset has no function documentation of its own and `functions` was derived from the spec. */
  functionsDerived?: boolean;
  auth?: string;
  tools: Array<{ name: string; description: string; parameters: Record<string, unknown>; method: string; path: string; bindings: Binding[] }>;
  fixtures: Record<string, number>;
  /** `closed` (an unknown id of a fixture collection is a 404) or `open` (it is invented and remembered). */
  world: "closed" | "open";
  tasks: number;
}

/** How a toolset's auth reads: `apiKey in header X-Api-Key (1 credential)`. */
export function describeAuth(auth: LoadedToolset["auth"]): string | undefined {
  if (!auth) return undefined;
  const keys = Object.keys(auth.keys ?? {});
  const where = auth.type === "apiKey" ? ` in ${auth.in ?? "header"} ${[auth.name ?? "", ...keys].join(" + ")}`.trimEnd() : "";
  const checked = auth.checkedBy === "api" ? ", checked by the API" : "";
  return `${auth.type}${where} (${auth.credentials.length} credential${auth.credentials.length === 1 ? "" : "s"}${checked})`;
}

/** The documentation of a loaded toolset: introduction, description, function documentation and tools (with the bindings the simulator obeys). */
export function toolsetDocumentation(ts: LoadedToolset): ToolsetDocumentation {
  const auth = describeAuth(ts.auth);
  return {
    name: ts.name,
    title: ts.title,
    ...(ts.category !== undefined ? { category: ts.category } : {}),
    ...(ts.link !== undefined ? { link: ts.link } : {}),
    introduction: ts.introduction,
    description: ts.description,
    functions: ts.functions,
    ...(ts.functionsDerived ? { functionsDerived: true } : {}),
    ...(auth !== undefined ? { auth } : {}),
    tools: ts.catalog.tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: toolArgumentsSchema(ts.catalog, t),
      method: t.operation.method.toUpperCase(),
      path: t.operation.path,
      bindings: [...bindingsOf(ts.catalog, t)],
    })),
    fixtures: Object.fromEntries(Object.entries(ts.fixtures ?? {}).map(([path, items]) => [path, items.length])),
    world: ts.world?.open === true ? "open" : "closed",
    tasks: ts.tasks?.length ?? 0,
  };
}

/** The documentation as text, in the order an agent's prompt has it. */
export function renderDocumentation(doc: ToolsetDocumentation): string {
  const lines: string[] = [`# ${doc.title} (${doc.name})`];
  if (doc.category !== undefined) lines.push(`Category: ${doc.category}`);
  if (doc.link !== undefined) lines.push(`Link: ${doc.link}`);
  if (doc.auth !== undefined) lines.push(`Auth: ${doc.auth}`);
  const fixtures = Object.entries(doc.fixtures);
  if (fixtures.length > 0) lines.push(`Fixtures: ${fixtures.map(([p, n]) => `${p} (${n})`).join(", ")} (${doc.world} world: an unknown id is ${doc.world === "open" ? "invented and remembered" : "a 404"})`);
  if (doc.tasks > 0) lines.push(`Tasks: ${doc.tasks}`);
  lines.push("", "## Introduction", doc.introduction, "", "## Description", doc.description, "", doc.functionsDerived ? "## Functions (derived from the spec: the toolset has none of its own)" : "## Functions", doc.functions.trim() === "" ? "(none)" : doc.functions.trimEnd(), "", `## Tools (${doc.tools.length})`);
  for (const t of doc.tools) {
    lines.push("", `### ${t.name}  (${t.method} ${t.path})`, t.description, "Arguments:", JSON.stringify(t.parameters, null, 2));
    // What the simulator holds its answers to (not part of the agents' documentation).
    if (t.bindings.length > 0) lines.push("Bindings (the simulated answer obeys them):", ...t.bindings.map((b) => `  - ${describeBinding(b)}`));
  }
  return `${lines.join("\n")}\n`;
}
