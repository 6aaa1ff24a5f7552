import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // At least two files at once even on 2 cores (vitest's default there is one): the slow
    // files wait on child processes, PostgreSQL, Redis and the next minute's digest slot rather
    // than on their own CPU, so two run side by side in little more than the longer one's time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
