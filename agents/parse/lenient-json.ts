import { fail, ok, type Result } from "../../specs/result.js";
import { isObject, type Json } from "../../specs/json-object.js";
import { EMPTY_INPUT_WORDS } from "../language/lexicon/function-words.js";
import { wordsPattern } from "../language/word-patterns.js";

/*
 * A forgiving reader for the JSON-like text language models write into tool arguments: JSON, JSON5-ish and
 * Python literals. It accepts what a careful reader would: single, double and typographic quotes; escapes
 * (`\n`, `\uXXXX`, `\xHH`, and markdown's `\_`); unquoted keys and words; `=` as well as `:` between key and
 * value; trailing and missing commas; `//` and `/* *\/` comments; `True/False/None`; tuples; brackets and
 * braces left open at the end of the text (an unclosed string stays an error: where it ends cannot be
 * guessed). Every repair is reported in `repairs`, so callers can log what was forgiven. What it cannot read
 * comes back as an error with an offset, a line and a column.
 */

/** A value read leniently, with the repairs it needed (empty for strict JSON). */
export interface Lenient<T> {
  value: T;
  repairs: string[];
}

/** Why a text could not be read: a message with where it happened (offsets are 0-based, lines 1-based). */
export interface LenientJsonError {
  message: string;
  offset: number;
  line: number;
  column: number;
}

/** Thrown inside the reader only; {@link LenientReader.attempt} turns it into a result. */
class ReadError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const OPEN_QUOTES: Record<string, string> = { '"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u201d": "\u201d", "`": "`" };
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const IDENT_START = /[A-Za-z_$\u00c0-\uffff]/;
const IDENT_PART = /[\w$.\-\u00c0-\uffff]/;

/** The line and column (both 1-based) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** A short excerpt of the text at an offset, for error messages: `near "…"`. */
export function near(text: string, offset: number, width = 24): string {
  if (offset >= text.length) return "at the end of the text";
  const piece = text.slice(offset, offset + width).replace(/\s+/g, " ");
  return `near ${JSON.stringify(offset + width < text.length ? `${piece}…` : piece)}`;
}

/**
 * The low-level reader: a cursor over a text with methods that read one value, a list of members or a
 * string. Exposed so other formats (API-Bank's `Name(key=value)`) can reuse the value grammar.
 */
export class LenientReader {
  pos = 0;
  readonly repairs: string[] = [];

  constructor(readonly text: string) {}

  /** Stops reading with an error at the current position (caught by {@link attempt}). */
  fail(message: string, offset = this.pos): never {
    throw new ReadError(message, offset);
  }

  /** Runs a read; a syntax problem comes back as an error result instead of an exception. */
  attempt<T>(read: () => T): Result<T, LenientJsonError> {
    try {
      return ok(read());
    } catch (e) {
      if (!(e instanceof ReadError)) throw e;
      const { line, column } = lineColumn(this.text, e.offset);
      return fail([{ message: e.message, offset: e.offset, line, column }]);
    }
  }

