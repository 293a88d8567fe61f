import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
import { processIO, UsageError, UserError, type CliIO } from "./cli-io.js";
import { EXIT_CODES, guardProcess, operationalFailure } from "./operational-error.js";

const require = createRequire(import.meta.url);

type CommandFactory = (io: CliIO, setExit: (code: number) => void) => Command;

/**
 * Each command's module, imported when the command runs: `toolsim generate` does not load the LLM clients, the
 * HTTP server or the queue, and `toolsim --version` loads none of them. In the order `--help` lists them.
 */
const COMMANDS: Record<string, () => Promise<CommandFactory>> = {
  generate: async () => (await import("./generate-command.js")).generateCommand,
  runs: async () => (await import("./runs-command.js")).runsCommand,
  doctor: async () => (await import("./doctor-command.js")).doctorCommand,
  spec: async () => (await import("./spec-commands.js")).specCommand,
  call: async () => (await import("./spec-commands.js")).callCommand,
  toolset: async () => (await import("./toolset/toolset-command.js")).toolsetCommand,
  serve: async () => (await import("./serve-command.js")).serveCommand,
  export: async () => (await import("./export-command.js")).exportCommand,
  stats: async () => (await import("./stats-command.js")).statsCommand,
  report: async () => (await import("./report-command.js")).reportCommand,
  replay: async () => (await import("./replay-command.js")).replayCommand,
  diff: async () => (await import("./replay-command.js")).diffCommand,
  tasks: async () => (await import("./eval-command.js")).tasksCommand,
  eval: async () => (await import("./eval-command.js")).evalCommand,
  worker: async () => (await import("./worker-command.js")).workerCommand,
};

/** The commands a command line needs: the one it names, or all of them (help, a misspelt name). */
function commandsFor(argv: string[]): string[] {
  const first = argv[0];
  if (first === "-V" || first === "--version") return [];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
}


/** The toolsim version (from package.json). */
export function toolsimVersion(): string {
  for (const p of ["../../package.json", "../../../package.json"]) {
    try {
      return (require(p) as { version: string }).version;
    } catch {
      // try the next location (source vs dist)
    }
  }
  return "0.0.0";
}

/**
 * Runs the toolsim CLI on arguments (without `node` and the script) and returns the exit code (see
 * {@link EXIT_CODES}): 0 ok, 1 a bad spec, call, run or file, 2 a usage error, 74 a write failure, 75 a folder
 * in use, 141 a closed output. User mistakes and operational errors are one line, never a stack trace.
 */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  if (io === processIO) guardProcess();
  let exitCode = 0;
  const setExit = (code: number): void => {
    exitCode = Math.max(exitCode, code);
  };
  const program = new Command("toolsim")
    .description("multi-agent simulation of tool use, driven by OpenAPI")
    .version(toolsimVersion(), "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();
  for (const name of commandsFor(argv)) program.addCommand((await COMMANDS[name]!())(io, setExit));
  const hint = "(run with --help for usage)";
  for (const cmd of program.commands) {
    cmd.exitOverride().showHelpAfterError(hint).configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
    for (const sub of cmd.commands) sub.exitOverride().showHelpAfterError(hint).configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return 0;
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`toolsim: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UserError) {
      io.err(`toolsim: ${e.message}\n`);
      return 1;
    }
    const failure = operationalFailure(e);
    if (failure) {
      io.err(`toolsim: ${failure.message}\n`);
      return failure.exitCode;
    }
    io.err(`toolsim: internal error: ${(e as Error | undefined)?.stack ?? String(e)}\n`);
    return EXIT_CODES.internal;
  }
}
