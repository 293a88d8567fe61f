import { ResourceStore } from "../../specs/respond/resource-store.js";
import type { Fixtures, StoreLimits } from "../../specs/respond/resource-store.js";
import { worldOf } from "../../specs/respond/world-settings.js";
import type { EpisodeToolset } from "./toolbox.js";

/** Whether a toolset's fixtures make a store: checked once per fixtures object (the error, when they do not). */
const CHECKED = new WeakMap<Fixtures, { error?: unknown }>();

const NO_FIXTURES: Fixtures = Object.freeze({}) as Fixtures;

function checkFixtures(fixtures: Fixtures): void {
  let checked = CHECKED.get(fixtures);
  if (!checked) {
    try {
      ResourceStore.fromFixtures(fixtures);
      checked = {};
    } catch (error) {
      checked = { error };
    }
    CHECKED.set(fixtures, checked);
  }
  if ("error" in checked) throw checked.error;
}

/**
 * The simulated world of one episode: one resource store per toolset, started from its fixtures. A store is
 * made when the episode first uses its toolset (an episode over all the toolsets uses one or two of them);
 * fixtures that cannot make a store fail here, when the episode starts.
 */
export class EpisodeState {
  private readonly stores = new Map<string, ResourceStore>();
  private readonly fixtures = new Map<string, Fixtures>();
  private readonly limits = new Map<string, StoreLimits | undefined>();
  /** How many tool calls the episode has made (seeds each call's answer). */
  calls = 0;

  constructor(toolsets: readonly EpisodeToolset[]) {
    for (const ts of toolsets) {
      const fixtures = ts.fixtures ?? NO_FIXTURES;
      checkFixtures(fixtures);
      this.fixtures.set(ts.name, fixtures);
      this.limits.set(ts.name, worldOf(ts.catalog).limits);
    }
  }

  /** The store of a toolset. */
  store(toolset: string): ResourceStore {
    let s = this.stores.get(toolset);
    if (!s) {
      const fixtures = this.fixtures.get(toolset);
      const limits = this.limits.get(toolset);
      s = fixtures ? ResourceStore.fromFixtures(fixtures, limits) : new ResourceStore(limits);
      this.stores.set(toolset, s);
    }
    return s;
  }

  /** A deep copy of every store (for forks and inspection): the toolsets' first, then any other. */
  snapshot(): Record<string, Record<string, Record<string, unknown>[]>> {
    const out: Record<string, Record<string, Record<string, unknown>[]>> = {};
    for (const name of this.fixtures.keys()) out[name] = this.store(name).snapshot();
    for (const [name, s] of this.stores) if (!this.fixtures.has(name)) out[name] = s.snapshot();
    return out;
  }
}
