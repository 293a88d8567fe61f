/**
 * Section `executor` (issue 2, item 10):
 * `calls`: in-process calls per second (route + validate + respond) of toolsim's `simulateCall` against
 *          Prism's in-process HTTP client, on the same spec and the same 70/30 mix of valid and invalid calls;
 * `load`:  load time of the largest shared specs, toolsim's `loadCatalog` (catalog built, ready to serve)
 *          against Prism's `getHttpOperationsFromSpec`.
 */
import { benchCalls } from "./executor-calls.js";
import { benchLoad } from "./executor-load.js";

/** Parts of the section a filter can pick: `executor.calls`, `executor.load`. */
export const EXECUTOR_PARTS = ["calls", "load"] as const;

export async function runExecutor(parts: ReadonlySet<string>): Promise<void> {
  if (parts.has("calls")) await benchCalls();
  if (parts.has("load")) await benchLoad();
}
