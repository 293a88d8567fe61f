/** A call as a reader of the data sees it (its arguments, status and body), and what the reader finds wrong with it. */

type Json = Record<string, unknown>;

/** One contradiction between a call and its response (or the state before it). */
export interface Contradiction {
  rule: "equality" | "filter" | "range" | "search" | "route" | "effect" | "state" | "reference" | "total" | "repeat" | "entity" | "window" | "timeline";
  tool: string;
  field: string;
  argument?: string;
  expected: unknown;
  actual: unknown;
}

/** A call and its result as the journal has them. */
export interface ObservedCall {
  toolset: string;
  tool: string;
  method: string;
  path: string;
  args: Json;
  /** Arguments that travelled in the request body (not filters). */
  bodyArgs: ReadonlySet<string>;
  status: number;
  body: unknown;
}