  peek(): string {
    return this.text[this.pos] ?? "";
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** Skips white space and comments (`//` and `/* *\/`). */
  skipSpace(): void {
    for (;;) {
      const c = this.peek();
      if (c === "") return;
      if (/\s/.test(c)) {
        this.pos++;
        continue;
      }
      if (c === "/" && this.text[this.pos + 1] === "/") {
        const end = this.text.indexOf("\n", this.pos);
        this.pos = end < 0 ? this.text.length : end;
        this.note("removed a // comment");
        continue;
      }
      if (c === "/" && this.text[this.pos + 1] === "*") {
        const end = this.text.indexOf("*/", this.pos + 2);
        this.pos = end < 0 ? this.text.length : end + 2;
        this.note("removed a /* */ comment");
        continue;
      }
      return;
    }
  }

  note(repair: string): void {
    if (!this.repairs.includes(repair)) this.repairs.push(repair);
  }

  /** Reads one value: object, array, tuple, string, number, literal or (as a repair) an unquoted word. */
  value(stops = ",}])"): unknown {
    this.skipSpace();
    const c = this.peek();
    if (c === "") this.fail("expected a value but the text ended");
    if (c === "{") return this.object();
    if (c === "[") return this.array("]");
    if (c === "(") return this.array(")");
    if (c in OPEN_QUOTES && c !== "`") return this.string();
    return this.bare(stops);
  }

  /** Reads `{ key: value, ... }` (keys quoted or not; `:` or `=`). An unclosed object is closed at the end. */
  object(): Json {
    const start = this.pos;
    this.pos++; // {
    const out = this.members("}", start);
    return out;
  }

  /**
   * Reads members `key: value` / `key=value` separated by commas (or new lines) up to `close`; with
   * `close` undefined, up to the end of the text (an object whose braces were left out).
   */
  members(close: string | undefined, start = this.pos): Json {
    const out: Json = {};
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) {
        if (close !== undefined) this.note(`added the missing '${close}'`);
        return out;
      }
      const c = this.peek();
      if (close !== undefined && c === close) {
        this.pos++;
        return out;
      }
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (close !== undefined && (c === "}" || c === "]" || c === ")") && c !== close) {
        this.fail(`expected '${close}' to close the object opened at ${this.where(start)} but found '${c}'`);
      }
      const keyAt = this.pos;
      const key = this.key();
      this.skipSpace();
      const sep = this.peek();
      if (sep === ":" || sep === "=") this.pos++;
      else if (sep === "") this.fail(`expected ':' after key ${JSON.stringify(key)} but the text ended`);
      else this.fail(`expected ':' after key ${JSON.stringify(key)}, ${near(this.text, this.pos)}`);
      if (sep === "=") this.note("read '=' as ':'");
      this.skipSpace();
      if (this.atEnd()) this.fail(`expected a value for key ${JSON.stringify(key)} but the text ended`);
      if (Object.hasOwn(out, key)) this.note(`kept the last of duplicate keys ${JSON.stringify(key)}`);
      out[key] = this.value(close === undefined ? ",\n" : `,${close}`);
      this.skipSpace();
      const after = this.peek();
      if (after === ",") {
        this.pos++;
        continue;
      }
      if (after === "" || after === close) continue;
      if (this.pos > keyAt && (after === '"' || after === "'" || IDENT_START.test(after))) {
        this.note("added missing commas");
        continue;
      }
      this.fail(`expected ',' or '${close ?? "end"}' after the value of ${JSON.stringify(key)}, ${near(this.text, this.pos)}`);
    }
  }

  /** A key: a quoted string or an identifier (markdown's `\_` read as `_`). */
  key(): string {
    const c = this.peek();
    if (c in OPEN_QUOTES && c !== "`") return this.string();
    const start = this.pos;
    let out = "";
    while (!this.atEnd()) {
      const ch = this.peek();
      if (ch === "\\" && this.text[this.pos + 1] === "_") {
        out += "_";
        this.pos += 2;
        continue;
      }
      if (!(out === "" ? IDENT_START.test(ch) : IDENT_PART.test(ch))) break;
      out += ch;
      this.pos++;
    }
    if (out === "") this.fail(`expected a key (a name or a quoted string), ${near(this.text, start)}`);
    this.note("quoted unquoted keys");
    return out;
  }

