/*
 * Credentials the harness passes (a toolset's API keys) travel in clear only to the executor. Everything the
 * harness publishes — the `tool.call` and `tool.result` events, the dialogue the agents read, the calls the
 * tester judges — carries a stable placeholder instead (`<credential:access_key>`), so no journal, corpus,
 * cassette or export can hold the key. A placeholder in a call (a replayed journal, a model repeating what it
 * read) stands for the credential and is filled in again.
 */

/** The placeholder published instead of the credential passed in a parameter: `<credential:access_key>`. */
export function credentialPlaceholder(parameter: string): string {
  return `<credential:${parameter}>`;
}

const PLACEHOLDER = /^<credential:[^<>]*>$/;

/** Whether a value is a credential placeholder (see {@link credentialPlaceholder}). */
export function isCredentialPlaceholder(value: unknown): boolean {
  return typeof value === "string" && PLACEHOLDER.test(value);
}

/** Credentials shorter than this are replaced only where a whole string equals them (too likely inside other text). */
const MIN_TEXT_CREDENTIAL = 6;

/**
 * Replaces credential values by their placeholders in any JSON-like value: strings equal to a credential, and,
 * for credentials of 6 characters or more, every occurrence inside a string (an echoed query, a URL, an error
 * message). Object keys are replaced too. Values without a credential are returned as they are (no copy).
 */
export class CredentialMask {
  /** Longest first, so a credential that contains another is replaced whole. */
  private readonly entries: ReadonlyArray<readonly [string, string]>;

  /** `secrets`: credential value -> its placeholder (empty values are ignored). */
  constructor(secrets: ReadonlyMap<string, string>) {
    this.entries = [...secrets].filter(([value]) => value !== "").sort((a, b) => b[0].length - a[0].length);
  }

  /** Whether there is nothing to mask. */
  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** A string with its credentials replaced. */
  text(s: string): string {
    let out = s;
    for (const [value, placeholder] of this.entries) {
      if (out === value) return placeholder;
      if (value.length >= MIN_TEXT_CREDENTIAL && out.includes(value)) out = out.split(value).join(placeholder);
    }
    return out;
  }

  /** A value with its credentials replaced (the same object when it holds none). */
  value<T>(v: T): T {
    if (this.entries.length === 0) return v;
    return this.walk(v) as T;
  }

  private walk(v: unknown): unknown {
    if (typeof v === "string") return this.text(v);
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = this.walk(x);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (v !== null && typeof v === "object") {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const key = this.text(k);
        const y = this.walk(x);
        if (key !== k || y !== x) changed = true;
        out[key] = y;
      }
      return changed ? out : v;
    }
    return v;
  }
}
