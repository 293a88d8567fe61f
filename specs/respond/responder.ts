import type { Catalog } from "../catalog/catalog.js";
import type { ResourceStore } from "./resource-store.js";
import type { ResponseSource } from "../call/tool-result.js";
import type { ValidatedCall } from "../call/validate-call.js";

/** What a responder sees: the validated call, its catalog, the seed of this call and the episode's state. */
export interface ResponseContext {
  catalog: Catalog;
  call: ValidatedCall;
  /** The seed of this call (derived from the run seed and the call). */
  seed: number;
  state: ResourceStore;
  /** A status the caller asked for (Prism's `Prefer: code=`), if any. */
  status?: number;
  /** Prefer the spec's examples over synthesis (default true). */
  useExamples?: boolean;
}

/** A responder's answer. */
export interface ResponderAnswer {
  status: number;
  body: unknown;
  contentType?: string;
  source: ResponseSource;
  notes?: string[];
}

/** One responder stage: answers a call or passes (undefined) to the next. */
export interface Responder {
  readonly name: string;
  respond(ctx: ResponseContext): ResponderAnswer | undefined | Promise<ResponderAnswer | undefined>;
}
