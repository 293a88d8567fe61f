import { compileLinear } from "./linear-pattern.js";

/**
 * What became of a schema `pattern`: fine as written (`translated` says how a pattern that is not one RE2
 * program runs), repaired (a new pattern and why), or unusable (`unsupported` when it is valid ECMAScript
 * that no linear-time engine can run: a backreference, a lookaround away from the anchors).
 */
export type PatternRepair =
  | { kind: "ok"; translated?: string }
  | { kind: "repaired"; pattern: string; reason: string; translated?: string }
  | { kind: "unusable"; reason: string; unsupported?: boolean };

/** Whether a pattern compiles the way validation compiles it here (ECMAScript with Unicode semantics, on a linear-time engine). */
export function compilesAsPattern(pattern: string): boolean {
  return compileLinear(pattern).ok;
}

/**
 * Checks a JSON Schema `pattern` for what real specs get wrong, and repairs it where the meaning is clear:
 * a leading PCRE inline flag `(?i)` becomes a case-insensitive pattern; a JavaScript regex literal written
 * as the pattern (`"/^[a-z]+$/i"`, whose anchors make it match nothing as written) becomes its source and
 * flags. A pattern that cannot be read, or that needs backtracking, is unusable (the caller drops it).
 */
export function checkPattern(pattern: string): PatternRepair {
  let found = checked.get(pattern);
  if (found === undefined) {
    found = check(pattern);
    if (checked.size > 10_000) checked.clear();
    checked.set(pattern, found);
  }
  return found;
}

/** Patterns repeat across a spec (and specs): each is checked once. */
const checked = new Map<string, PatternRepair>();

function check(pattern: string): PatternRepair {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (literal !== null) {
    const [, source = "", flags = ""] = literal;
    // Read as a literal only when the slashes make it unsatisfiable: `^` after a `/`, or `$` before one.
    if ((source.startsWith("^") || /(^|[^\\])\$$/.test(source)) && /^[gimsuy]*$/.test(flags)) {
      return withFlags(source, flags, "a JavaScript regex literal (as a pattern it matches nothing) read as its source and flags");
    }
  }
  const compiled = compileLinear(pattern);
  if (compiled.ok) return compiled.pattern.translated === undefined ? { kind: "ok" } : { kind: "ok", translated: compiled.pattern.translated };
  const inline = /^\(\?([a-z]+)\)/.exec(pattern);
  if (inline !== null) {
    return withFlags(pattern.slice(inline[0].length), inline[1] ?? "", `the inline flags (?${inline[1] ?? ""}) are not JavaScript: rewritten without them`);
  }
  if (!compiled.syntax) return { kind: "unusable", reason: `not runnable in linear time (${compiled.reason})`, unsupported: true };
  return { kind: "unusable", reason: `not a valid regular expression (${compiled.reason})` };
}

function withFlags(source: string, flags: string, reason: string): PatternRepair {
  // `g`, `y` and `u` say nothing about what matches a whole string test; `m` and `s` would need rewriting
  // `^ $ .` and are rare enough to leave out.
  if (/[ms]/.test(flags)) return { kind: "unusable", reason: `flags "${flags}" have no equivalent without flags` };
  const pattern = flags.includes("i") ? caseInsensitive(source) : source;
  if (pattern === undefined) return { kind: "unusable", reason: "not a valid JavaScript regular expression" };
  const compiled = compileLinear(pattern);
  if (!compiled.ok) return { kind: "unusable", reason: compiled.syntax ? `not a valid regular expression (${compiled.reason})` : `not runnable in linear time (${compiled.reason})`, ...(compiled.syntax ? {} : { unsupported: true }) };
  return { kind: "repaired", pattern, reason, ...(compiled.pattern.translated !== undefined ? { translated: compiled.pattern.translated } : {}) };
}

const isLetter = (c: string): boolean => c.toLowerCase() !== c.toUpperCase() && c.length === 1;

/**
 * The same pattern matching regardless of case, without flags: letters become `[aA]`, letter ranges in
 * classes get their other case. Undefined when the pattern has something this cannot rewrite safely
 * (a backreference, an unclosed class).
 */
