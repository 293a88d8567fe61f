import type { Catalog } from "../catalog/catalog.js";
import type { StoreLimits } from "./resource-store.js";

/**
 * How a toolset's simulated world behaves, attached to its catalog when the toolset is loaded (`world:` in
 * the toolset file): whether collections seeded from fixtures are closed (an unknown id is a 404, the
 * default) or open (an unknown id is invented and remembered), and the store's limits.
 */
export interface WorldSettings {
  /** Unknown ids of fixture collections are invented (and remembered) instead of 404 (default false). */
  open?: boolean;
  /** Limits of each store (per episode or serve session). */
  limits?: StoreLimits;
}

const settings = new WeakMap<Catalog, WorldSettings>();

/** Attaches a toolset's world settings to its catalog. */
export function declareWorld(catalog: Catalog, world: WorldSettings | undefined): void {
  if (world !== undefined) settings.set(catalog, world);
}

/** The world settings of a catalog (`{}` when the toolset declared none). */
export function worldOf(catalog: Catalog): WorldSettings {
  return settings.get(catalog) ?? {};
}
