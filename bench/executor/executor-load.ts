/**
 * Executor part `load`: the 3 largest OAS3 and the 3 largest Swagger 2.0 files of the shared corpora,
 * loaded by toolsim (`loadCatalog`: parsed, bundled, repaired, converted, catalog built) and by Prism
 * (`getHttpOperationsFromSpec`), interleaved rounds after one warm-up load each. The ratio is
 * prism_ms / toolsim_ms (above 1: toolsim loads faster).
 */
import { statSync } from "node:fs";
import { basename, join } from "node:path";
import { loadCatalog } from "../../specs/catalog/load-catalog.js";
import { CORPORA, figureLabel, largestSpecs, ROUNDS } from "../paths.js";
import { prismLoad } from "../prism.js";
import { median, note, nowMs, pairedRatio, printFigure, printRounds, settle } from "../stats.js";

export async function benchLoad(): Promise<void> {
  const files = [...largestSpecs(join(CORPORA, "oas3"), 3), ...largestSpecs(join(CORPORA, "swagger2"), 3)];
  if (files.length === 0) {
    note(`executor.load: no corpora under ${CORPORA}, skipped`);
    return;
  }
  for (const file of files) {
    const cpuMs: { toolsim: number[]; prism: number[] } = { toolsim: [], prism: [] };
    const toolsim = async (): Promise<number> => {
      const t = nowMs();
      const c = process.cpuUsage();
      const result = await loadCatalog(file);
      const ms = nowMs() - t;
      const used = process.cpuUsage(c);
      if (!result.ok) throw new Error(`toolsim could not load ${file}`);
      cpuMs.toolsim.push((used.user + used.system) / 1000);
      return ms;
    };
    const prism = async (): Promise<number> => {
      const t = nowMs();
      const c = process.cpuUsage();
      await prismLoad(file);
      const ms = nowMs() - t;
      const used = process.cpuUsage(c);
      cpuMs.prism.push((used.user + used.system) / 1000);
      return ms;
    };
    // Warm-up (first use of each code path), and a check that both see the same operations.
    const first = await loadCatalog(file);
    const ops = await prismLoad(file);
    const tools = first.ok ? first.value.tools.length : -1;
    note(`executor.load ${basename(file)} (${Math.round(statSync(file).size / 1024)} KB): toolsim ${tools} tools, prism ${ops.length} operations`);
    const rounds: { toolsim: number[]; prism: number[] } = { toolsim: [], prism: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (["toolsim", "prism"] as const) : (["prism", "toolsim"] as const);
      for (const side of order) {
        await settle();
        rounds[side].push(side === "toolsim" ? await toolsim() : await prism());
      }
    }
    const mine = median(rounds.toolsim);
    const theirs = median(rounds.prism);
    const label = figureLabel(file);
    printFigure(`executor.load_ms_${label}`, mine, theirs / mine);
    const cpuMine = median(cpuMs.toolsim);
    const cpuTheirs = median(cpuMs.prism);
    printRounds(
      `executor.load_ms_${label}`,
      rounds,
      `(ms; prism median ${theirs.toFixed(1)} ms; median of per-round ratios ${pairedRatio(rounds.prism, rounds.toolsim).toFixed(2)}; ` +
        `CPU ms medians toolsim ${cpuMine.toFixed(1)}, prism ${cpuTheirs.toFixed(1)}, ratio ${(cpuTheirs / cpuMine).toFixed(2)})`,
    );
  }
}
