import { isScalar, parseDocument, visit } from "yaml";
import { fail, ok, type Result } from "../result.js";
import type { SpecProblem } from "./spec-problem.js";

/** The syntax a spec text is written in. */
export type SpecSyntax = "json" | "yaml";

/** Picks the syntax of a spec file: by extension, else by its first character. */
export function detectSyntax(file: string, text: string): SpecSyntax {
  const lower = file.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  const first = text.trimStart()[0];
  return first === "{" || first === "[" ? "json" : "yaml";
}

/**
 * Parses the text of a spec file into plain JSON data (YAML aliases expanded, no shared or circular
 * objects). Syntax errors become problems with line and column.
 */
export function parseSpecText(text: string, file: string, syntax: SpecSyntax = detectSyntax(file, text)): Result<unknown, SpecProblem> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return syntax === "json" ? parseJson(body, file) : parseYaml(body, file);
}

function parseJson(text: string, file: string): Result<unknown, SpecProblem> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (err) {
    const raw = err instanceof Error ? err.message : String(err);
    const { line, col } = jsonErrorPosition(raw, text);
    const message = raw.replace(/ in JSON at position \d+.*$/, "").replace(/ \(line \d+ column \d+\)$/, "");
    return fail([syntaxProblem(file, "json-syntax", `JSON syntax error at line ${line}, column ${col}: ${message}`)]);
  }
}

/** Line and column (1-based) of a `JSON.parse` error, from `position N` or `line L column C` in its message. */
function jsonErrorPosition(message: string, text: string): { line: number; col: number } {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), col: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  const offset = pos ? Number(pos[1]) : text.length;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - before.lastIndexOf("\n");
  return { line, col };
}

const VERSION_FIELDS = [["openapi"], ["swagger"], ["info", "version"]];

function parseYaml(text: string, file: string): Result<unknown, SpecProblem> {
  const doc = parseDocument(text, { merge: true, prettyErrors: true, logLevel: "silent" });
  if (doc.errors.length > 0) {
    return fail(
      doc.errors.map((e) => {
        const at = e.linePos?.[0];
        const where = at ? `at line ${at.line}, column ${at.col}` : "";
        const headline = e.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? e.message;
        return syntaxProblem(file, "yaml-syntax", `YAML syntax error ${where}: ${headline}`.replace("  ", " "));
      }),
    );
  }
  // Keys of OpenAPI maps are strings: `Null:`, `1e3:` and `true:` are keys as written, not "", "1000", "true".
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && typeof pair.key.value !== "string" && typeof pair.key.source === "string") pair.key.value = pair.key.source;
    },
  });
  // `version: 1.0` is the number 1 in YAML: keep the version fields as written.
  for (const at of VERSION_FIELDS) {
    const node = doc.getIn(at, true);
    if (isScalar(node) && typeof node.value === "number" && typeof node.source === "string") node.value = node.source;
  }
  try {
    const value: unknown = doc.toJS({ maxAliasCount: 1000 });
    // A JSON round trip expands aliases into copies and rejects circular aliases.
    return ok(value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return fail([syntaxProblem(file, "yaml-syntax", `YAML cannot be read as JSON data: ${message}`)]);
  }
}

function syntaxProblem(file: string, code: string, message: string): SpecProblem {
  return { file, pointer: "", message, severity: "error", code };
}