export function caseInsensitive(source: string): string | undefined {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === "\\") {
      const escape = escapeAt(source, i);
      // A backreference matches its group's text exactly: case-insensitive only with the real flag.
      if (escape === undefined || /^\\([1-9]|k<)/.test(escape)) return undefined;
      out += escape;
      i += escape.length;
    } else if (c === "[") {
      const end = classEnd(source, i);
      if (end === undefined) return undefined;
      out += foldClass(source.slice(i + 1, end));
      i = end + 1;
    } else if (c === "(" && source.startsWith("(?<", i) && !source.startsWith("(?<=", i) && !source.startsWith("(?<!", i)) {
      const close = source.indexOf(">", i);
      if (close < 0) return undefined;
      out += source.slice(i, close + 1); // a group name is not matched text
      i = close + 1;
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(i))) {
      const quantifier = /^\{\d+(,\d*)?\}/.exec(source.slice(i))?.[0] ?? "{";
      out += quantifier;
      i += quantifier.length;
    } else {
      out += isLetter(c) && c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
      i++;
    }
  }
  return out;
}

/** One escape sequence starting at a backslash, copied whole (`\u00e9`, `\x41`, `\cJ`, `\d`...). */
function escapeAt(source: string, i: number): string | undefined {
  const next = source[i + 1];
  if (next === undefined) return undefined;
  if (next === "u" && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) return source.slice(i, i + 6);
  if (next === "x" && /^[0-9a-fA-F]{2}$/.test(source.slice(i + 2, i + 4))) return source.slice(i, i + 4);
  // `\p{Lu}`, `\u{1F600}`: the braces belong to the escape (a property name is not matched text).
  if ((next === "p" || next === "P" || next === "u") && source[i + 2] === "{") {
    const close = source.indexOf("}", i);
    return close < 0 ? undefined : source.slice(i, close + 1);
  }
  if (next === "c" && /^[a-zA-Z]$/.test(source[i + 2] ?? "")) return source.slice(i, i + 3);
  if (next === "k" && source[i + 2] === "<") {
    const close = source.indexOf(">", i);
    return close < 0 ? undefined : source.slice(i, close + 1);
  }
  return source.slice(i, i + 2);
}

/** The index of the `]` closing the class that opens at `start`. */
function classEnd(source: string, start: number): number | undefined {
  let i = start + 1;
  if (source[i] === "^") i++;
  if (source[i] === "]") i++; // a leading `]` is a literal
  for (; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]") return i;
  }
  return undefined;
}

/** A class body with the other case of its letters and letter ranges added. */
function foldClass(body: string): string {
  const negated = body.startsWith("^");
  const items: string[] = [];
  const extra: string[] = [];
  let i = negated ? 1 : 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c === "\\") {
      const escape = escapeAt(body, i) ?? c;
      items.push(escape);
      i += escape.length;
      continue;
    }
    const range = body[i + 1] === "-" && body[i + 2] !== undefined && body[i + 2] !== "\\" ? body[i + 2] : undefined;
    if (range !== undefined) {
      items.push(`${c}-${range}`);
      const lo = c.charCodeAt(0);
      const hi = range.charCodeAt(0);
      const a = "a".charCodeAt(0);
      const z = "z".charCodeAt(0);
      const A = "A".charCodeAt(0);
      const Z = "Z".charCodeAt(0);
      // The part of the range inside a-z or A-Z, in the other case.
      const from = Math.max(lo, a);
      const to = Math.min(hi, z);
      if (from <= to) extra.push(`${String.fromCharCode(from - 32)}-${String.fromCharCode(to - 32)}`);
      const fromU = Math.max(lo, A);
      const toU = Math.min(hi, Z);
      if (fromU <= toU) extra.push(`${String.fromCharCode(fromU + 32)}-${String.fromCharCode(toU + 32)}`);
      i += 3;
      continue;
    }
    items.push(c);
    if (isLetter(c)) extra.push(c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
    i++;
  }
  return `[${negated ? "^" : ""}${items.join("")}${extra.join("")}]`;
}
