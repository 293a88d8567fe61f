import { createRng, deriveSeed } from "../../specs/seed.js";

/** Kinds of injected faults: a 5xx answer, a request that hangs then times out (504), or added latency. */
export type FaultKind = "5xx" | "timeout" | "latency";

/** The fault kinds, as the CLI accepts them. */
export const FAULT_KINDS: readonly FaultKind[] = ["5xx", "timeout", "latency"];

/** Fault injection settings: each request is faulted with probability `rate`, with one of `kinds`. */
export interface FaultOptions {
  rate: number;
  kinds: readonly FaultKind[];
  /** Delay of a `latency` fault (default 200 ms). */
  latencyMs?: number;
  /** How long a `timeout` fault hangs before its 504 (default 30 s). */
  timeoutMs?: number;
}

/** The fault of one request, if any. */
export interface Fault {
  kind: FaultKind;
  /** The status of a `5xx` fault. */
  status?: number;
}

const STATUSES = [500, 502, 503] as const;

/**
 * The fault of the n-th request (0-based) of a server: a pure function of the seed, the settings and n,
 * so one seed gives one sequence of faults.
 */
export function faultAt(seed: number, options: FaultOptions, n: number): Fault | undefined {
  if (options.rate <= 0 || options.kinds.length === 0) return undefined;
  const rng = createRng(deriveSeed(seed, "fault", n));
  if (!rng.chance(options.rate)) return undefined;
  const kind = rng.pick(options.kinds);
  return kind === "5xx" ? { kind, status: rng.pick(STATUSES) } : { kind };
}

/** Waits `ms`, or less when the signal aborts (server shutdown). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
