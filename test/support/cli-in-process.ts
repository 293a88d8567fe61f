import { main } from "../../simulator/cli/main.js";

/** What one CLI run printed and how it ended. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in this process (`main(argv)`, not a TTY), capturing what it writes to stdout and stderr. */
export async function runCli(argv: string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}
