/** How bad a problem in a spec is: errors stop the load, warnings are repaired and reported. */
export type Severity = "error" | "warning";

/** A problem found in an OpenAPI document: where it is (file + JSON pointer) and what it is. */
export interface SpecProblem {
  /** The file the problem is in (`<inline>` for documents given as objects). */
  file: string;
  /** JSON pointer to the offending node, `""` for the whole document. */
  pointer: string;
  message: string;
  severity: Severity;
  /** A stable code, e.g. `path-leading-slash`, `yaml-syntax`, `ref-unresolved`. */
  code: string;
}

/** Formats a problem as one line: `file#/pointer: severity: message`. */
export function formatProblem(p: SpecProblem): string {
  const where = p.pointer === "" ? p.file : `${p.file}#${p.pointer}`;
  return `${where}: ${p.severity}: ${p.message} [${p.code}]`;
}
