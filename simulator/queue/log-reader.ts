import type { Redis } from "ioredis";
import { compareIds, decodeEntry, type LogEntry } from "./state-log.js";

/**
 * Follows a run's state log on a dedicated (blocking) Redis connection and hands every entry, in the log's order,
 * to `apply`. A worker waits with {@link LogReader.catchUp} before it starts an episode, so its replicas hold every
 * decision written before the episode's job was handed out (those of an earlier, crashed attempt included).
 */
export class LogReader {
  private last = "0-0";
  private stopped = false;
  private waiters: Array<{ id: string; resolve: () => void; reject: (e: Error) => void }> = [];
  private readonly loop: Promise<void>;

  constructor(
    private readonly blocking: Redis,
    private readonly key: string,
    private readonly apply: (entry: LogEntry, id: string) => void,
    private readonly onError: (error: Error) => void,
  ) {
    this.loop = this.read();
  }

  /** Resolves once every entry up to the log's current end has been applied. */
  async catchUp(commands: Redis): Promise<void> {
    const tail = (await commands.xrevrange(this.key, "+", "-", "COUNT", 1)) as Array<[string, string[]]>;
    const id = tail[0]?.[0];
    if (id === undefined || compareIds(this.last, id) >= 0) return;
    await new Promise<void>((resolve, reject) => this.waiters.push({ id, resolve, reject }));
  }

  /** Stops reading (pending waits are rejected). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.blocking.disconnect();
    for (const w of this.waiters) w.reject(new Error("the run's state log is closed"));
    this.waiters = [];
    await this.loop;
  }

  private async read(): Promise<void> {
    while (!this.stopped) {
      let reply: Array<[string, Array<[string, string[]]>]> | null;
      try {
        reply = (await this.blocking.xread("COUNT", 1000, "BLOCK", 1000, "STREAMS", this.key, this.last)) as typeof reply;
      } catch (e) {
        if (this.stopped) return;
        this.onError(e instanceof Error ? e : new Error(String(e)));
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          const entry = decodeEntry(fields);
          try {
            if (entry) this.apply(entry, id);
          } catch (e) {
            this.onError(e instanceof Error ? e : new Error(String(e)));
          }
          this.last = id;
        }
      }
      if (this.waiters.length > 0) {
        const ready = this.waiters.filter((w) => compareIds(this.last, w.id) >= 0);
        this.waiters = this.waiters.filter((w) => compareIds(this.last, w.id) < 0);
        for (const w of ready) w.resolve();
      }
    }
  }
}
