/** One function of a toolset's natural-language function documentation. */
export interface FunctionDoc {
  /** The function's name (an operationId). */
  name: string;
  description: string;
  /** The `Input:` text as written. */
  inputText: string;
  /** The input's argument names -> their documentation, when the input is a JSON object. */
  input?: Record<string, string>;
  output: string;
  /** 1-based line of the block in the text. */
  line: number;
}

const NUMBERED = /^\s*(?:\d+[.)]\s*)?Name\s*:\s*(.+?)\s*$/i;
const FIELD = /^\s*(Description|Input|Parameters|Output)\s*:\s*(.*)$/i;
/** NLDocumentation style: `name: description` followed by `Parameters:`. */
const NL_HEAD = /^([A-Za-z_][\w.-]*)\s*:\s*(.*)$/;

function parseInput(text: string): Record<string, string> | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    return Object.fromEntries(Object.entries(v).map(([k, d]) => [k, typeof d === "string" ? d : JSON.stringify(d)]));
  } catch {
    return undefined;
  }
}

interface Block {
  name: string;
  line: number;
  fields: Record<string, string>;
}

function toDoc(b: Block): FunctionDoc {
  const inputText = (b.fields["input"] ?? b.fields["parameters"] ?? "").trim();
  const input = parseInput(inputText);
  return {
    name: b.name.replace(/[`*]/g, "").trim(),
    description: (b.fields["description"] ?? "").trim(),
    inputText,
    ...(input ? { input } : {}),
    output: (b.fields["output"] ?? "").trim(),
    line: b.line,
  };
}

/**
 * Parses function documentation in ToolAlpaca's format (`1. Name: x`, `Description:`, `Input: {...}`,
 * `Output:`), or in its NLDocumentation format (`x: description`, `Parameters: {...}`, `Output:`).
 * Lines that continue a field are appended to it. Text that is neither gives no functions.
 */
export function parseFunctionDocs(text: string): FunctionDoc[] {
  const lines = text.split(/\r?\n/);
  const numbered = lines.some((l) => NUMBERED.test(l));
  const blocks: Block[] = [];
  let current: Block | undefined;
  let field: string | undefined;
  lines.forEach((line, i) => {
    const head = numbered ? NUMBERED.exec(line) : undefined;
    if (head?.[1] !== undefined) {
      current = { name: head[1], line: i + 1, fields: {} };
      blocks.push(current);
      field = undefined;
      return;
    }
    if (!numbered) {
      const next = lines[i + 1] ?? "";
      const nl = NL_HEAD.exec(line);
      if (nl?.[1] !== undefined && !FIELD.test(line) && /^\s*Parameters\s*:/i.test(next)) {
        current = { name: nl[1], line: i + 1, fields: { description: nl[2] ?? "" } };
        blocks.push(current);
        field = "description";
        return;
      }
    }
    if (!current) return;
    const f = FIELD.exec(line);
    if (f?.[1] !== undefined) {
      field = f[1].toLowerCase();
      current.fields[field] = f[2] ?? "";
      return;
    }
    if (field !== undefined && line.trim() !== "") current.fields[field] = `${current.fields[field] ?? ""}\n${line.trim()}`;
  });
  return blocks.map(toDoc);
}