  /** Reads `[a, b]` (or a tuple `(a, b)`); an unclosed list is closed at the end of the text. */
  array(close: "]" | ")"): unknown[] {
    const start = this.pos;
    this.pos++;
    if (close === ")") this.note("read a tuple as a list");
    const out: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) {
        this.note(`added the missing '${close}'`);
        return out;
      }
      const c = this.peek();
      if (c === close) {
        this.pos++;
        return out;
      }
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === "}" || c === "]" || c === ")") this.fail(`expected '${close}' to close the list opened at ${this.where(start)} but found '${c}'`);
      out.push(this.value(`,${close}`));
      this.skipSpace();
      const after = this.peek();
      if (after === "," || after === close || after === "") continue;
      if (after === '"' || after === "'" || after === "{" || after === "[" || /[\w.+-]/.test(after)) {
        this.note("added missing commas");
        continue;
      }
      this.fail(`expected ',' or '${close}' in the list opened at ${this.where(start)}, ${near(this.text, this.pos)}`);
    }
  }

  /**
   * Reads a quoted string with escapes. A closing quote directly followed by a letter or digit (as in
   * `'Dave's book'`) is kept as a character; an unclosed string is an error.
   */
  string(): string {
    const open = this.peek();
    const close = OPEN_QUOTES[open] ?? open;
    const start = this.pos;
    if (open !== '"') this.note(open === "'" ? "read single-quoted strings" : "read typographic quotes");
    this.pos++;
    let out = "";
    for (;;) {
      if (this.atEnd()) this.fail(`the string opened at ${this.where(start)} is not closed`, start);
      const ch = this.peek();
      if (ch === "\\") {
        out += this.escape();
        continue;
      }
      if (ch === close || (close === "\u201d" && ch === "\u201c")) {
        // Does this quote end the string? Only when a delimiter (or the end) follows.
        // A quote directly followed by a letter or digit is taken as part of the text (an apostrophe).
        const next = this.text[this.pos + 1] ?? "";
        if (!/[\p{L}\p{N}]/u.test(next)) {
          this.pos++;
          return out;
        }
        this.note("kept unescaped quotes inside a string");
        out += ch;
        this.pos++;
        continue;
      }
      if (ch === "\n" && open !== "`") {
        // A raw new line inside a string: JSON forbids it, models write it; keep it.
        this.note("kept raw new lines inside a string");
      }
      out += ch;
      this.pos++;
      if (this.pos - start > 1_000_000) this.fail("string too long");
    }
  }

  private escape(): string {
    const next = this.text[this.pos + 1] ?? "";
    this.pos += 2;
    switch (next) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "0":
        return "\0";
      case "u": {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.pos += 4;
          return String.fromCharCode(parseInt(hex, 16));
        }
        return "u";
      }
      case "x": {
        const hex = this.text.slice(this.pos, this.pos + 2);
        if (/^[0-9a-fA-F]{2}$/.test(hex)) {
          this.pos += 2;
          return String.fromCharCode(parseInt(hex, 16));
        }
        return "x";
      }
      case "":
        return "\\";
      case "\n":
        return "";
      default:
        if (next !== '"' && next !== "'" && next !== "\\" && next !== "/") this.note(`read '\\${next}' as '${next}'`);
        return next;
    }
  }

  /** A number, a literal (`true`, `None`...) or, as a repair, an unquoted word running to a stop character. */
  private bare(stops: string): unknown {
    const start = this.pos;
    let end = this.pos;
    let depth = 0;
    while (end < this.text.length) {
      const ch = this.text[end] ?? "";
      if (depth === 0 && (stops.includes(ch) || ch === "}" || ch === "]" || ch === ")")) break;
      if (ch === "\n" && depth === 0) break;
      if (ch === "(") depth++;
      if (ch === ")" && depth > 0) depth--;
      end++;
    }
    const raw = this.text.slice(start, end).trim();
    if (raw === "") this.fail(`expected a value, ${near(this.text, start)}`);
    this.pos = start + this.text.slice(start, end).trimEnd().length;
    const literal = literalValue(raw);
    if (literal.found) {
      if (!["true", "false", "null"].includes(raw)) this.note(`read ${raw} as ${JSON.stringify(literal.value)}`);
      return literal.value;
    }
    if (NUMBER.test(raw) && !/^[+-]?0\d/.test(raw)) {
      if (raw.startsWith("+") || raw.startsWith(".") || raw.endsWith(".")) this.note("read a loose number");
      return Number(raw);
    }
    const next = /\s["']?([A-Za-z_][\w.\-]*)["']?\s*(?:=|:(?!\/\/))/.exec(raw);
    if (next) this.fail(`a ',' seems to be missing before ${JSON.stringify(next[1])} (or quote the text ${JSON.stringify(raw.slice(0, 30))})`, start + next.index + 1);
    this.note("quoted unquoted text");
    return raw;
  }

  private where(offset: number): string {
    const { line, column } = lineColumn(this.text, offset);
    return `line ${line}, column ${column}`;
  }
}

function literalValue(raw: string): { found: true; value: unknown } | { found: false } {
  switch (raw) {
    case "true":
    case "True":
    case "TRUE":
      return { found: true, value: true };
    case "false":
    case "False":
    case "FALSE":
      return { found: true, value: false };
    case "null":
    case "None":
    case "none":
    case "NULL":
    case "nil":
    case "undefined":
      return { found: true, value: null };
    default:
      return { found: false };
  }
}

