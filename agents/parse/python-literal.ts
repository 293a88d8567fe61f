/**
 * Parses a Python literal as API-Bank's dialogues store some arguments (`"['John', 'Jane']"`,
 * `"[{'name': 'blood_pressure', 'value': '120/80'}]"`, `"True"`): strings in single or double quotes, numbers,
 * True/False/None, lists, tuples and dicts. Returns undefined for anything else (never throws).
 */
export function parsePythonLiteral(text: string): { value: unknown } | undefined {
  let i = 0;
  const s = text;
  const ws = (): void => {
    while (i < s.length && /\s/.test(s[i] as string)) i++;
  };
  const fail = Symbol("fail");
  const value = (): unknown => {
    ws();
    const c = s[i];
    if (c === undefined) return fail;
    if (c === "[" || c === "(") {
      const close = c === "[" ? "]" : ")";
      i++;
      const out: unknown[] = [];
      ws();
      if (s[i] === close) {
        i++;
        return out;
      }
      for (;;) {
        const v = value();
        if (v === fail) return fail;
        out.push(v);
        ws();
        if (s[i] === ",") {
          i++;
          ws();
          if (s[i] === close) {
            i++;
            return out;
          }
          continue;
        }
        if (s[i] === close) {
          i++;
          return out;
        }
        return fail;
      }
    }
    if (c === "{") {
      i++;
      const out: Record<string, unknown> = {};
      ws();
      if (s[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        const k = value();
        if (k === fail || (typeof k !== "string" && typeof k !== "number")) return fail;
        ws();
        if (s[i] !== ":") return fail;
        i++;
        const v = value();
        if (v === fail) return fail;
        out[String(k)] = v;
        ws();
        if (s[i] === ",") {
          i++;
          ws();
          if (s[i] === "}") {
            i++;
            return out;
          }
          continue;
        }
        if (s[i] === "}") {
          i++;
          return out;
        }
        return fail;
      }
    }
    if (c === "'" || c === '"') {
      i++;
      let out = "";
      while (i < s.length && s[i] !== c) {
        if (s[i] === "\\" && i + 1 < s.length) {
          const n = s[i + 1] as string;
          out += n === "n" ? "\n" : n === "t" ? "\t" : n;
          i += 2;
          continue;
        }
        out += s[i];
        i++;
      }
      if (s[i] !== c) return fail;
      i++;
      return out;
    }
    const m = /^(True|False|None|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(s.slice(i));
    if (!m) return fail;
    i += (m[1] as string).length;
    if (m[1] === "True") return true;
    if (m[1] === "False") return false;
    if (m[1] === "None") return null;
    return Number(m[1]);
  };
  const v = value();
  ws();
  return v === fail || i !== s.length ? undefined : { value: v };
}
