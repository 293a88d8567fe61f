import { PyException, pyTypeName } from "./py.js";

/*
 * API-Bank's Calculator (`apis/calculator.py`, the same in `lv3_apis`), step for step: the formula without
 * spaces is checked (digits, + - * / ( ) only, balanced counts, at least one operator), numbers become floats,
 * the first "(" is paired with the first ")", then * and / left to right, then + and -; each step replaces
 * `formula[i-1:i+2]` with its result, Python's slice semantics included (so "-5+3" or "2*(3)" behave as they
 * do there). The result is a float: 77.33333333333333 for "25*3+7/3".
 */

type Item = number | string;

/** Python's `list.index(x)`: the first position, or ValueError. */
function index(list: Item[], x: string): number {
  const i = list.indexOf(x);
  if (i < 0) throw new PyException(`'${x}' is not in list`, "ValueError");
  return i;
}

/** Python's `list[i]` with negative indexes and IndexError. */
function at(list: Item[], i: number): Item {
  const j = i < 0 ? list.length + i : i;
  if (j < 0 || j >= list.length) throw new PyException("list index out of range", "IndexError");
  return list[j] as Item;
}

/** Python's slice assignment `list[start:stop] = items` (bounds clamped, negative indexes counted from the end). */
function assignSlice(list: Item[], start: number, stop: number, items: Item[]): void {
  const n = list.length;
  const norm = (i: number): number => (i < 0 ? Math.max(0, n + i) : Math.min(i, n));
  const s = norm(start);
  const e = Math.max(s, norm(stop));
  list.splice(s, e - s, ...items);
}

/** The Python type of a formula item: its numbers are floats. */
function t(x: Item): string {
  return typeof x === "number" ? "float" : "str";
}

function operate(a: Item, op: string, b: Item): Item {
  const both = typeof a === "number" && typeof b === "number";
  if (op === "+") {
    if (both) return (a as number) + (b as number);
    if (typeof a === "string" && typeof b === "string") return a + b;
    if (typeof a === "string") throw new PyException(`can only concatenate str (not "${t(b)}") to str`, "TypeError");
    throw new PyException(`unsupported operand type(s) for +: '${t(a)}' and '${t(b)}'`, "TypeError");
  }
  if (op === "*") {
    if (both) return (a as number) * (b as number);
    if (typeof a === "string" || typeof b === "string") {
      throw new PyException(`can't multiply sequence by non-int of type '${t(typeof a === "string" ? b : a)}'`, "TypeError");
    }
  }
  if (op === "-" || op === "/") {
    if (both) {
      if (op === "-") return (a as number) - (b as number);
      if (b === 0) throw new PyException("float division by zero", "ZeroDivisionError");
      return (a as number) / (b as number);
    }
    throw new PyException(`unsupported operand type(s) for ${op}: '${t(a)}' and '${t(b)}'`, "TypeError");
  }
  throw new PyException("invalid operator");
}

function calculateList(formula: Item[]): Item {
  while (formula.includes("(")) {
    const l = index(formula, "(");
    const r = index(formula, ")");
    const inner = calculateList(formula.slice(l + 1, Math.max(l + 1, r)));
    assignSlice(formula, l, r + 1, [inner]);
  }
  for (const [x, y] of [
    ["*", "/"],
    ["+", "-"],
  ] as const) {
    while (formula.includes(x) || formula.includes(y)) {
      let i: number;
      if (formula.includes(x) && formula.includes(y)) i = Math.min(index(formula, x), index(formula, y));
      else i = formula.includes(x) ? index(formula, x) : index(formula, y);
      const result = operate(at(formula, i - 1), at(formula, i) as string, at(formula, i + 1));
      const before = formula.length;
      assignSlice(formula, i - 1, i + 2, [result]);
      // A leading operator ("-5+3") makes Python's slice `formula[-1:2] = [...]` insert instead of replace:
      // the authors' loop never ends there. Here it stops with an error instead of hanging.
      if (formula.length >= before) throw new PyException("the formula makes API-Bank's Calculator loop forever (an operator without a left operand)", "RecursionError");
    }
  }
  return at(formula, 0);
}

function isValid(f: string): boolean {
  if (f.length === 0) return false;
  for (const c of f) if (!"0123456789+-*/()".includes(c)) return false;
  const count = (c: string): number => f.split(c).length - 1;
  if (count("(") !== count(")")) return false;
  const ops = count("+") + count("-") + count("*") + count("/");
  if (ops === 0) return false;
  if (ops + 1 === f.length) return false;
  return true;
}

/** Evaluates a formula as API-Bank's Calculator does (a float, or the string Python's `+` made of two operators). */
export function apiBankCalculate(formula: unknown): Item {
  if (typeof formula !== "string") throw new PyException(`'${pyTypeName(formula)}' object has no attribute 'replace'`, "AttributeError");
  const f = formula.replace(/ /g, "");
  if (!isValid(f)) throw new PyException("invalid formula");
  const list: Item[] = [];
  let num = "";
  for (const c of f) {
    if ("0123456789".includes(c)) num += c;
    else {
      if (num !== "") list.push(Number(num));
      num = "";
      list.push(c);
    }
  }
  if (num !== "") list.push(Number(num));
  return calculateList(list);
}
