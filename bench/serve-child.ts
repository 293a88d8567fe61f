// The serve bench's entry for `toolsim serve` as a child process: `node --import tsx bench/serve-child.ts serve SPEC ...`.
import { main } from "../simulator/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
