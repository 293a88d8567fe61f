import { importApiBank } from "../simulator/import-tasks.js";
const { tasks, skipped } = importApiBank("../shared/corpora/apibank/level-1-dialogues");
console.log(skipped);
