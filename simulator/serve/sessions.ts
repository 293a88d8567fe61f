import { createHash } from "node:crypto";
import { ResourceStore, type Fixtures } from "../../specs/respond/resource-store.js";

/** The session of requests without an `X-Toolsim-Session` header. */
export const DEFAULT_SESSION = "default";

/** The default most live sessions. */
export const DEFAULT_MAX_SESSIONS = 1000;

/** The default number of evicted sessions remembered (so that each says it was evicted instead of starting over). */
export const DEFAULT_MAX_EVICTED = 100_000;

/** The longest session id accepted (a longer `X-Toolsim-Session` is refused). */
export const MAX_SESSION_ID_LENGTH = 256;

/** Bounds of the sessions a server keeps. */
export interface SessionLimits {
  /** Most live sessions besides the default one (default 1000); past it the least recently used is evicted. */
  maxSessions?: number;
  /** Evicted sessions remembered, oldest forgotten first (default 100,000; each costs about 100 bytes). */
  maxEvicted?: number;
}

/** A session that was evicted: when, and why. */
export interface Eviction {
  /** When it was evicted (ms since the epoch). */
  at: number;
  /** The cap that made room: the number of live sessions allowed. */
  maxSessions: number;
}

/** What looking up a session's state gives: its store, or the eviction that ended it. */
export type SessionLookup = { ok: true; store: ResourceStore; live: boolean } | { ok: false; evicted: Eviction };

/** A compact key of an evicted session id (ids come from clients and may be long). */
function tombstoneKey(session: string): string {
  return createHash("sha256").update(session).digest("base64").slice(0, 22);
}

/**
 * The simulated state of every (API, session) pair: created from the API's fixtures on a session's first
 * write, reset on demand, and bounded. Past `maxSessions` live sessions the least recently used one is evicted
 * (the default session never is), and an evicted session is remembered as such: its requests are answered with
 * a problem that says so until it is reset, never silently with fresh data. Reads of a session that holds no
 * state (yet) are answered from the fixtures without creating one, so reads alone evict nobody.
 */
export class SessionStates {
  /** session -> API name -> store; Map order is recency of use. */
  private readonly sessions = new Map<string, Map<string, ResourceStore>>();
  /** Evicted sessions by {@link tombstoneKey}, oldest first. */
  private readonly evicted = new Map<string, Eviction>();
  private readonly maxSessions: number;
  private readonly maxEvicted: number;
  /** Sessions evicted since the server started (or the last reset of everything). */
  evictions = 0;

  constructor(
    private readonly fixtures: ReadonlyMap<string, Fixtures | undefined>,
    limits: SessionLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxSessions = Math.max(1, limits.maxSessions ?? DEFAULT_MAX_SESSIONS);
    this.maxEvicted = Math.max(0, limits.maxEvicted ?? DEFAULT_MAX_EVICTED);
  }

  /** The most live sessions (besides the default one). */
  get limit(): number {
    return this.maxSessions;
  }

  /**
   * The state of an API in a session. `write`: the request may change state, so a new session is created (and
   * the least recently used one evicted past the cap); otherwise a session without state reads the fixtures.
   */
  store(api: string, session: string, options: { write: boolean } = { write: true }): SessionLookup {
    let apis = this.sessions.get(session);
    if (apis) {
      // Most recently used last.
      this.sessions.delete(session);
      this.sessions.set(session, apis);
    } else {
      const evicted = this.evicted.size > 0 ? this.evicted.get(tombstoneKey(session)) : undefined;
      if (evicted) return { ok: false, evicted };
      if (!options.write) return { ok: true, store: this.fresh(api), live: false };
      apis = new Map();
      this.makeRoom();
      this.sessions.set(session, apis);
    }
    let store = apis.get(api);
    if (!store) {
      store = this.fresh(api);
      apis.set(api, store);
    }
    return { ok: true, store, live: true };
  }

  /** Whether a session holds state, was evicted, or is unknown (it reads the fixtures). */
  status(session: string): "live" | "evicted" | "unknown" {
    if (this.sessions.has(session)) return "live";
    return this.evicted.size > 0 && this.evicted.has(tombstoneKey(session)) ? "evicted" : "unknown";
  }

  /** The eviction of a session, if it was evicted (and not reset since). */
  evictionOf(session: string): Eviction | undefined {
    return this.evicted.size > 0 ? this.evicted.get(tombstoneKey(session)) : undefined;
  }

  /**
   * Resets one session (back to the fixtures; an evicted one becomes usable again), or every session (and
   * forgets every eviction); returns the sessions that were reset.
   */
  reset(session?: string): string[] {
    if (session === undefined) {
      const all = [...this.sessions.keys()];
      this.sessions.clear();
      this.evicted.clear();
      this.evictions = 0;
      return all;
    }
    const live = this.sessions.delete(session);
    const wasEvicted = this.evicted.delete(tombstoneKey(session));
    return live || wasEvicted ? [session] : [];
  }

  /** The live sessions, most recently used last. */
  list(): string[] {
    return [...this.sessions.keys()];
  }

  /** Evicted sessions still remembered. */
  get evictedCount(): number {
    return this.evicted.size;
  }

  /** A snapshot of a session's state per API (fixtures for APIs it has not touched yet). */
  snapshot(session: string, api?: string): Record<string, Record<string, Record<string, unknown>[]>> {
    const out: Record<string, Record<string, Record<string, unknown>[]>> = {};
    const apis = this.sessions.get(session);
    for (const name of this.fixtures.keys()) {
      if (api !== undefined && name !== api) continue;
      const store = apis?.get(name) ?? this.fresh(name);
      out[name] = store.snapshot();
    }
    return out;
  }

  private fresh(api: string): ResourceStore {
    return ResourceStore.fromFixtures(this.fixtures.get(api) ?? {});
  }

  /** Evicts least recently used sessions (never the default one) until a new one fits under the cap. */
  private makeRoom(): void {
    const counted = (): number => this.sessions.size - (this.sessions.has(DEFAULT_SESSION) ? 1 : 0);
    while (counted() >= this.maxSessions) {
      let victim: string | undefined;
      for (const s of this.sessions.keys()) {
        if (s !== DEFAULT_SESSION) {
          victim = s;
          break;
        }
      }
      if (victim === undefined) return;
      this.sessions.delete(victim);
      this.evictions++;
      if (this.maxEvicted === 0) continue;
      const key = tombstoneKey(victim);
      this.evicted.delete(key);
      this.evicted.set(key, { at: this.now(), maxSessions: this.maxSessions });
      if (this.evicted.size > this.maxEvicted) {
        const oldest = this.evicted.keys().next().value;
        if (oldest !== undefined) this.evicted.delete(oldest);
      }
    }
  }
}
