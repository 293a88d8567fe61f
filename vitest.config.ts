import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/*
 * `npm test` is the quick suite; `npm run test:full` (TOOLSIM_FULL=1, also run by .ci/run) the full sweep: the same
 * files with the slow corpus suites unsampled and larger episode counts (test/support/test-mode.ts).
 * Files run in parallel on every core (vitest's default keeps one core free, which on a 2-core machine runs the
 * files one after another). A worker process runs many files and imports the modules once for all of them
 * (`isolate: false`: importing LangChain, compromise and the rest once per file cost more than half the suite's
 * time); test/support/file-isolation.ts puts back what a file changed in the process when it ends.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.int.test.ts", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    isolate: false,
    setupFiles: ["test/support/file-isolation.ts"],
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
