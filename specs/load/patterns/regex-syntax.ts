/**
 * The syntax of a JSON Schema `pattern`: an ECMAScript regular expression read with Unicode semantics
 * (`\p{L}` is a letter, `\u{1F600}` one code point, a surrogate pair one character), as JSON Schema asks,
 * and leniently where specs rely on what browsers accept without the `u` flag (`\-` or `\_` outside a
 * class, a `{` that is no quantifier, `]` alone): those read as the literal character.
 */

/** A character set item: a code point range, a class escape (`\d`, `\S`...) or a Unicode property. */
export type SetItem =
  | { kind: "range"; lo: number; hi: number }
  | { kind: "escape"; name: "d" | "D" | "s" | "S" | "w" | "W" }
  | { kind: "property"; negated: boolean; name: string };

/** A node of a parsed pattern. A sequence is a plain array of nodes. */
export type RegexNode =
  | { kind: "alt"; branches: RegexNode[][] }
  | { kind: "char"; cp: number }
  | { kind: "dot" }
  | { kind: "set"; negated: boolean; items: SetItem[] }
  | { kind: "group"; body: RegexNode }
  | { kind: "look"; ahead: boolean; negated: boolean; body: RegexNode }
  | { kind: "backref"; ref: string }
  | { kind: "assert"; what: "start" | "end" | "word" | "not-word" }
  | { kind: "repeat"; body: RegexNode; min: number; max: number };

/** A parsed pattern (the root is always an `alt`), or why it cannot be read. */
export type ParsedPattern = { ok: true; root: Extract<RegexNode, { kind: "alt" }> } | { ok: false; reason: string };

/** Counts above this are read as this (the value stays unsatisfiable or unbounded in practice). */
const MAX_COUNT = 1_000_000_000;

class SyntaxFault extends Error {}

/** Parses a pattern; never throws. */
export function parsePattern(source: string): ParsedPattern {
  try {
    const parser = new Parser(source);
    const root = parser.disjunction();
    if (parser.pos < source.length) throw new SyntaxFault(source[parser.pos] === ")" ? "unmatched ')'" : `unexpected '${source[parser.pos] ?? ""}'`);
    return { ok: true, root };
  } catch (err) {
    if (err instanceof SyntaxFault) return { ok: false, reason: err.message };
    if (err instanceof RangeError) return { ok: false, reason: "nested too deeply" };
    throw err;
  }
}

const PROPERTY_CHECKS = new Map<string, boolean>();

