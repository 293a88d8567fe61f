import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
import { processIO, UsageError, UserError, type CliIO } from "./cli-io.js";
import { doctorCommand } from "./doctor-command.js";
import { exportCommand } from "./export-command.js";
import { generateCommand } from "./generate-command.js";
import { reportCommand } from "./report-command.js";
import { runsCommand } from "./runs-command.js";
import { statsCommand } from "./stats-command.js";
import { serveCommand } from "./serve-command.js";
import { diffCommand, replayCommand } from "./replay-command.js";
import { evalCommand, tasksCommand } from "./eval-command.js";
import { callCommand, specCommand } from "./spec-commands.js";
import { toolsetCommand } from "./toolset/toolset-command.js";
import { workerCommand } from "./worker-command.js";
import { EXIT_CODES, guardProcess, operationalFailure } from "./operational-error.js";

const require = createRequire(import.meta.url);


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
  program.addCommand(generateCommand(io, setExit));
  program.addCommand(runsCommand(io, setExit));
  program.addCommand(doctorCommand(io, setExit));
  program.addCommand(specCommand(io, setExit));
  program.addCommand(callCommand(io, setExit));
  program.addCommand(toolsetCommand(io, setExit));
  program.addCommand(serveCommand(io, setExit));
  program.addCommand(exportCommand(io, setExit));
  program.addCommand(statsCommand(io, setExit));
  program.addCommand(reportCommand(io));
  program.addCommand(replayCommand(io, setExit));
  program.addCommand(diffCommand(io, setExit));
  program.addCommand(tasksCommand(io, setExit));
  program.addCommand(evalCommand(io, setExit));
  program.addCommand(workerCommand(io, setExit));
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