/** The text inside a markdown code fence (```json … ```), or inside single backticks; otherwise the text. */
export function stripCodeFence(text: string): { text: string; stripped: boolean } {
  const t = text.trim();
  const fence = /^(`{3,}|~{3,})[\w+-]*[^\S\n]*\n?([\s\S]*?)\n?[^\S\n]*(?:\1|$)/.exec(t);
  if (fence) return { text: (fence[2] ?? "").trim(), stripped: true };
  if (t.length >= 2 && t.startsWith("`") && t.endsWith("`") && !t.slice(1, -1).includes("`")) return { text: t.slice(1, -1).trim(), stripped: true };
  return { text: t, stripped: false };
}

/**
 * Reads one JSON-like value leniently: strict JSON first; else code fences stripped, the value read with
 * repairs, and chatter after it ignored (a repair). Errors say where and what was expected.
 */
export function parseLenientJson(text: string): Result<Lenient<unknown>, LenientJsonError> {
  try {
    return ok({ value: JSON.parse(text) as unknown, repairs: [] });
  } catch {
    // not strict JSON: read it leniently
  }
  const fenced = stripCodeFence(text);
  const reader = new LenientReader(fenced.text);
  if (fenced.stripped) reader.note("removed a code fence");
  const read = reader.attempt(() => {
    const value = reader.value("");
    reader.skipSpace();
    if (!reader.atEnd()) reader.note(`ignored text after the value: ${JSON.stringify(reader.text.slice(reader.pos, reader.pos + 40))}`);
    return value;
  });
  if (!read.ok) return read;
  return ok({ value: read.value, repairs: reader.repairs });
}

/** Options of {@link parseLenientObject}. */
export interface LenientObjectOptions {
  /** The parameter a lone scalar belongs to (a tool with one parameter): `"Paris"` -> `{city: "Paris"}`. */
  singleKey?: string;
}

const KEY_VALUE_START = /^\s*(?:"[^"\n]+"|'[^'\n]+'|[A-Za-z_$][\w$.\-]*)\s*[:=]/;

/**
 * Reads tool arguments leniently into an object: JSON or almost-JSON (see the file comment), an object whose
 * braces were left out (`"city": "Paris"`, `city=Paris, days=3`), a value after chatter (`Sure: {...}`), or
 * a lone scalar for a one-parameter tool. Empty text, `None` and `{}` give `{}`.
 */
/** A whole answer that gives no input ("None", "N/A", "{}"), with an optional final period. */
const EMPTY_INPUT = new RegExp(`^(?:${wordsPattern(EMPTY_INPUT_WORDS)}|\\{\\s*\\})\\.?$`, "i");

export function parseLenientObject(text: string, options: LenientObjectOptions = {}): Result<Lenient<Json>, LenientJsonError> {
  const fenced = stripCodeFence(text);
  const t = fenced.text;
  const repairs: string[] = fenced.stripped ? ["removed a code fence"] : [];
  const done = (value: Json, more: readonly string[]): Result<Lenient<Json>, LenientJsonError> => ok({ value, repairs: [...repairs, ...more.filter((r) => !repairs.includes(r))] });
  if (t === "" || EMPTY_INPUT.test(t)) return done({}, t === "" || t.startsWith("{") ? [] : ["read an empty input as {}"]);
  const first = t[0] ?? "";
  if (first === "{" || first === "[" || first === "(" || first === '"' || first === "'") {
    if (KEY_VALUE_START.test(t) && (first === '"' || first === "'")) return membersOf(t, repairs);
    const parsed = parseLenientJson(t);
    if (!parsed.ok) return parsed;
    return objectOf(parsed.value.value, [...repairs, ...parsed.value.repairs], options, t);
  }
  if (KEY_VALUE_START.test(t)) return membersOf(t, repairs);
  const brace = t.indexOf("{");
  if (brace > 0) {
    const parsed = parseLenientJson(t.slice(brace));
    if (parsed.ok && isObject(parsed.value.value)) return done(parsed.value.value, [`ignored text before the object: ${JSON.stringify(t.slice(0, Math.min(brace, 40)))}`, ...parsed.value.repairs]);
  }
  const parsed = parseLenientJson(t);
  if (parsed.ok) return objectOf(parsed.value.value, [...repairs, ...parsed.value.repairs], options, t);
  if (options.singleKey !== undefined) return done({ [options.singleKey]: t }, [`read plain text as the value of "${options.singleKey}"`]);
  return fail([{ message: `expected a JSON object like {"name": "value"}, ${near(t, 0)}`, offset: 0, line: 1, column: 1 }]);
}

function membersOf(t: string, repairs: readonly string[]): Result<Lenient<Json>, LenientJsonError> {
  const reader = new LenientReader(t);
  const read = reader.attempt(() => reader.members(undefined));
  if (!read.ok) return read;
  return ok({ value: read.value, repairs: [...repairs, "added the missing braces", ...reader.repairs] });
}

function objectOf(value: unknown, repairs: string[], options: LenientObjectOptions, text: string): Result<Lenient<Json>, LenientJsonError> {
  if (isObject(value)) return ok({ value, repairs });
  if (Array.isArray(value) && value.length === 1 && isObject(value[0])) return ok({ value: value[0], repairs: [...repairs, "unwrapped a one-item list"] });
  if (typeof value === "string" && /^\s*[{[]/.test(value)) {
    const inner = parseLenientJson(value);
    if (inner.ok && isObject(inner.value.value)) return ok({ value: inner.value.value, repairs: [...repairs, "read JSON given as a string", ...inner.value.repairs] });
  }
  if (value === null) return ok({ value: {}, repairs: [...repairs, "read null as {}"] });
  if (options.singleKey !== undefined && !isObject(value)) return ok({ value: { [options.singleKey]: value }, repairs: [...repairs, `read a lone value as "${options.singleKey}"`] });
  const kind = Array.isArray(value) ? "a list" : typeof value === "string" ? "a string" : `${typeof value} ${JSON.stringify(value)}`;
  return fail([{ message: `expected a JSON object like {"name": "value"} but found ${kind}, ${near(text, 0)}`, offset: 0, line: 1, column: 1 }]);
}
