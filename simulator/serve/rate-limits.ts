/** A number of requests per window: `--rate-limit 60/min`, `--quota 1000/day`. */
export interface Rate {
  limit: number;
  windowMs: number;
  /** As written (`60/min`), for messages. */
  text: string;
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

/** Parses `N/unit` or `N/Kunit` (`10/s`, `60/min`, `100/5min`, `1000/day`); undefined when malformed. */
export function parseRate(text: string): Rate | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+)?\s*([a-z]+)\s*$/i.exec(text);
  if (!m) return undefined;
  const word = (m[3] as string).toLowerCase();
  const unit = UNITS[word] ?? (word.endsWith("s") ? UNITS[word.slice(0, -1)] : undefined);
  if (unit === undefined) return undefined;
  const limit = Number(m[1]);
  const windowMs = unit * (m[2] !== undefined ? Number(m[2]) : 1);
  if (!Number.isSafeInteger(limit) || windowMs <= 0) return undefined;
  return { limit, windowMs, text: text.trim() };
}

interface Window {
  start: number;
  count: number;
}

/** A limiter's verdict on one request, with what its headers report. */
export interface LimitState {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetMs: number;
}

/**
 * Fixed-window counters per identity (a credential, or `anonymous`): a window opens at an identity's first
 * request and lasts the rate's window. Bounded: the oldest identities are forgotten past `maxIdentities`.
 */
export class WindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly now: () => number,
    private readonly maxIdentities = 10_000,
  ) {}

  /** The state of an identity's window if one more request were counted (nothing is counted). */
  peek(identity: string, rate: Rate): LimitState {
    const t = this.now();
    const w = this.current(identity, t, rate);
    const used = w?.count ?? 0;
    const start = w?.start ?? t;
    return { ok: used < rate.limit, limit: rate.limit, remaining: Math.max(0, rate.limit - used - 1), resetMs: Math.max(0, start + rate.windowMs - t) };
  }

  /** Counts one request of an identity. */
  take(identity: string, rate: Rate): void {
    const t = this.now();
    let w = this.current(identity, t, rate);
    if (!w) {
      w = { start: t, count: 0 };
      this.windows.delete(identity);
      this.windows.set(identity, w);
      if (this.windows.size > this.maxIdentities) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    w.count++;
  }

  /** Forgets every window (admin reset). */
  clear(): void {
    this.windows.clear();
  }

  private current(identity: string, t: number, rate: Rate): Window | undefined {
    const w = this.windows.get(identity);
    return w && t < w.start + rate.windowMs ? w : undefined;
  }
}
