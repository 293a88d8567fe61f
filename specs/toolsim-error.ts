/** The one error base class of toolsim: thrown for programmer errors and for failures a caller cannot handle as data. */
export class ToolsimError extends Error {
  /** A stable, machine-readable code, e.g. `spec.not-found` or `usage`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolsimError";
    this.code = code;
  }
}
