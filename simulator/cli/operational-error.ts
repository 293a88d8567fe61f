import { ToolsimError } from "../../specs/toolsim-error.js";
import { withPath } from "../runs/file-writes.js";

/** The exit codes of the CLI (documented in the README). */
export const EXIT_CODES = {
  ok: 0,
  /** A bad spec, call, run or file the user named (missing, unreadable). */
  failed: 1,
  usage: 2,
  /** A model budget (`--max-cost`, `--max-calls`) stopped the run; it is resumable. */
  budget: 3,
  /** A bug in toolsim (the only case with a stack trace). */
  internal: 70,
  /** The system could not write (disk full, file too large, read-only file system, I/O error). */
  io: 74,
  /** The folder is in use by another toolsim process (its lock); try again when it has finished. */
  busy: 75,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
  /** Standard output was closed before the output was complete (`toolsim ... | head`). */
  brokenPipe: 141,
} as const;

/** What the CLI says about an operational error: one line and an exit code. */
export interface OperationalFailure {
  message: string;
  exitCode: number;
}

/** Errors about a path the user gave (exit 1), and what they mean. */
const PATH_ERRORS: Record<string, string> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "not a directory (or a part of the path is not)",
  EISDIR: "is a directory, not a file",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "already exists",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
};

/** Errors of the system while writing or reading (exit 74), and what they mean. */
const SYSTEM_ERRORS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large (a file-size limit such as `ulimit -f`, or the file system's)",
  EROFS: "read-only file system",
  EIO: "input/output error",
  EMFILE: "too many open files",
  ENFILE: "too many open files in the system",
};

/** An operational failure with its own message (e.g. a write failure with how to continue): one line, its exit code. */
export class OperationalError extends Error {
  override name = "OperationalError";
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The CLI's own errors that mean "busy", by `ToolsimError` code. */
const BUSY_CODES = new Set(["run.locked"]);

/** Whether an error is a system failure to write or read (disk full, EFBIG, ...). */
export function isSystemIoError(e: unknown): e is NodeJS.ErrnoException {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && code in SYSTEM_ERRORS;
}

/**
 * The one-line message and exit code of an operational error (a missing file, a full disk, a broken pipe, a
 * folder in use), or undefined for anything else (a bug: the caller prints its stack trace).
 */
export function operationalFailure(e: unknown): OperationalFailure | undefined {
  if (e instanceof OperationalError) return { message: e.message, exitCode: e.exitCode };
  if (e instanceof ToolsimError && BUSY_CODES.has(e.code)) return { message: e.message, exitCode: EXIT_CODES.busy };
  const err = e as NodeJS.ErrnoException | undefined;
  const code = err?.code;
  if (typeof code !== "string") return undefined;
  if (code === "EPIPE") return { message: "the output was closed before it was complete (broken pipe); stopped", exitCode: EXIT_CODES.brokenPipe };
  const path = err?.path !== undefined ? String(err.path) : undefined;
  const dest = (err as { dest?: unknown } | undefined)?.dest;
  const target = path !== undefined ? `${path}${typeof dest === "string" ? ` -> ${dest}` : ""}` : undefined;
  const system = SYSTEM_ERRORS[code];
  if (system !== undefined) {
    const verb = err?.syscall === "read" ? "cannot read" : err?.syscall === "open" ? "cannot open" : "cannot write";
    return { message: `${target !== undefined ? `${verb} ${target}` : `${verb} a file`}: ${system} (${code})`, exitCode: EXIT_CODES.io };
  }
  const meaning = PATH_ERRORS[code];
  if (meaning !== undefined) return { message: `${target ?? "a file"}: ${meaning} (${code})`, exitCode: EXIT_CODES.failed };
  return undefined;
}

let guarded = false;
/** What stays of the work when the process ends on an operational failure (a resumable run folder), said after the error. */
let exitNote: string | undefined;

/** Sets (or clears) the note said after an operational failure that ends the process (`the run in X stays resumable: ...`). */
export function setExitNote(note: string | undefined): void {
  exitNote = note;
}

/**
 * Makes failures outside a command's own flow operational too (once per process, for the real process only):
 * a closed standard output (EPIPE: `toolsim spec sample | head`) and errors raised by streams or timers
 * (a full disk under a write stream) end with one line and their exit code instead of Node's stack trace.
 */
export function guardProcess(write: (text: string) => void = (t) => void process.stderr.write(t)): void {
  if (guarded) return;
  guarded = true;
  const fail = (e: unknown): void => {
    const f = operationalFailure(e);
    if (f) {
      write(`toolsim: ${f.message}${exitNote !== undefined ? `; ${exitNote}` : ""}\n`);
      process.exit(f.exitCode);
    }
    write(`toolsim: internal error: ${(e as Error | undefined)?.stack ?? String(e)}\n`);
    process.exit(EXIT_CODES.internal);
  };
  process.stdout.on("error", (e) => fail(withPath(e, "the standard output")));
  // Nothing can be said on a closed standard error: exit with the code of what failed.
  process.stderr.on("error", (e: NodeJS.ErrnoException) => process.exit(e.code === "EPIPE" ? EXIT_CODES.brokenPipe : EXIT_CODES.io));
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
}
