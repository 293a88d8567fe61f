import { ResourceStore, type Fixtures } from "../../specs/respond/resource-store.js";

/** The session of requests without an `X-Toolsim-Session` header. */
export const DEFAULT_SESSION = "default";

/**
 * The simulated state of every (API, session) pair: created from the API's fixtures on first use, reset on
 * demand, and bounded (the least recently used sessions are dropped past `maxSessions`).
 */
export class SessionStates {
  /** session -> API name -> store; Map order is recency of use. */
  private readonly sessions = new Map<string, Map<string, ResourceStore>>();

  constructor(
    private readonly fixtures: ReadonlyMap<string, Fixtures | undefined>,
    private readonly maxSessions = 1000,
  ) {}

  /** The state of an API in a session (created from its fixtures when new). */
  store(api: string, session: string): ResourceStore {
    let apis = this.sessions.get(session);
    if (apis) {
      // Most recently used last.
      this.sessions.delete(session);
      this.sessions.set(session, apis);
    } else {
      apis = new Map();
      this.sessions.set(session, apis);
      if (this.sessions.size > this.maxSessions) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined && oldest !== session) this.sessions.delete(oldest);
      }
    }
    let store = apis.get(api);
    if (!store) {
      store = ResourceStore.fromFixtures(this.fixtures.get(api) ?? {});
      apis.set(api, store);
    }
    return store;
  }

  /** Resets one session (back to the fixtures), or every session; returns the sessions that were reset. */
  reset(session?: string): string[] {
    if (session === undefined) {
      const all = [...this.sessions.keys()];
      this.sessions.clear();
      return all;
    }
    return this.sessions.delete(session) ? [session] : [];
  }

  /** The live sessions, most recently used last. */
  list(): string[] {
    return [...this.sessions.keys()];
  }

  /** A snapshot of a session's state per API (fixtures for APIs it has not touched yet). */
  snapshot(session: string, api?: string): Record<string, Record<string, Record<string, unknown>[]>> {
    const out: Record<string, Record<string, Record<string, unknown>[]>> = {};
    const apis = this.sessions.get(session);
    for (const name of this.fixtures.keys()) {
      if (api !== undefined && name !== api) continue;
      const store = apis?.get(name) ?? ResourceStore.fromFixtures(this.fixtures.get(name) ?? {});
      out[name] = store.snapshot();
    }
    return out;
  }
}
