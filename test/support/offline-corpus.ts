import type { Level } from "../../agents/roles/agent-context.js";
import type { SimEvent } from "../../simulator/core/events.js";
import { createSimulation } from "../../simulator/core/simulation.js";
import { bundledToolsetsDir, loadToolsets } from "../../toolsets/load-toolset.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";

/** The bundled toolsets, loaded once per test file. */
let bundled: Promise<EpisodeToolset[]> | undefined;

/** The bundled toolsets (each loads; a broken one fails the caller's test). */
export function bundledToolsets(): Promise<EpisodeToolset[]> {
  bundled ??= loadToolsets([bundledToolsetsDir()]).then(({ toolsets, problems }) => {
    if (problems.length > 0) throw new Error(`bundled toolsets do not load: ${problems.map((p) => p.message).join("; ")}`);
    return toolsets as EpisodeToolset[];
  });
  return bundled;
}

/** Runs offline episodes in memory and returns each finished episode's events, in episode order. */
export async function offlineEpisodes(toolsets: EpisodeToolset[], options: { episodes: number; seed: number; level?: Level }): Promise<SimEvent[][]> {
  const sim = createSimulation({ toolsets, episodes: options.episodes, seed: options.seed, level: options.level ?? "call", concurrency: 1 });
  const byEpisode = new Map<string, SimEvent[]>();
  sim.on("*", (e) => {
    const list = byEpisode.get(e.episodeId) ?? [];
    list.push(e);
    byEpisode.set(e.episodeId, list);
  });
  await sim.run();
  return [...byEpisode.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, events]) => events);
}
