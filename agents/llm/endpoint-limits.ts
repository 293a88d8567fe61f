/*
 * Limits per endpoint shared by every gateway on the same base URL: a FIFO concurrency semaphore and a
 * requests-per-minute budget, with the backoff options and an abortable sleep.
 */

/** Backoff between attempts. */
export interface BackoffOptions {
  /** Delay before the first retry, doubled each retry (default 500 ms). */
  baseMs: number;
  /** Longest computed delay (default 30 s). */
  maxMs: number;
  /** Longest Retry-After honoured; longer hints wait this long (default 60 s). */
  maxRetryAfterMs: number;
}

/** Limits of one endpoint. */
export interface EndpointLimit {
  /** Calls in flight at once. */
  concurrency: number;
  /** Requests started per minute (unlimited when absent). */
  requestsPerMinute?: number;
}

/** Sleeps `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default {@link Sleep}: a timer. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * The gate of one endpoint: a FIFO concurrency semaphore and a requests-per-minute budget (GCRA: requests
 * spaced 60000/rpm ms apart, with a burst of one second's worth).
 */
export class EndpointLimiter {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  private tat = 0;
  private limit: EndpointLimit;
  /** Most calls ever in flight at once (for tests and reports). */
  maxInFlight = 0;

  constructor(
    limit: EndpointLimit,
    private readonly now: () => number = Date.now,
    private readonly wait: Sleep = sleep,
  ) {
    this.limit = { ...limit };
  }

  /** Calls in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.waiters.length;
  }

  /** The limits in force. */
  get limits(): EndpointLimit {
    return { ...this.limit };
  }

  /** Lowers the limits to the stricter of the current ones and these (gateways sharing an endpoint). */
  tighten(limit: EndpointLimit): void {
    this.limit.concurrency = Math.min(this.limit.concurrency, limit.concurrency);
    if (limit.requestsPerMinute !== undefined) {
      this.limit.requestsPerMinute = Math.min(this.limit.requestsPerMinute ?? Infinity, limit.requestsPerMinute);
    }
  }

  /** Waits for a slot and a rate token; returns the release function of the slot. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.takeSlot(signal);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.active--;
      this.pump();
    };
    try {
      await this.takeToken(signal);
    } catch (e) {
      release();
      throw e;
    }
    return release;
  }

  private takeSlot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit.concurrency && this.waiters.length === 0) {
      this.active++;
      this.maxInFlight = Math.max(this.maxInFlight, this.active);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason);
      };
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      this.waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private pump(): void {
    while (this.active < this.limit.concurrency && this.waiters.length > 0) {
      this.active++;
      this.maxInFlight = Math.max(this.maxInFlight, this.active);
      this.waiters.shift()?.();
    }
  }

  private async takeToken(signal?: AbortSignal): Promise<void> {
    const rpm = this.limit.requestsPerMinute;
    if (rpm === undefined || !(rpm > 0) || !Number.isFinite(rpm)) return;
    const interval = 60_000 / rpm;
    const burst = Math.max(1, Math.floor(rpm / 60));
    const now = this.now();
    const tat = Math.max(this.tat, now);
    const delay = tat - interval * (burst - 1) - now;
    this.tat = tat + interval;
    if (delay > 0) await this.wait(delay, signal);
  }
}

/** The limiters of endpoints by base URL, shared by the gateways of a run (or of the process). */
export class EndpointLimits {
  private readonly limiters = new Map<string, EndpointLimiter>();

  /** `create` makes the limiter of a new endpoint (tests pass one with a fake clock). */
  constructor(private readonly create: (limit: EndpointLimit) => EndpointLimiter = (limit) => new EndpointLimiter(limit)) {}

  /** The limiter of an endpoint, created with these limits or tightened to them. */
  get(endpoint: string, limit: EndpointLimit): EndpointLimiter {
    const existing = this.limiters.get(endpoint);
    if (existing) {
      existing.tighten(limit);
      return existing;
    }
    const limiter = this.create(limit);
    this.limiters.set(endpoint, limiter);
    return limiter;
  }

  /** The limiter of an endpoint, if any gateway made one. */
  peek(endpoint: string): EndpointLimiter | undefined {
    return this.limiters.get(endpoint);
  }
}

/** The process-wide endpoint limits, used when a gateway is given none. */
export const sharedEndpointLimits = new EndpointLimits();
