import { ResourceStore } from "../specs/resource-store.js";
import type { EpisodeToolset } from "./toolbox.js";

/** The simulated world of one episode: one resource store per toolset, started from its fixtures. */
export class EpisodeState {
  private readonly stores = new Map<string, ResourceStore>();
  /** How many tool calls the episode has made (seeds each call's answer). */
  calls = 0;

  constructor(toolsets: readonly EpisodeToolset[]) {
    for (const ts of toolsets) this.stores.set(ts.name, ResourceStore.fromFixtures(ts.fixtures ?? {}));
  }

  /** The store of a toolset. */
  store(toolset: string): ResourceStore {
    let s = this.stores.get(toolset);
    if (!s) {
      s = new ResourceStore();
      this.stores.set(toolset, s);
    }
    return s;
  }

  /** A deep copy of every store (for forks and inspection). */
  snapshot(): Record<string, Record<string, Record<string, unknown>[]>> {
    const out: Record<string, Record<string, Record<string, unknown>[]>> = {};
    for (const [name, s] of this.stores) out[name] = s.snapshot();
    return out;
  }
}
