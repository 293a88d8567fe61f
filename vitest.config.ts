import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/*
 * `npm test` is the quick suite; `npm run test:full` (TOOLSIM_FULL=1, also run by .ci/run) the full sweep: the same
 * files with the slow corpus suites unsampled and larger episode counts (test/support/test-mode.ts).
 * Files run in parallel on every core (vitest's default keeps one core free, which on a 2-core machine runs the
 * files one after another); each file still gets its own process.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.int.test.ts", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
