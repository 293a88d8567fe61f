import type { Catalog } from "../../catalog/catalog.js";
import { firstValue, lastName } from "../../catalog/field-path.js";
import type { Tool } from "../../catalog/tool.js";
import { isIdentityField } from "../world/entity-memory.js";
import { argumentDefaults } from "./argument-defaults.js";
import { bindingsOf, type Binding } from "./bindings.js";
import { UNIT_FIELDS } from "../world/unit-systems.js";
import { schemaFields } from "../../catalog/schema-fields.js";
import { selectedResponse } from "../response-cache.js";
import { valueKindOf } from "../../value-kinds.js";
import { norm } from "../../synthesize/world/entity-shape.js";
import { toPointer } from "../../json-pointer.js";
import { readsNearby } from "../world/nearby-points.js";
import { hasTouchedStamp, type Touch } from "../world/made-now.js";
import { durationUnit } from "../world/asked-window.js";
import { isProblemMapName } from "../../problem-maps.js";
import { statusEchoPaths } from "../world/echoed-status.js";
import { searchEchoes } from "../world/unsent-echoes.js";

type Of<K extends Binding["kind"]> = Extract<Binding, { kind: K }>;

/**
 * What obeying a tool's bindings takes, worked out once per tool (it depends on the spec and the toolset alone):
 * its bindings sorted by kind in the order they apply, and what tells whether a call speaks to any of them.
 */
export interface ObeyPlan {
  bindings: readonly Binding[];
  /** `equals` bindings on the fields that name the record (its id): applied first. */
  identity: ReadonlyArray<Of<"equals">>;
  equals: ReadonlyArray<Of<"equals"> | Of<"route">>;
  todayEquals: ReadonlyArray<Of<"today">>;
  filters: ReadonlyArray<Of<"filter">>;
  ranges: ReadonlyArray<Of<"range">>;
  todayItems: ReadonlyArray<Of<"today">>;
  searches: ReadonlyArray<Of<"search">>;
  effects: ReadonlyArray<Of<"effect">>;
  references: ReadonlyArray<Of<"reference">>;
  totals: ReadonlyArray<Of<"total">>;
  /** The bindings a list item can fail (filters, ranges and searches): items that still fail them are left out. */
  itemBindings: readonly Binding[];
  /** Whether a binding holds whatever the call says (a `today` one, or one without an argument). */
  unconditional: boolean;
  /** The arguments the other bindings read; a call that gives none of them (and whose defaults are none) changes nothing. */
  args: readonly string[];
  /** The tool's parameter defaults, by argument. */
  defaults: ReadonlyMap<string, unknown>;
  /** `name path`, for the checks that go by what the operation is called. */
  toolName: string;
  /** Whether the tool's answer has fields that say what already happened (`createdAt`): only then are they looked at. */
  stamps: boolean;
  /** Whether the tool takes a unit system (`units`): its answer's measurements may need converting. */
  units: boolean;
  /** The tool's parameters that ask for a span of time (`hours`, `lastDays`): the window its answer names spans it. */
  windowArgs: readonly string[];
  /** How the tool touches the record it answers with (a `POST` answered 201 made it, a `PUT`/`PATCH` changed it), when that record has stamps of it. */
  touch?: Touch;
  /** Whether the tool takes a point (`lat` and `lon`): its answer's time zone is the point's. */
  point: boolean;
  /** Whether the tool reads what is near a point (`GetDrivers(lat, lng)`, a search with a radius): what it lists is near the point. */
  nearby: boolean;
  /** The span a call may ask for (`days=5`: its dated list is that long), if any. */
  span?: Of<"span">;
  /**
   * The fields a read of one named record sets from its other arguments (`servings=6` on `GET /recipes/{id}`,
   * as pointers into the answer): the view the call asked for, not news about the record, so not remembered.
   */
  views: ReadonlyArray<{ arg: string; pointer: string }>;
  /** Whether the tool's success answer may hold problems by field (`rejected: {...}`): only those of what the call sent stay. */
  problems: boolean;
  /** The numeric fields of its success answer that echo the answer's HTTP status (`meta.status`). */
  statusEchoes: readonly string[];
  /** The fields of its success answer that echo a search (`query`): left out of an answer to a call that sent none. */
  searchEchoes: readonly string[];
}

const plans = new WeakMap<Catalog, WeakMap<Tool, ObeyPlan>>();

/** The tool's plan (cached per catalog and tool). */
export function obeyPlan(catalog: Catalog, tool: Tool): ObeyPlan {
  let byTool = plans.get(catalog);
  if (!byTool) plans.set(catalog, (byTool = new WeakMap()));
  let plan = byTool.get(tool);
  if (plan === undefined) byTool.set(tool, (plan = makePlan(catalog, tool)));
  return plan;
}

