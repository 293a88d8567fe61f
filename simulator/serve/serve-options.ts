import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Catalog } from "../../specs/catalog/catalog.js";
import type { Fixtures } from "../../specs/respond/resource-store.js";
import type { Responder } from "../../specs/respond/responder.js";
import type { SynthesisLimits } from "../../specs/synthesize/work-budget.js";
import type { LoadedToolset, ToolsetAuth } from "../../toolsets/toolset.js";
import type { Credential } from "./auth.js";
import type { FaultOptions } from "./faults.js";
import type { HttpCassette } from "./record/http-cassette.js";
import type { Rate } from "./rate-limits.js";

/*
 * What a simulated API server is told: the APIs it serves and how (mode, state, security, limits, faults,
 * recordings), as `toolsim serve` and the library's `createServeApp` take it.
 */

/** Where answers come from: the simulator (`schema`: state, examples, synthesis), an LLM, a cassette, or the real API. */
export type ServeMode = "schema" | "llm" | "replay" | "proxy";

/** The serve modes, as the CLI accepts them. */
export const SERVE_MODES: readonly ServeMode[] = ["schema", "llm", "replay", "proxy"];

/** One API a server serves: a catalog under a name (its URL prefix when several are served). */
export interface ServedApi {
  /** URL-safe name (`bookstore`): the prefix `/bookstore` when several APIs are served. */
  name: string;
  catalog: Catalog;
  /** Initial state of every session (a toolset's fixtures). */
  fixtures?: Fixtures;
  /** A toolset's auth: its credentials are accepted, its scheme enforced when the spec declares none. */
  auth?: ToolsetAuth;
  /** The real API's base URL (proxy mode). */
  upstream?: string;
  /** The file it was loaded from (for messages). */
  source?: string;
  /** The toolset it was loaded from, if any (its documentation is offered over MCP). */
  toolset?: LoadedToolset;
}

/** Options of a simulated API server (the library form of `toolsim serve`). */
export interface ServeOptions {
  apis: ServedApi[];
  mode?: ServeMode;
  /** Base seed of every simulated answer and of fault injection (default 1). */
  seed?: number;
  /** Answer from the schema only, with no state (as Prism does). */
  stateless?: boolean;
  /** Largest accepted request body in bytes (default 1 MiB); larger ones get a 413. */
  bodyLimit?: number;
  /**
   * Most live sessions besides the default one (default 1000): past it the least recently used is evicted, and
   * answers every later request with a 410 problem saying so until it is reset.
   */
  maxSessions?: number;
  /** Evicted sessions remembered as evicted (default 100,000). */
  maxEvictedSessions?: number;
  /** Enforce the specs' security schemes (default true; in proxy mode only with explicit credentials). */
  enforceAuth?: boolean;
  /** Credentials accepted by every API (plus each toolset's own). */
  credentials?: Credential[];
  /** Requests per window per credential (429 beyond). */
  rateLimit?: Rate;
  /** Requests per (longer) window per credential (429 beyond). */
  quota?: Rate;
  faults?: FaultOptions;
  /** The model of `llm` mode (answers what state does not). */
  llm?: { model: BaseChatModel };
  /** Replaces the responders of simulated answers (advanced; default state then schema). */
  responders?: Responder[];
  /** Record every answered exchange to this cassette file (JSON Lines; secrets redacted). */
  record?: string;
  /** The recordings served in `replay` mode. */
  cassette?: HttpCassette;
  /** Time allowed to the real API in proxy mode (default 30 s). */
  upstreamTimeoutMs?: number;
  /** The fetch used to reach the real API (tests). */
  fetch?: typeof fetch;
  /** The clock of rate limits and quotas (tests). */
  now?: () => number;
  /** Answer CORS preflights and add `Access-Control-Allow-Origin: *` (for agents in a browser). */
  cors?: boolean;
  /**
   * When set, the admin routes that read or change state (`/__toolsim/state`, `/sessions`, `/reset`) need
   * this value in an `X-Toolsim-Admin-Token` header (401 otherwise); `/__toolsim/health` stays open.
   */
  adminToken?: string;
  /**
   * Host names the admin routes answer besides loopback names, IP addresses and this machine's name (they refuse
   * other `Host` headers without an admin token, against DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /**
   * Milliseconds of synthesis work one request may take (default `DEFAULT_REQUEST_BUDGET_MS`; 0: no limit):
   * past it the request is a 500 problem naming the budget, and the server goes on serving.
   */
  requestBudgetMs?: number;
  /** Caps of synthesized values (sizes, depth; defaults far above what real specs ask). */
  synthesisLimits?: Partial<SynthesisLimits>;
  /** The clock of request budgets (tests; default `performance.now`). */
  budgetClock?: () => number;
  /** Where warnings and (with `verbose`) one line per request go. */
  log?: (line: string) => void;
  verbose?: boolean;
}

/** The default largest request body: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
