import { replayRun } from "../simulator/replay.js";
import { formatDifference } from "../simulator/journal-compare.js";
const r = await replayRun({ source: process.argv[2]!, out: process.argv[3], results: (process.argv[4] as any) ?? "recompute" });
console.log(JSON.stringify({ ...r, differences: r.differences.map(formatDifference) }, null, 1));
