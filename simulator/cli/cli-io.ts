/** Where the CLI writes: injectable so that tests capture output (golden files) without a child process. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout is a terminal (progress displays, colours). */
  isTTY: boolean;
}

/** The process's own stdout and stderr. */
export const processIO: CliIO = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
};

/** An error in how the CLI was invoked (exit code 2), reported without a stack trace. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A failure the user caused (a bad spec, a bad call, a missing file): exit code 1, no stack trace. */
export class UserError extends Error {
  override name = "UserError";
}
