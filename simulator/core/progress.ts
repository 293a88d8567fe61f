import type { CliIO } from "../cli/cli-io.js";

/** Counters the progress display shows. */
export interface ProgressCounts {
  done: number;
  total: number;
  accepted: number;
  errors: number;
}

/** A progress display: one rewritten line on a terminal, a plain line every 10% otherwise. */
export class Progress {
  private readonly started = Date.now();
  private lastDraw = 0;
  private lastPlainDecile = -1;

  /**
   * @param initialDone episodes already done when the display starts (a resumed run), for the rate and ETA;
   *   when omitted, taken from the first update (which reports one episode more than were done before).
   */
  constructor(
    private readonly io: CliIO,
    private initialDone?: number,
  ) {}

  update(c: ProgressCounts, force = false): void {
    this.initialDone ??= Math.max(0, c.done - 1);
    const now = Date.now();
    if (this.io.isTTY) {
      if (!force && now - this.lastDraw < 100) return;
      this.lastDraw = now;
      this.io.out(`\r\x1b[K${this.line(c, now)}`);
      return;
    }
    const decile = c.total === 0 ? 10 : Math.floor((c.done / c.total) * 10);
    if (decile > this.lastPlainDecile || force) {
      this.lastPlainDecile = decile;
      this.io.out(`${this.line(c, now)}\n`);
    }
  }

  /** Ends the display (newline after the rewritten line). */
  finish(c: ProgressCounts): void {
    if (this.io.isTTY) this.io.out(`\r\x1b[K${this.line(c, Date.now())}\n`);
  }

  private line(c: ProgressCounts, now: number): string {
    const elapsed = Math.max(0.001, (now - this.started) / 1000);
    const fresh = c.done - (this.initialDone ?? 0);
    const rate = fresh / elapsed;
    const left = c.total - c.done;
    const eta = rate > 0 ? `${formatSeconds(left / rate)}` : "?";
    const pct = c.done > 0 ? Math.round((c.accepted / c.done) * 100) : 0;
    return `episodes ${c.done}/${c.total}  accepted ${pct}%  errors ${c.errors}  ${rate.toFixed(1)} ep/s  ETA ${eta}`;
  }
}

/** `75s` -> `1m15s`. */
export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return "?";
  const total = Math.round(s);
  if (total < 60) return `${total}s`;
  const m = Math.floor(total / 60);
  return m < 60 ? `${m}m${String(total % 60).padStart(2, "0")}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
