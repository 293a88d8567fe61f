import type { Catalog } from "../catalog/catalog.js";
import { selectResponse, type SelectedResponse } from "../call/select-response.js";
import type { Tool } from "../catalog/tool.js";

/**
 * Per-catalog memos of what answering a call looks up again and again: the selected response of a tool
 * (per requested status) and anything derived from a selected response. A loaded spec does not change,
 * so neither do these.
 */

const selections = new WeakMap<Catalog, WeakMap<Tool, Map<number | undefined, SelectedResponse>>>();

/** `selectResponse`, memoized: the same (read-only) object for the same catalog, tool and status. */
export function selectedResponse(catalog: Catalog, tool: Tool, status?: number): SelectedResponse {
  let byTool = selections.get(catalog);
  if (!byTool) {
    byTool = new WeakMap();
    selections.set(catalog, byTool);
  }
  let byStatus = byTool.get(tool);
  if (!byStatus) {
    byStatus = new Map();
    byTool.set(tool, byStatus);
  }
  let hit = byStatus.get(status);
  if (hit === undefined) {
    hit = selectResponse(catalog, tool, status);
    byStatus.set(status, hit);
  }
  return hit;
}

const derived = new WeakMap<Catalog, Map<string, unknown>>();
const derivedByObject = new WeakMap<SelectedResponse, Map<string, unknown>>();

/** A value computed once per catalog, selected response and purpose (`what`). */
export function perSelection<T>(catalog: Catalog, selected: SelectedResponse, what: string, compute: () => T): T {
  // By identity first (memoized selections), then by the selection's pointers.
  let mine = derivedByObject.get(selected);
  if (mine?.has(what)) return mine.get(what) as T;
  let byKey = derived.get(catalog);
  if (!byKey) {
    byKey = new Map();
    derived.set(catalog, byKey);
  }
  const key = `${what}\u0000${selected.mediaPointer ?? ""}\u0000${selected.schemaPointer ?? ""}`;
  let value: T;
  if (byKey.has(key)) value = byKey.get(key) as T;
  else {
    value = compute();
    byKey.set(key, value);
  }
  if (!mine) {
    mine = new Map();
    derivedByObject.set(selected, mine);
  }
  mine.set(what, value);
  return value;
}
