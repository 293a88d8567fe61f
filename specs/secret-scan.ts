/**
 * Where secrets occur in a text, found without a regular expression: a secret of any length (a 6,000-character
 * "password" a client sent) is searched for in linear time and bounded memory. A secret counts where it stands as a
 * whole token (no ASCII letter or digit right before or after it), and so does its start down to a minimal length
 * (a text that cut the secret short still holds it). At one place the longest spelling is tried first.
 */

/** One spelling of a secret (plain, or as JSON escapes it) and the secret it stands for. */
export interface SecretSpelling {
  spelling: string;
  secret: string;
}

/** Shortest part of a long secret, from its start, that is found too (a text cut in the middle of the secret). */
export function minPrefix(secret: string): number {
  return secret.length <= 8 ? secret.length : Math.max(8, Math.ceil(secret.length / 2));
}

function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Whether position `i` of a text is a token boundary (its start or end, or a character that is no ASCII letter or digit). */
function boundaryAt(text: string, i: number): boolean {
  return i < 0 || i >= text.length || !isWordCode(text.charCodeAt(i));
}

/** The length of the secret's spelling that stands at `start` as a whole token, or 0. */
function matchAt(text: string, start: number, spelling: string, min: number): number {
  if (!boundaryAt(text, start - 1)) return 0;
  let same = 0;
  const most = Math.min(spelling.length, text.length - start);
  while (same < most && text.charCodeAt(start + same) === spelling.charCodeAt(same)) same++;
  if (same < min) return 0;
  // The longest that ends at a boundary: all that matched, else a shorter start whose next character is no word character.
  if (boundaryAt(text, start + same)) return same;
  for (let len = same - 1; len >= min; len--) if (!isWordCode(spelling.charCodeAt(len))) return len;
  return 0;
}

/** Finds the spellings' whole-token occurrences in texts, the longest spelling first where several start at one place. */
export class SecretScanner {
  private readonly spellings: ReadonlyArray<SecretSpelling & { head: string; min: number }>;

  constructor(spellings: readonly SecretSpelling[]) {
    this.spellings = [...spellings]
      .filter((s) => s.spelling.length > 0)
      .sort((a, b) => b.spelling.length - a.spelling.length)
      .map((s) => ({ ...s, min: minPrefix(s.spelling), head: s.spelling.slice(0, minPrefix(s.spelling)) }));
  }

  /** A text with each occurrence replaced by `replace(secret)`; the same string when none occurs. */
  replace(text: string, replace: (secret: string) => string): string {
    let out = "";
    let last = 0;
    let from = 0;
    for (;;) {
      // The leftmost occurrence from here: each spelling's next start of its head, and the first spelling there that fits.
      let best: { start: number; end: number; secret: string } | undefined;
      for (const s of this.spellings) {
        let i = text.indexOf(s.head, from);
        while (i >= 0 && (best === undefined || i < best.start)) {
          const len = matchAt(text, i, s.spelling, s.min);
          if (len > 0) {
            // A spelling earlier in the order wins at one start (as a longest-first alternation would).
            if (best === undefined || i < best.start) best = { start: i, end: i + len, secret: s.secret };
            break;
          }
          i = text.indexOf(s.head, i + 1);
        }
      }
      if (best === undefined) break;
      out += text.slice(last, best.start) + replace(best.secret);
      last = best.end;
      from = best.end;
    }
    return last === 0 ? text : out + text.slice(last);
  }
}
