import { Cassette, redactSecretsDeep, type CassetteEntry } from "../../agents/llm/cassette.js";

interface EpisodeTape {
  byCall: Map<string, CassetteEntry>;
  /** The entries as JSON lines (as the tape in Redis and the run's cassette hold them). */
  lines: string[];
  replayed: number;
  live: number;
}

/**
 * A worker's cassette: per episode, the calls recorded so far (its tape), answered first, and every new call
 * recorded and handed to `sink` (which writes it to the episode's tape in Redis). A retried episode therefore
 * makes its earlier model calls again with the answers they had, so it decides what its first attempt decided,
 * and pays for each call once. Look-ups are exact (episode, request, occurrence): an episode never gets another
 * episode's answer, as in a run in one process. Episodes are forgotten when they end (memory stays flat).
 */
export class TapeCassette extends Cassette {
  private readonly tapes = new Map<string, EpisodeTape>();
  private readonly scrub: string[] = [];

  /** `sink` gets each new call as the entry and its JSON line. */
  constructor(private readonly sink: (entry: CassetteEntry, line: string) => void) {
    super([]);
  }

  /** Starts an episode with its tape (JSON lines): the calls its earlier attempts made (or, for `--replay`, the recording). */
  begin(episodeId: string, tape: readonly string[]): void {
    const t: EpisodeTape = { byCall: new Map(), lines: [], replayed: 0, live: 0 };
    for (const line of tape) {
      let e: CassetteEntry;
      try {
        e = JSON.parse(line) as CassetteEntry;
      } catch {
        continue; // a damaged line: that call is made again
      }
      const id = `${e.key}\u0000${e.occurrence}`;
      if (t.byCall.has(id)) continue;
      t.byCall.set(id, e);
      t.lines.push(line);
    }
    this.tapes.set(episodeId, t);
  }

  /** Ends an episode: its entries as JSON lines (the tape, then the new calls) and how many calls the tape answered. */
  end(episodeId: string): { lines: string[]; replayed: number; live: number } {
    const t = this.tapes.get(episodeId);
    this.tapes.delete(episodeId);
    return t ? { lines: t.lines, replayed: t.replayed, live: t.live } : { lines: [], replayed: 0, live: 0 };
  }

  override addSecret(secret: string | undefined): void {
    super.addSecret(secret);
    if (secret !== undefined && secret.length >= 4 && !this.scrub.includes(secret)) this.scrub.push(secret);
  }

  override lookup(key: string, episodeId: string | undefined, occurrence: number): CassetteEntry | undefined {
    const t = this.tapes.get(episodeId ?? "");
    const hit = t?.byCall.get(`${key}\u0000${occurrence}`);
    if (t && hit) t.replayed++;
    return hit;
  }

  override append(entry: CassetteEntry, secrets: readonly string[] = []): CassetteEntry {
    const clean = redactSecretsDeep(entry, [...this.scrub, ...secrets]) as CassetteEntry;
    clean.key = entry.key;
    const line = JSON.stringify(clean);
    const t = this.tapes.get(entry.episodeId ?? "");
    if (t) {
      const id = `${clean.key}\u0000${clean.occurrence}`;
      if (!t.byCall.has(id)) t.byCall.set(id, clean);
      t.lines.push(line);
      t.live++;
    }
    this.sink(clean, line);
    return clean;
  }
}