/** The view a call asks for: the plan's `views` whose argument the call gives. */
export function askedViews(plan: ObeyPlan, args: Record<string, unknown>): ReadonlyArray<{ arg: string; pointer: string }> {
  return plan.views.length === 0 ? plan.views : plan.views.filter((v) => firstValue(args, v.arg) !== undefined);
}

function makePlan(catalog: Catalog, tool: Tool): ObeyPlan {
  const bindings = bindingsOf(catalog, tool);
  const of = <K extends Binding["kind"]>(kind: K): Array<Of<K>> => bindings.filter((b): b is Of<K> => b.kind === kind);
  const today = of("today");
  const args: string[] = [];
  let unconditional = false;
  for (const b of bindings) {
    if (b.kind === "today" || !("arg" in b) || b.arg === undefined) unconditional = true;
    else args.push(b.arg);
  }
  const span = of("span")[0];
  const identity = of("equals").filter((b) => isIdentityField(lastName(b.field)));
  const reads = tool.operation.method === "get" || tool.operation.method === "head";
  const views = reads && identity.length > 0 ? of("equals").filter((b) => !identity.includes(b) && !b.field.includes("[]")).map((b) => ({ arg: b.arg, pointer: toPointer(b.field.split(".")) })) : [];
  return {
    bindings,
    identity,
    equals: bindings.filter((b): b is Of<"equals"> | Of<"route"> => b.kind === "equals" || b.kind === "route"),
    todayEquals: today.filter((b) => b.bound === "equals"),
    filters: of("filter"),
    ranges: of("range"),
    todayItems: today.filter((b) => b.bound !== "equals"),
    searches: of("search"),
    effects: of("effect"),
    references: of("reference"),
    totals: of("total"),
    itemBindings: bindings.filter((b) => b.kind === "filter" || b.kind === "range" || b.kind === "search"),
    unconditional,
    args: [...new Set(args)],
    defaults: argumentDefaults(catalog, tool),
    toolName: `${tool.name} ${tool.operation.path}`,
    stamps: hasStampFields(catalog, tool),
    units: tool.parameters.some((p) => UNIT_FIELDS.has(norm(p.name))),
    point: tool.parameters.some((p) => /^(lat|latitude)$/i.test(p.name)) && tool.parameters.some((p) => /^(lon|lng|long|longitude)$/i.test(p.name)),
    nearby: readsNearby(tool),
    ...(span !== undefined ? { span } : {}),
    ...touchOf(catalog, tool),
    windowArgs: tool.parameters.filter((p) => p.in === "query" || p.in === "path").map((p) => p.arg).filter((a) => durationUnit(a) !== undefined),
    views,
    ...envelopeOf(catalog, tool),
  };
}

/** How the tool touches the record it answers with, when that record has stamps of making or change (`createdAt`, `updatedAt`). */
function touchOf(catalog: Catalog, tool: Tool): { touch?: Touch } {
  const method = tool.operation.method;
  const selected = selectedResponse(catalog, tool);
  const touch: Touch | undefined = method === "post" && selected.status === 201 ? "made" : method === "put" || method === "patch" ? "changed" : undefined;
  if (touch === undefined || selected.schemaPointer === undefined) return {};
  // Its own fields and those of the one record it wraps (`{user: {...}}`).
  const fields = schemaFields(catalog.registry, "response", selected.schemaPointer).filter((f) => !f.path.includes("[]") && f.path.split(".").length <= 2);
  return hasTouchedStamp(fields.map((f) => f.name), touch) ? { touch } : {};
}

/** What a tool's success answer says about the exchange itself: problems by field, echoes of its status and of a search. */
function envelopeOf(catalog: Catalog, tool: Tool): Pick<ObeyPlan, "problems" | "statusEchoes" | "searchEchoes"> {
  const selected = selectedResponse(catalog, tool);
  if (selected.schemaPointer === undefined || selected.status < 200 || selected.status > 299) return { problems: false, statusEchoes: [], searchEchoes: [] };
  const fields = schemaFields(catalog.registry, "response", selected.schemaPointer);
  return {
    problems: fields.some((f) => (f.object || f.type === "object") && isProblemMapName(f.name)),
    statusEchoes: statusEchoPaths(fields, selected.status),
    searchEchoes: searchEchoes(fields),
  };
}

/** Whether a tool's success answer has a field named for what already happened (an answer without a schema may). */
function hasStampFields(catalog: Catalog, tool: Tool): boolean {
  const selected = selectedResponse(catalog, tool);
  if (selected.schemaPointer === undefined) return true;
  return schemaFields(catalog.registry, "response", selected.schemaPointer).some((f) => valueKindOf(f.name) === "stamp");
}