/** Whether `\p{name}` is a property ECMAScript knows (checked by compiling it natively: no matching involved). */
export function knownProperty(name: string): boolean {
  let known = PROPERTY_CHECKS.get(name);
  if (known === undefined) {
    try {
      new RegExp(`\\p{${name}}`, "u");
      known = true;
    } catch {
      known = false;
    }
    PROPERTY_CHECKS.set(name, known);
  }
  return known;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isHex = (s: string): boolean => /^[0-9a-fA-F]+$/.test(s);

class Parser {
  pos = 0;
  private depth = 0;
  private readonly groups: number;
  private readonly names: Set<string>;

  constructor(private readonly src: string) {
    const { count, names } = countGroups(src);
    this.groups = count;
    this.names = names;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  /** The code point at the cursor, consumed. */
  private codePoint(): number {
    const cp = this.src.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  disjunction(): Extract<RegexNode, { kind: "alt" }> {
    if (++this.depth > 200) throw new SyntaxFault("nested too deeply");
    const branches: RegexNode[][] = [this.alternative()];
    while (this.peek() === "|") {
      this.pos++;
      branches.push(this.alternative());
    }
    this.depth--;
    return { kind: "alt", branches };
  }

  private alternative(): RegexNode[] {
    const seq: RegexNode[] = [];
    while (this.pos < this.src.length && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.term();
      const quantified = this.quantifier(atom);
      seq.push(quantified);
    }
    return seq;
  }

  private term(): RegexNode {
    const c = this.peek() as string;
    switch (c) {
      case "^":
        this.pos++;
        return { kind: "assert", what: "start" };
      case "$":
        this.pos++;
        return { kind: "assert", what: "end" };
      case ".":
        this.pos++;
        return { kind: "dot" };
      case "(":
        return this.group();
      case "[":
        return this.characterClass();
      case "\\":
        return this.atomEscape();
      case "*":
      case "+":
      case "?":
        throw new SyntaxFault(`nothing to repeat before '${c}'`);
      case "{":
        if (quantifierAt(this.src, this.pos) !== undefined) throw new SyntaxFault("nothing to repeat before '{'");
        this.pos++;
        return { kind: "char", cp: 0x7b };
      default:
        return { kind: "char", cp: this.codePoint() };
    }
  }

  private quantifier(atom: RegexNode): RegexNode {
    let node = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === "*") [min, max] = [0, Infinity];
      else if (c === "+") [min, max] = [1, Infinity];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{") {
        const q = quantifierAt(this.src, this.pos);
        if (q === undefined) return node;
        [min, max] = [q.min, q.max];
        this.pos += q.length - 1;
      } else return node;
      this.pos++;
      if (this.peek() === "?") this.pos++; // lazy: the same set of matching strings
      if (min > max) throw new SyntaxFault("numbers out of order in {} quantifier");
      if (node.kind === "assert") throw new SyntaxFault("nothing to repeat (an assertion)");
      if (node !== atom) throw new SyntaxFault("nothing to repeat (a quantifier after a quantifier)");
      node = { kind: "repeat", body: node, min, max };
    }
  }

  private group(): RegexNode {
    this.pos++; // (
    let node: RegexNode;
    if (this.peek() === "?") {
      const kind = this.src.slice(this.pos, this.pos + 3);
      if (kind.startsWith("?:")) {
        this.pos += 2;
        node = { kind: "group", body: this.disjunction() };
      } else if (kind.startsWith("?=") || kind.startsWith("?!")) {
        this.pos += 2;
        node = { kind: "look", ahead: true, negated: kind[1] === "!", body: this.disjunction() };
      } else if (kind === "?<=" || kind === "?<!") {
        this.pos += 3;
        node = { kind: "look", ahead: false, negated: kind[2] === "!", body: this.disjunction() };
      } else if (kind.startsWith("?<")) {
        const close = this.src.indexOf(">", this.pos);
        const name = close < 0 ? "" : this.src.slice(this.pos + 2, close);
        if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name)) throw new SyntaxFault("invalid capture group name");
        this.pos = close + 1;
        node = { kind: "group", body: this.disjunction() };
      } else if (kind.startsWith("?P")) {
        throw new SyntaxFault("(?P<name>...) is Python syntax, not ECMAScript");
      } else {
        throw new SyntaxFault(`invalid group '(${kind}'`);
      }
    } else node = { kind: "group", body: this.disjunction() };
    if (this.peek() !== ")") throw new SyntaxFault("unterminated group");
    this.pos++;
    return node;
  }

  private atomEscape(): RegexNode {
    this.pos++; // backslash
    const c = this.peek();
    if (c === undefined) throw new SyntaxFault("\\ at end of pattern");
    if (c === "b" || c === "B") {
      this.pos++;
      return { kind: "assert", what: c === "b" ? "word" : "not-word" };
    }
    if (isDigit(c) && c !== "0") {
      let digits = "";
      while (isDigit(this.peek())) digits += this.src[this.pos++];
      if (Number(digits) <= this.groups) return { kind: "backref", ref: digits };
      // Annex B: a number larger than the group count is an octal escape (or the digits themselves).
      this.pos -= digits.length;
      return { kind: "char", cp: this.legacyOctal() };
    }
    if (c === "k" && this.peek(1) === "<") {
      const close = this.src.indexOf(">", this.pos);
      const name = close < 0 ? "" : this.src.slice(this.pos + 2, close);
      if (this.names.has(name)) {
        this.pos = close + 1;
        return { kind: "backref", ref: name };
      }
    }
    const item = this.classEscape(false);
    if (item === undefined) return { kind: "char", cp: this.characterEscape() };
    return { kind: "set", negated: false, items: [item] };
  }

  /** `\d \D \s \S \w \W \p{..} \P{..}` at the cursor (after the backslash), consumed; undefined for anything else. */
  private classEscape(inClass: boolean): SetItem | undefined {
    const c = this.peek();
    if (c === "d" || c === "D" || c === "s" || c === "S" || c === "w" || c === "W") {
      this.pos++;
      return { kind: "escape", name: c };
    }
    if ((c === "p" || c === "P") && this.peek(1) === "{") {
      const close = this.src.indexOf("}", this.pos);
      const name = close < 0 ? "" : this.src.slice(this.pos + 2, close);
      if (!knownProperty(name)) throw new SyntaxFault(`invalid Unicode property \\${c}{${name}}${inClass ? " in a class" : ""}`);
      this.pos = close + 1;
      return { kind: "property", negated: c === "P", name };
    }
    return undefined;
  }

  /** A character escape at the cursor (after the backslash), consumed: its code point. */
  private characterEscape(): number {
    const c = this.src[this.pos] as string;
    switch (c) {
      case "f":
        this.pos++;
        return 0x0c;
      case "n":
        this.pos++;
        return 0x0a;
      case "r":
        this.pos++;
        return 0x0d;
      case "t":
        this.pos++;
        return 0x09;
      case "v":
        this.pos++;
        return 0x0b;
      case "0":
        if (!isDigit(this.peek(1))) {
          this.pos++;
          return 0;
        }
        return this.legacyOctal();
      case "c": {
        const letter = this.peek(1);
        if (letter !== undefined && /[a-zA-Z]/.test(letter)) {
          this.pos += 2;
          return letter.charCodeAt(0) % 32;
        }
        return 0x5c; // Annex B: `\c` not followed by a letter is a backslash, and `c` follows
      }
      case "x": {
        const hex = this.src.slice(this.pos + 1, this.pos + 3);
        if (hex.length === 2 && isHex(hex)) {
          this.pos += 3;
          return parseInt(hex, 16);
        }
        this.pos++;
        return 0x78;
      }
      case "u":
        return this.unicodeEscape();
      default:
        // An identity escape: the character itself (`\.`, `\-`, `\/`, and leniently `\_`, `\@`...).
        return this.codePoint();
    }
  }

  private unicodeEscape(): number {
    if (this.peek(1) === "{") {
      const close = this.src.indexOf("}", this.pos);
      const hex = close < 0 ? "" : this.src.slice(this.pos + 2, close);
      if (hex.length > 0 && isHex(hex) && parseInt(hex, 16) <= 0x10ffff) {
        this.pos = close + 1;
        return parseInt(hex, 16);
      }
      throw new SyntaxFault("invalid Unicode escape \\u{...}");
    }
    const hex = this.src.slice(this.pos + 1, this.pos + 5);
    if (hex.length === 4 && isHex(hex)) {
      this.pos += 5;
      const high = parseInt(hex, 16);
      // A surrogate pair written as two escapes is one character.
      const next = this.src.slice(this.pos, this.pos + 6);
      if (high >= 0xd800 && high <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(next)) {
        this.pos += 6;
        const low = parseInt(next.slice(2), 16);
        return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      }
      return high;
    }
    this.pos++;
    return 0x75; // Annex B: `\u` without four hex digits is `u`
  }

  /** Annex B octal escape (`\012`, `\7`); digits 8 and 9 stand for themselves. */
  private legacyOctal(): number {
    let digits = "";
    while (digits.length < 3 && /[0-7]/.test(this.peek() ?? "") && (digits.length < 2 || Number(digits + this.peek()) <= 0o377)) digits += this.src[this.pos++];
    if (digits === "") return this.codePoint();
    return parseInt(digits, 8);
  }

  private characterClass(): RegexNode {
    this.pos++; // [
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.pos++;
    }
    const items: SetItem[] = [];
    while (this.peek() !== "]") {
      if (this.pos >= this.src.length) throw new SyntaxFault("unterminated character class");
      const first = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.pos++;
        const second = this.classAtom();
        if (typeof first === "number" && typeof second === "number") {
          if (first > second) throw new SyntaxFault("range out of order in character class");
          items.push({ kind: "range", lo: first, hi: second });
          continue;
        }
        // Annex B: a range with a class escape at one end (`[\w-.]`) is the three items, `-` included.
        items.push(asItem(first), { kind: "range", lo: 0x2d, hi: 0x2d }, asItem(second));
        continue;
      }
      items.push(asItem(first));
    }
    this.pos++; // ]
    return { kind: "set", negated, items };
  }

  /** One atom of a class: a code point, or a class escape. */
  private classAtom(): number | SetItem {
    if (this.peek() !== "\\") return this.codePoint();
    this.pos++;
    const c = this.peek();
    if (c === undefined) throw new SyntaxFault("\\ at end of pattern");
    if (c === "b") {
      this.pos++;
      return 0x08;
    }
    if (c === "-") {
      this.pos++;
      return 0x2d;
    }
    if (isDigit(c) && c !== "0") return this.legacyOctal(); // no backreferences in a class
    const item = this.classEscape(true);
    if (item !== undefined) return item;
    return this.characterEscape();
  }
}

function asItem(atom: number | SetItem): SetItem {
  return typeof atom === "number" ? { kind: "range", lo: atom, hi: atom } : atom;
}

/** A `{n}`, `{n,}` or `{n,m}` quantifier at a position: its bounds and length in characters. */
function quantifierAt(src: string, pos: number): { min: number; max: number; length: number } | undefined {
  const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(src.slice(pos, pos + 40));
  if (m === null) return undefined;
  const min = Math.min(Number(m[1]), MAX_COUNT);
  const max = m[2] === undefined ? min : m[3] === "" || m[3] === undefined ? Infinity : Math.min(Number(m[3]), MAX_COUNT);
  return { min, max, length: m[0].length };
}

/** How many capturing groups a pattern has, and their names (for telling backreferences from octal escapes). */
function countGroups(src: string): { count: number; names: Set<string> } {
  let count = 0;
  const names = new Set<string>();
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") {
      if (src[i + 1] !== "?") count++;
      else if (src[i + 2] === "<" && src[i + 3] !== "=" && src[i + 3] !== "!") {
        count++;
        const close = src.indexOf(">", i);
        if (close > 0) names.add(src.slice(i + 3, close));
      }
    }
  }
  return { count, names };
}
